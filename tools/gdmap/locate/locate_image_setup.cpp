#include "locate/locate_image_setup.hpp"

#include "app/exit_status.hpp"
#include "common/type_names_input.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/metadata/method_bodies.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <sys/stat.h>
#include <algorithm>

namespace gdmap::cli {

std::optional<std::vector<symbolize::Mapping>> readMapsFile(const std::string& path, Report& report, int& status) {
  status = kUsageOrIo;
  std::optional<InputBytes> file = openInput(path, report);
  if (!file) return std::nullopt;
  const ByteSpan bytes = file->bytes();
  Expected<std::vector<symbolize::Mapping>> mappings =
      symbolize::parseProcMaps(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!mappings) {
    status = kInvalid;
    Diagnostic d;
    d.rule = mappings.error().rule;
    d.message = mappings.error().message;
    d.file = file->displayName();
    report.add(std::move(d));
    return std::nullopt;
  }
  status = kSuccess;
  return std::move(*mappings);
}

void addPdbNote(Report& report, const symbolize::PdbNote& note, Severity severity, const std::string& what) {
  Diagnostic d;
  d.severity = severity;
  d.rule = note.error.rule;
  d.message = what + ": " + note.error.message;
  d.file = note.image;
  report.add(std::move(d));
}

ImageAnswer LocatedImage::translate(std::uint64_t value) const {
  ImageAnswer a;
  a.located.kind = kind;
  if (mode == Mode::Rva) {
    a.located.rva = static_cast<std::uint32_t>(value);
    return a;
  }
  a.address = value;
  if (mode == Mode::Base) {
    if (value < base || value - base > UINT32_MAX) {
      a.problem = "outside the image mapped at " + shortHex(base);
      return a;
    }
    a.located.rva = static_cast<std::uint32_t>(value - base);
    return a;
  }
  const auto it = std::upper_bound(mappings.begin(), mappings.end(), value,
                                   [](std::uint64_t v, const symbolize::Mapping& m) { return v < m.begin; });
  if (it == mappings.begin() || value >= std::prev(it)->end) {
    a.problem = "in no mapping of the image";
    return a;
  }
  const std::uint64_t offset = std::prev(it)->offset + (value - std::prev(it)->begin);
  const std::optional<std::uint32_t> rva = symbolize::rvaOfFileOffset(*pe, offset);
  if (!rva) {
    a.problem = "at file offset " + shortHex(offset) + " of the image, in none of its sections";
    return a;
  }
  a.located.rva = *rva;
  return a;
}

ImageAnswer LocatedImage::answer(std::uint64_t value) {
  ImageAnswer a = translate(value);
  if (!a.problem.empty()) return a;
  a.located = locator->locate(a.located.rva, kind);
  if (a.located.method != nullptr && !components.empty()) a.component = components[a.located.method->component];
  if (pdb) a.source = symbolize::sourceLineOf(*pdb, a.located);
  return a;
}

namespace {

// Whether `path` names the file `identity` is, or (no identity: stdin
// from a pipe) is `name` itself.
bool sameFile(const std::string& path, const std::optional<FileIdentity>& identity, const std::string& name) {
  struct stat info {};
  if (!identity) return path == name;
  return ::stat(path.c_str(), &info) == 0 && static_cast<std::uint64_t>(info.st_dev) == identity->device &&
         static_cast<std::uint64_t>(info.st_ino) == identity->inode;
}

// --base or --maps: how the addresses become RVAs.
bool setUpAddresses(const IlLocateOptions& options, const InputBytes& input, LocatedImage& l, Report& report,
                    int& status) {
  l.kind = options.returnAddresses ? symbolize::AddressKind::Return : symbolize::AddressKind::Exact;
  if (!options.base.empty()) {
    l.mode = LocatedImage::Mode::Base;
    l.base = *optionalAddress(options.base);
    return true;
  }
  if (options.maps.empty()) return true;
  l.mode = LocatedImage::Mode::Maps;
  std::optional<std::vector<symbolize::Mapping>> all = readMapsFile(options.maps, report, status);
  if (!all) return false;
  std::string lastPath;
  bool lastSame = false;
  for (symbolize::Mapping& m : *all) {
    if (m.path != lastPath) {
      lastPath = m.path;
      lastSame = sameFile(m.path, input.identity(), input.displayName());
    }
    if (lastSame) l.mappings.push_back(std::move(m));
  }
  if (l.mappings.empty()) {
    status =
        report.fail(kUsageOrIo, rules::kUsage, "--maps " + options.maps + " maps no part of " + input.displayName());
    return false;
  }
  Expected<pe::PeImage> pe = pe::PeImage::open(input.bytes());
  if (!pe) {
    report.add(binaryDiagnostic(pe.error(), input.displayName()));
    status = kInvalid;
    return false;
  }
  l.pe.emplace(std::move(*pe));
  return true;
}

// The image's portable PDB for its lines (not a composite image's: its
// components' PDBs are not looked for). None found: a note. --pdb named
// one that cannot be used: an error.
bool openPdb(const IlLocateOptions& options, const InputBytes& input, LocatedImage& l, Report& report, int& status) {
  if (options.noLines || !l.components.empty()) return true;
  Expected<symbolize::ImagePdb> pdb = symbolize::ImagePdb::open(input.bytes(), input.displayName(), options.pdb);
  if (pdb) {
    l.pdb.emplace(std::move(*pdb));
    return true;
  }
  if (options.pdb.empty()) {
    addPdbNote(report, symbolize::PdbNote{input.displayName(), pdb.error()});
    return true;
  }
  Diagnostic d;
  d.rule = pdb.error().rule;
  d.message = "--pdb: " + pdb.error().message;
  d.file = input.displayName();
  report.add(std::move(d));
  status = pdb.error().rule == rules::kPdbNotFound ? kUsageOrIo : kInvalid;
  return false;
}

}  // namespace

namespace {

// The image read (with its own names for --names), refused when the
// reader's warnings are errors (--strict) or it is a composite image's
// component (its code is in the composite image).
bool readImage(const IlLocateOptions& options, const InputBytes& input, LocatedImage& l, Report& report) {
  const std::string& name = input.displayName();
  const ByteSpan file = input.bytes();
  const bool ownMetadata = hasOwnMetadata(file);
  if (options.names && ownMetadata &&
      !(l.ownNames = assemblyNames(file, name, "--names: its metadata cannot be read: ", report)))
    return false;
  if (l.ownNames) {
    if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(file))
      l.ownSignatures = std::make_unique<metadata::MethodSignatures>(std::move(*s));
  }
  Expected<r2r::R2RImage> image = r2r::readR2RImage(file, l.ownNames.get());
  if (options.names && !ownMetadata && !(image && !image->components.empty())) {
    assemblyNames(file, name, "--names: its metadata cannot be read: ", report);
    return false;
  }
  if (!image) {
    Diagnostic d = binaryDiagnostic(image.error());
    d.file = name;
    report.add(std::move(d));
    return false;
  }
  if (!reportImageWarnings(*image, name, options.strict, report)) return false;
  if (!image->ownerComposite.empty()) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.message = "a component assembly: its code is in the composite image " + image->ownerComposite +
                "; locate addresses in that image";
    d.file = name;
    report.add(std::move(d));
    return false;
  }
  l.image.emplace(std::move(*image));
  l.components = componentNames(*l.image, file);
  l.locator.emplace(*l.image);
  return true;
}

