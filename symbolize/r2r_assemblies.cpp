#include <gdmap/symbolize/r2r_assemblies.hpp>

#include <gdmap/io/mapped_file.hpp>
#include <gdmap/metadata/assembly_refs.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/pe_image.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

namespace gdmap::symbolize {

std::string AssemblyResolver::find(const std::string& fileName, const std::string& imagePath) const {
  return pathBeside(imagePath, fileName);
}

Expected<AssemblyFile> AssemblyResolver::open(const std::string& path) const {
  Expected<MappedFile> mapped = MappedFile::open(path);
  if (!mapped) return mapped.error();
  auto holder = std::make_shared<MappedFile>(std::move(mapped).value());
  const ByteSpan bytes = holder->bytes();
  return AssemblyFile{path, bytes, std::move(holder)};
}

std::string pathBeside(const std::string& imagePath, const std::string& fileName) {
  const std::size_t slash = imagePath.rfind('/');
  return slash == std::string::npos ? fileName : imagePath.substr(0, slash + 1) + fileName;
}

std::string assemblySimpleName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base;
}

std::vector<std::string> componentNames(const r2r::R2RImage& image, ByteSpan file) {
  std::vector<std::string> names(image.components.size());
  const r2r::Section* manifest = image.findSection(r2r::section::kManifestMetadata);
  if (manifest != nullptr && manifest->fileOffset <= file.size() &&
      manifest->size <= file.size() - manifest->fileOffset) {
    const ByteSpan root = file.subspan(static_cast<std::size_t>(manifest->fileOffset), manifest->size);
    if (Expected<std::vector<std::string>> refs = metadata::assemblyRefNames(root, manifest->fileOffset)) {
      for (std::size_t i = 0; i < names.size() && i < refs->size(); ++i) names[i] = (*refs)[i];
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) names[i] = std::to_string(i);
  }
  return names;
}

bool hasOwnMetadata(ByteSpan file) {
  const Expected<pe::PeImage> pe = pe::PeImage::open(file);
  return pe && pe->cliHeader();
}

Expected<AssemblyMetadata> readAssemblyMetadata(ByteSpan bytes) {
  Expected<metadata::AssemblyTypeNames> names = metadata::AssemblyTypeNames::open(bytes);
  if (!names) return names.error();
  AssemblyMetadata out;
  out.bytes = bytes;
  out.names = std::make_unique<metadata::AssemblyTypeNames>(std::move(names).value());
  if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(bytes)) out.ilBodies = std::move(*il);
  if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(bytes))
    out.signatures = std::make_unique<metadata::MethodSignatures>(std::move(*s));
  return out;
}

ComponentMetadata readComponentMetadata(const std::vector<std::string>& names, const std::string& compositePath,
                                        const AssemblyResolver& resolver) {
  ComponentMetadata out;
  out.components.resize(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    out.failedPath = resolver.find(names[i] + ".dll", compositePath);
    Expected<AssemblyFile> file = resolver.open(out.failedPath);
    Expected<AssemblyMetadata> read =
        file ? readAssemblyMetadata(file->bytes) : Expected<AssemblyMetadata>(file.error());
    if (!read) {
      out.unreadable = !file;
      out.error = read.error();
      out.components.clear();
      return out;
    }
    out.components[i] = std::move(*read);
    out.components[i].holder = std::move(file->holder);  // a mapping moves with its bytes
  }
  out.failedPath.clear();
  return out;
}

