// gdmap::OutputFile (io/): the -o writer of the CLI. The CLI tests
// (tests/cli/output_safety.sh) cover FIFOs, devices and permissions; these
// pin the library contract: identities, symlinks, messages, no leftovers.
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/io/output_file.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "gdmap-output-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string contents(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

bool hasTemporaries(const fs::path& dir) {
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().filename().string().rfind(".gdmap-", 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("output file: a new file and a replaced file get the whole data, no temporary stays") {
  TempDir dir;
  const fs::path out = dir.path / "out.bin";
  auto file = gdmap::OutputFile::resolve(out.string());
  REQUIRE(file);
  REQUIRE(file->write("first"));
  CHECK(contents(out) == "first");
  auto again = gdmap::OutputFile::resolve(out.string());
  REQUIRE(again);
  REQUIRE(again->write("second"));
  CHECK(contents(out) == "second");
  CHECK_FALSE(hasTemporaries(dir.path));
}

TEST_CASE("output file: the input is refused by identity, whatever path names it") {
  TempDir dir;
  const fs::path input = dir.path / "in.json";
  put(input, "input");
  auto mapped = gdmap::MappedFile::open(input.string());
  REQUIRE(mapped);
  const std::vector<gdmap::FileIdentity> inputs{mapped->identity()};
  fs::create_hard_link(input, dir.path / "hard.json");
  fs::create_symlink("in.json", dir.path / "soft.json");
  for (const fs::path& alias : {input, dir.path / "." / "in.json", dir.path / "hard.json", dir.path / "soft.json"}) {
    CAPTURE(alias.string());
    auto file = gdmap::OutputFile::resolve(alias.string(), inputs);
    REQUIRE_FALSE(file);
    CHECK(file.error().rule == "output-is-input");
    const std::string& message = file.error().message;
    const bool namesPath =
        message.rfind(alias.string() + ": ", 0) == 0 || message.rfind(alias.string() + " (a symlink to ", 0) == 0;
    CHECK(namesPath);
  }
  CHECK(contents(input) == "input");
  // Another file is fine.
  CHECK(gdmap::OutputFile::resolve((dir.path / "other.json").string(), inputs));
}

TEST_CASE("output file: a symlink is written through and stays a link") {
  TempDir dir;
  fs::create_directory(dir.path / "real");
  fs::create_directory(dir.path / "links");
  put(dir.path / "real" / "target.bin", "old");
  fs::create_symlink("../real/target.bin", dir.path / "links" / "link.bin");
  auto file = gdmap::OutputFile::resolve((dir.path / "links" / "link.bin").string());
  REQUIRE(file);
  CHECK(file->target() == (dir.path / "links" / ".." / "real" / "target.bin").string());
  REQUIRE(file->write("new"));
  CHECK(fs::is_symlink(dir.path / "links" / "link.bin"));
  CHECK(contents(dir.path / "real" / "target.bin") == "new");
  CHECK_FALSE(hasTemporaries(dir.path / "real"));
  CHECK_FALSE(hasTemporaries(dir.path / "links"));
}

TEST_CASE("output file: errors name the user's path and leave nothing behind") {
  TempDir dir;
  const std::string missing = (dir.path / "no-folder" / "out.bin").string();
  auto file = gdmap::OutputFile::resolve(missing);
  REQUIRE(file);  // nothing there yet: the write finds out
  const gdmap::Status written = file->write("data");
  REQUIRE_FALSE(written);
  CHECK(written.error().rule == "output-unwritable");
  CHECK(written.error().message.rfind(missing + ": ", 0) == 0);
  CHECK(written.error().message.find(".gdmap-") == std::string::npos);

  put(dir.path / "plain", "x");
  const std::string inside = (dir.path / "plain" / "out.bin").string();
  auto underFile = gdmap::OutputFile::resolve(inside);
  REQUIRE_FALSE(underFile);
  CHECK(underFile.error().rule == "output-unwritable");
  CHECK(underFile.error().message.rfind(inside + ": ", 0) == 0);

  auto folder = gdmap::OutputFile::resolve(dir.path.string());
  REQUIRE_FALSE(folder);
  CHECK(folder.error().rule == "output-unwritable");
  CHECK_FALSE(hasTemporaries(dir.path));
}

TEST_CASE("output file: a character device is written in place, never replaced") {
  auto file = gdmap::OutputFile::resolve("/dev/null");
  REQUIRE(file);
  REQUIRE(file->write("discarded"));
  CHECK(fs::is_character_file("/dev/null"));
}

namespace {

TEST_CASE("output file: produced output arrives whole, and a failing producer leaves the old file and no temporary") {
  TempDir dir;
  const fs::path target = dir.path / "out.json";
  put(target, "old");
  auto file = gdmap::OutputFile::resolve(target.string());
  REQUIRE(file);

  std::size_t chunks = 0;
  REQUIRE(file->write([&](const gdmap::OutputEmit& emit) -> gdmap::Status {
    for (const char* piece : {"one ", "two ", "three"}) {
      ++chunks;
      if (gdmap::Status s = emit(piece); !s) return s;
    }
    return gdmap::Success{};
  }));
  CHECK(chunks == 3);
  CHECK(contents(target) == "one two three");

  const gdmap::Status failed = file->write([](const gdmap::OutputEmit& emit) -> gdmap::Status {
    if (gdmap::Status s = emit("half of it"); !s) return s;
    return gdmap::Error{0, "the producer gave up", gdmap::rules::kInvalidMap};
  });
  REQUIRE_FALSE(failed);
  CHECK(failed.error().message == "the producer gave up");
  CHECK(contents(target) == "one two three");
  CHECK_FALSE(hasTemporaries(dir.path));
}

}  // namespace

TEST_CASE("output file: a pipe named by /dev/fd/N or /proc/self/fd/N is written in place") {
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const std::string path = prefix + std::to_string(fds[1]);
    auto file = gdmap::OutputFile::resolve(path);
    REQUIRE_MESSAGE(file, path);
    REQUIRE_MESSAGE(file->write("through the pipe"), path);
    ::close(fds[1]);
    char got[64] = {};
    const ssize_t n = ::read(fds[0], got, sizeof got);
    ::close(fds[0]);
    CHECK(std::string(got, n > 0 ? static_cast<std::size_t>(n) : 0) == "through the pipe");
  }
}

TEST_CASE("output file: a producer that throws (out of memory) leaves no temporary and the old content") {
  TempDir dir;
  const fs::path out = dir.path / "out.bin";
  put(out, "old");
  auto file = gdmap::OutputFile::resolve(out.string());
  REQUIRE(file);
  CHECK_THROWS_AS(file->write([](const gdmap::OutputEmit& emit) -> gdmap::Status {
    (void)emit("part");
    throw std::bad_alloc();
  }),
                  std::bad_alloc);
  CHECK(contents(out) == "old");
  CHECK_FALSE(hasTemporaries(dir.path));
}
