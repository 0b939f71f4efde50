#include <gdmap/io/mapped_file.hpp>
#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/image_pdb.hpp>

#include <sys/stat.h>
#include <optional>
#include <utility>
#include <vector>

namespace gdmap::symbolize {

// The PDB's bytes (a mapped file or the inflated embedded PDB) and the
// reader over them. Neither storage moves its bytes when moved, so the
// reader's view stays valid.
struct ImagePdb::State {
  std::optional<MappedFile> file;
  std::vector<std::uint8_t> inflated;
  std::optional<pdb::PortablePdb> portable;
  std::string source;
};

const pdb::PortablePdb& ImagePdb::pdb() const { return *state_->portable; }
const std::string& ImagePdb::source() const { return state_->source; }

namespace {

bool isRegularFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

// The last component of a CodeView path, which the compiler wrote on the
// build machine: Windows separators too.
std::string fileNameOf(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string withPdbExtension(const std::string& imagePath) {
  const auto slash = imagePath.find_last_of('/');
  const auto dot = imagePath.find_last_of('.');
  const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (hasExtension ? imagePath.substr(0, dot) : imagePath) + ".pdb";
}

// The files to try, in order, when no PDB is named: the CodeView entries'
// file names, then the image's name, each beside the image (once each).
std::vector<std::string> candidates(const pdb::DebugDirectory& directory, const std::string& imagePath) {
  std::vector<std::string> paths;
  const auto add = [&paths](std::string path) {
    for (const auto& seen : paths)
      if (seen == path) return;
    paths.push_back(std::move(path));
  };
  for (const auto& entry : directory.codeView)
    if (entry.portable && !entry.path.empty()) add(directoryOf(imagePath) + fileNameOf(entry.path));
  add(withPdbExtension(imagePath));
  return paths;
}

// The message of an error about another file starts with that file, so
// that "pdb-invalid at 0x1c" says which file 0x1c is in.
Error inFile(Error error, const std::string& path) {
  error.message = path + ": " + error.message;
  return error;
}

// The same for an error a reader found in that file's bytes: its byte
// offset and field path go into the message, since the diagnostic that
// carries it is about the image (`il locate IMAGE --pdb FILE`).
Error readIn(Error error, const std::string& path) {
  std::string where = path + ": byte " + hex32(static_cast<std::uint32_t>(error.offset));
  if (!error.path.empty()) where += ", " + error.path;
  error.message = where + ": " + error.message;
  return error;
}

}  // namespace

Expected<ImagePdb> ImagePdb::open(ByteSpan image, const std::string& imagePath, const std::string& pdbPath) {
  auto directory = pdb::readDebugDirectory(image);
  if (!directory) return readIn(directory.error(), imagePath);
  auto state = std::make_shared<State>();
  std::vector<std::string> tried;
  if (!pdbPath.empty()) {
    tried.push_back(pdbPath);
  } else if (directory->hasEmbeddedPdb) {
    auto inflated = pdb::inflateEmbeddedPdb(*directory);
    if (!inflated) return readIn(inflated.error(), imagePath);
    state->inflated = std::move(*inflated);
    state->source = "<embedded>";
  } else {
    for (auto& path : candidates(*directory, imagePath))
      if (isRegularFile(path)) tried.push_back(std::move(path));
    if (tried.empty())
      return Error(0, "no portable PDB: none embedded, none beside the image (" + withPdbExtension(imagePath) + ")",
                   rules::kPdbNotFound);
  }
  // Each file found is tried in turn: the first whose id matches the image
  // is the PDB; when none does, the first one's error is the answer.
  std::optional<Error> firstError;
  for (const auto& path : tried) {
    auto file = MappedFile::open(path, FileAccess::Sparse);
    if (!file) {
      if (!firstError) firstError = Error(0, file.error().message, rules::kPdbNotFound);
      continue;
    }
    auto portable = pdb::PortablePdb::open(file->bytes());
    if (portable) {
      auto matches = pdb::checkPdbMatches(*directory, portable->id());
      if (matches) {
        state->file = std::move(*file);
        state->portable = std::move(*portable);
        state->source = path;
        return ImagePdb(std::move(state));
      }
      if (!firstError) firstError = inFile(matches.error(), path);
    } else if (!firstError) {
      firstError = readIn(portable.error(), path);
    }
  }
  if (firstError) return *firstError;
  auto portable = pdb::PortablePdb::open(state->inflated);
  if (!portable) return readIn(portable.error(), imagePath + " <embedded>");
  auto matches = pdb::checkPdbMatches(*directory, portable->id());
  if (!matches) return inFile(matches.error(), imagePath + " <embedded>");
  state->portable = std::move(*portable);
  return ImagePdb(std::move(state));
}

}  // namespace gdmap::symbolize