// --names in a composite image: the metadata of the components the
// addresses of the command line fall in, no other (a framework composite
// has 173 of them), found by a first pass over the addresses that keeps
// nothing else; every component's when the addresses come from stdin.
bool readComponents(const IlLocateOptions& options, const InputBytes& input, const std::vector<std::uint64_t>& values,
                    LocatedImage& l, Report& report, int& status) {
  if (!options.names || l.components.empty()) return true;
  std::vector<std::string> needed(l.components.size());
  if (values.empty()) needed = l.components;
  for (const std::uint64_t value : values) {
    const ImageAnswer a = l.translate(value);
    if (!a.problem.empty()) continue;
    const std::optional<std::size_t> f = symbolize::functionAt(*l.image, a.located.rva);
    if (f && l.locator->owners()[*f]) {
      const std::uint32_t c = l.image->methods[l.locator->owners()[*f]->method].component;
      needed[c] = l.components[c];
    }
  }
  l.componentsMetadata = componentMetadata(needed, input.displayName(), report, status);
  return !(l.componentsMetadata.empty() && report.errors() != 0);
}

// The self-check the metadata allows (the image's own, or the components'
// with --names): IL offsets inside their method's IL.
bool checkIl(const InputBytes& input, const LocatedImage& l, Report& report) {
  const ByteSpan file = input.bytes();
  bool ilInside = true;
  if (l.components.empty() && hasOwnMetadata(file)) {
    if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(file)) {
      ilInside = checkIlOffsets(*l.image, file, file, *il, std::nullopt, input.displayName(), report);
    }
  }
  for (std::uint32_t c = 0; c < l.componentsMetadata.size(); ++c) {
    const AssemblyMetadata& m = l.componentsMetadata[c];
    if (m.bytes.empty()) continue;
    ilInside &= checkIlOffsets(*l.image, file, m.bytes, m.ilBodies, c, input.displayName(), report);
  }
  return ilInside;
}

}  // namespace

std::unique_ptr<LocatedImage> openLocatedImage(const IlLocateOptions& options, const InputBytes& input,
                                               const std::vector<std::uint64_t>& values, Report& report, int& status) {
  auto l = std::make_unique<LocatedImage>();
  status = kInvalid;
  if (!readImage(options, input, *l, report)) return nullptr;
  if (!setUpAddresses(options, input, *l, report, status)) return nullptr;
  status = kInvalid;
  if (!readComponents(options, input, values, *l, report, status)) return nullptr;
  l->names = MethodNames{l->ownNames.get(), &l->componentsMetadata, {}, l->ownSignatures.get()};
  status = kInvalid;
  if (!checkIl(input, *l, report)) return nullptr;
  if (!openPdb(options, input, *l, report, status)) return nullptr;
  status = kSuccess;
  return l;
}

}  // namespace gdmap::cli