namespace {

// Whether the body's bounds can be checked against its method's IL size
// (`il`, when its row has one).
const metadata::MethodIl* checkedIl(const r2r::MethodBody& m, const std::vector<metadata::MethodIl>& bodies) {
  if (!m.largestIlOffset || m.resumptionStub || m.hasModule || m.token >> 24 != 0x06) return nullptr;
  const std::uint32_t row = m.token & 0x00FFFFFFu;
  if (row == 0 || row > bodies.size()) return nullptr;
  const metadata::MethodIl& il = bodies[row - 1];
  if (!il.codeSize || *m.largestIlOffset < *il.codeSize || (il.runtimeAsync && !m.asyncVariant)) return nullptr;
  return &il;
}

// The error for a body past its IL: the first bound past the body names
// the place.
Error pastBody(const r2r::MethodBody& m, const r2r::R2RImage& image, ByteSpan file, std::uint32_t codeSize) {
  std::size_t index = 0;
  std::uint32_t ilOffset = *m.largestIlOffset;
  if (const Expected<il::BoundsView> view =
          il::openBounds(m.bounds.first(m.bounds.size() - m.boundsTrailing), image.profile.bounds)) {
    il::BoundsView::Cursor cursor = view->cursor();
    for (il::Bound bound; cursor.next(bound); ++index) {
      if (bound.ilOffset < il::kEpilog && bound.ilOffset >= codeSize) {
        ilOffset = bound.ilOffset;
        break;
      }
    }
  }
  Error e;
  e.rule = rules::kR2rIlOffsetPastBody;
  e.offset = static_cast<std::size_t>(m.bounds.data() - file.data());
  e.message = (m.asyncVariant ? "method " + hex32(m.token) + " (async variant)" : "method " + hex32(m.token)) +
              ": bounds[" + std::to_string(index) + "] names IL offset " + shortHex(ilOffset) + ", past the method's " +
              std::to_string(codeSize) + " bytes of IL: the image is misread, or not what its metadata says";
  return e;
}

}  // namespace

std::vector<Error> ilOffsetsPastBodies(const r2r::R2RImage& image, ByteSpan file, ByteSpan assembly,
                                       const std::vector<metadata::MethodIl>& bodies,
                                       std::optional<std::uint32_t> component) {
  // The reader kept each body's largest IL offset: the check is a
  // comparison per body, and only a body that fails is looked at again.
  std::vector<Error> errors;
  for (const r2r::MethodBody& m : image.methods) {
    if (component && m.component != *component) continue;
    const metadata::MethodIl* il = checkedIl(m, bodies);
    if (il == nullptr) continue;
    const std::uint32_t row = m.token & 0x00FFFFFFu;
    if (const Expected<bool> intrinsic = metadata::hasIntrinsicAttribute(assembly, row); intrinsic && *intrinsic) {
      continue;
    }
    errors.push_back(pastBody(m, image, file, *il->codeSize));
  }
  return errors;
}

std::optional<il::Instantiation> bodyInstantiation(const r2r::MethodBody& body) {
  if (!body.instantiated && !body.asyncVariant && !body.resumptionStub) return std::nullopt;
  il::Instantiation inst;
  inst.typeArguments = body.typeArguments;
  inst.methodArguments = body.methodArguments;
  inst.unboxingStub = (body.signatureFlags & r2r::method_sig::kUnboxingStub) != 0;
  inst.asyncVariant = body.asyncVariant;
  inst.resumptionStub = body.resumptionStub;
  return inst;
}

std::vector<il::CodeRange> bodyCodeRanges(const r2r::MethodBody& body, const r2r::R2RImage& image,
                                          std::optional<std::uint64_t> base) {
  std::vector<il::CodeRange> ranges;
  ranges.reserve(body.runtimeFunctionCount + body.coldRuntimeFunctionCount);
  const auto add = [&](std::uint32_t first, std::uint32_t count) {
    for (std::uint32_t f = first; f < first + count; ++f) {
      const r2r::RuntimeFunction& rf = image.runtimeFunctions[f];
      ranges.push_back({base.value_or(0) + rf.begin, rf.size(), base.has_value()});
    }
  };
  add(body.firstRuntimeFunction, body.runtimeFunctionCount);
  add(body.firstColdRuntimeFunction, body.coldRuntimeFunctionCount);
  return ranges;
}

}  // namespace gdmap::symbolize
