#include <gdmap/reader/r2r_image.hpp>

#include "r2r_errors.hpp"
#include "r2r_parts.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>

namespace gdmap::r2r {
namespace {

constexpr std::uint32_t kHeaderSize = 16;  // Signature, versions, Flags, NumberOfSections
constexpr std::uint32_t kSectionEntrySize = 12;

struct OsValue {
  TargetOs os;
  std::uint16_t value;
};
// The values a non-Windows image's Machine is XORed with (pedecoder.h).
constexpr OsValue kOsValues[] = {
    {TargetOs::Linux, 0x7B79}, {TargetOs::Apple, 0x4644}, {TargetOs::FreeBsd, 0xADC4}, {TargetOs::NetBsd, 0x1993}};

bool knownArchitecture(std::uint16_t m) {
  return m == machine::kI386 || m == machine::kAmd64 || m == machine::kArmThumb2 || m == machine::kArm64;
}

const char* architectureName(std::uint16_t m) {
  switch (m) {
    case machine::kI386: return "x86";
    case machine::kAmd64: return "x64";
    case machine::kArmThumb2: return "ARM";
    case machine::kArm64: return "ARM64";
    default: return "unknown";
  }
}

const char* osName(TargetOs os) {
  switch (os) {
    case TargetOs::Windows: return "Windows";
    case TargetOs::Linux: return "Linux";
    case TargetOs::Apple: return "macOS";
    case TargetOs::FreeBsd: return "FreeBSD";
    case TargetOs::NetBsd: return "NetBSD";
  }
  return "unknown";
}

Status readMachine(const pe::PeImage& pe, R2RImage& image, std::uint64_t machineAt) {
  image.peMachine = pe.machine();
  image.machine = pe.machine();
  image.os = TargetOs::Windows;
  if (!knownArchitecture(image.machine)) {
    for (const OsValue& v : kOsValues) {
      if (knownArchitecture(static_cast<std::uint16_t>(pe.machine() ^ v.value))) {
        image.machine = static_cast<std::uint16_t>(pe.machine() ^ v.value);
        image.os = v.os;
        break;
      }
    }
  }
  if (!knownArchitecture(image.machine)) {
    return r2rError(machineAt,
                    "PE Machine " + shortHex(pe.machine()) +
                        " is an unknown architecture: gdmap reads ReadyToRun code for x64, x86, ARM64 and ARM",
                    rules::kR2rUnsupportedMachine);
  }
  return Success{};
}

struct CoreHeader {
  std::uint32_t flags = 0;
  std::vector<Section> sections;
};

// READYTORUN_CORE_HEADER: Flags, NumberOfSections, then the sections, each
// checked to lie inside the file. `header` holds the bytes from the image's
// (or a component's) header to the end of its directory; the core header
// starts at file offset `at`.
Expected<CoreHeader> readCoreHeader(const pe::PeImage& pe, ByteSpan header, std::size_t at, const std::string& what) {
  const std::size_t headerStart = static_cast<std::size_t>(header.data() - pe.file().data());
  const std::size_t skip = at - headerStart;
  if (header.size() < skip + 8) {
    return r2rError(
        at, what + ": " + std::to_string(header.size()) + " bytes, the core header needs " + std::to_string(skip + 8),
        rules::kR2rTruncated);
  }
  ByteCursor in(header.subspan(skip), at);
  CoreHeader core;
  core.flags = in.u32();
  const std::uint32_t count = in.u32();
  if (count > (header.size() - skip - 8) / kSectionEntrySize) {
    return r2rError(
        at + 4,
        what + ": " + std::to_string(count) + " sections do not fit its " + std::to_string(header.size()) + " bytes",
        rules::kR2rTruncated);
  }
  core.sections.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t entryAt = in.offset();
    Section s;
    s.type = in.u32();
    s.rva = in.u32();
    s.size = in.u32();
    const std::string name = "section[" + std::to_string(i) + "] (type " + std::to_string(s.type) + ")";
    Expected<ByteSpan> data = pe.range({s.rva, s.size}, entryAt, name);
    if (!data) return data.error();
    s.fileOffset = static_cast<std::uint64_t>(data->data() - pe.file().data());
    core.sections.push_back(s);
  }
  return core;
}

// Where the READYTORUN_HEADER is: the CLI header's ManagedNativeHeader, or
// (a composite image without a CLI header) the export RTR_HEADER the
// runtime looks up, its extent up to the end of its section.
Expected<pe::DataDirectory> headerDirectory(const pe::PeImage& pe, std::uint64_t& namedAt) {
  Expected<pe::CliHeader> cli = pe.cliHeader();
  if (cli && cli->managedNativeHeader.rva != 0) {
    namedAt = cli->managedNativeHeaderAt;
    return cli->managedNativeHeader;
  }
  if (const std::optional<std::uint32_t> rva = pe.exportRva("RTR_HEADER")) {
    namedAt = pe.directoryOffset(0);
    for (const pe::SectionHeader& s : pe.sections()) {
      if (*rva >= s.virtualAddress && *rva - s.virtualAddress < s.rawSize) {
        return pe::DataDirectory{*rva, s.rawSize - (*rva - s.virtualAddress)};
      }
    }
    return pe::DataDirectory{*rva, kHeaderSize};
  }
  if (!cli) return cli.error();
  return r2rError(cli->managedNativeHeaderAt, "CLI header: no ManagedNativeHeader: an IL-only assembly, not ReadyToRun",
                  rules::kR2rNoHeader);
}

// The header's signature and version; the version's rules.
Status readVersion(ByteCursor& in, R2RImage& image) {
  const std::uint32_t signature = in.u32();
  if (signature != kSignature) {
    // 'NGE': a fragile NGen image (CORCOMPILE_HEADER), as System.Private.CoreLib ships in .NET Core 2.x.
    const char* ngen = signature == 0x0045474E ? ": a fragile NGen native image, not ReadyToRun" : "";
    return r2rError(image.headerOffset,
                    "READYTORUN_HEADER: signature " + hex32(signature) + " is not 0x00525452 ('RTR')" + ngen,
                    rules::kR2rBadSignature);
  }
  image.majorVersion = in.u16();
  image.minorVersion = in.u16();
  const std::string version = std::to_string(image.majorVersion) + "." + std::to_string(image.minorVersion);
  if (image.majorVersion < kOldestMajorVersion) {
    return r2rError(image.headerOffset + 4,
                    "READYTORUN_HEADER: version " + version + " is not supported: gdmap reads major versions " +
                        std::to_string(kOldestMajorVersion) + " (.NET Core 2.0) and newer",
                    rules::kR2rUnsupportedVersion);
  }
  // No ceiling: a newer image is read with the newest rules known, said
  // once; the self-checks turn what those rules misread into errors.
  image.readAsMajorVersion = std::min(image.majorVersion, kNewestMajorVersion);
  if (image.majorVersion > kNewestMajorVersion) {
    image.warnings.emplace_back(static_cast<std::size_t>(image.headerOffset + 4),
                                "READYTORUN_HEADER: version " + version + " is newer than the newest gdmap knows (" +
                                    std::to_string(kNewestMajorVersion) + ", .NET 11): read as " +
                                    std::to_string(kNewestMajorVersion),
                                rules::kR2rNewerVersion);
  }
  image.profile = formatProfile(image.readAsMajorVersion);
  image.componentModuleBase = image.majorVersion > 6 || (image.majorVersion == 6 && image.minorVersion >= 3) ? 2 : 1;
  return Success{};
}

Status readHeader(const pe::PeImage& pe, R2RImage& image) {
  std::uint64_t namedAt = 0;
  const Expected<pe::DataDirectory> header = headerDirectory(pe, namedAt);
  if (!header) return header.error();
  Expected<ByteSpan> bytes = pe.range(*header, namedAt, "READYTORUN_HEADER");
  if (!bytes) return bytes.error();
  image.headerRva = header->rva;
  image.headerOffset = static_cast<std::uint64_t>(bytes->data() - pe.file().data());
  if (bytes->size() < kHeaderSize) {
    return r2rError(image.headerOffset, "READYTORUN_HEADER: " + std::to_string(bytes->size()) + " bytes, needs 16",
                    rules::kR2rTruncated);
  }
  ByteCursor in(*bytes, static_cast<std::size_t>(image.headerOffset));
  if (Status version = readVersion(in, image); !version) return version;
  Expected<CoreHeader> core =
      readCoreHeader(pe, *bytes, static_cast<std::size_t>(image.headerOffset) + 8, "READYTORUN_HEADER");
  if (!core) return core.error();
  image.flags = core->flags;
  image.sections = std::move(core->sections);
  return Success{};
}

// Section 116 of a component assembly: the composite image's file name,
// UTF-8, NUL-terminated or not.
Status readOwnerComposite(const pe::PeImage& pe, R2RImage& image) {
  const NativeRegion region = regionOf(pe, image, section::kOwnerCompositeExecutable);
  if (region.bytes.empty()) return Success{};
  std::string name(reinterpret_cast<const char*>(region.bytes.data()), region.bytes.size());
  if (const std::size_t nul = name.find('\0'); nul != std::string::npos) name.resize(nul);
  if (name.empty()) {
    return r2rError(region.fileOffset, "ownerCompositeExecutable: an empty file name", rules::kR2rBadComposite);
  }
  image.ownerComposite = std::move(name);
  return Success{};
}

// Section 115 of a composite image: READYTORUN_COMPONENT_ASSEMBLIES_ENTRY
// {CorHeader, ReadyToRunCoreHeader}, two IMAGE_DATA_DIRECTORYs each; every
// component's core header has its own sections (its MethodDef entry points).
Status readComponents(const pe::PeImage& pe, R2RImage& image) {
  NativeRegion region = regionOf(pe, image, section::kComponentAssemblies);
  if (region.bytes.empty()) return Success{};
  constexpr std::size_t kEntrySize = 16;
  if (region.bytes.size() % kEntrySize != 0) {
    return r2rError(region.fileOffset,
                    "componentAssemblies: " + std::to_string(region.bytes.size()) +
                        " bytes are not a whole number of 16-byte entries",
                    rules::kR2rBadComposite);
  }
  const std::size_t count = region.bytes.size() / kEntrySize;
  image.components.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t at = region.rva + i * kEntrySize;
    const std::string path = "componentAssemblies[" + std::to_string(i) + "]";
    Component c;
    c.corHeaderRva = region.fixed(at, 4);
    const std::uint32_t coreRva = region.fixed(at + 8, 4);
    const std::uint32_t coreSize = region.fixed(at + 12, 4);
    if (!region.ok()) return region.takeError();
    Expected<ByteSpan> core = pe.range({coreRva, coreSize}, region.fileOffsetOf(at + 8), path + ".coreHeader");
    if (!core) return core.error();
    c.coreHeaderRva = coreRva;
    c.coreHeaderOffset = static_cast<std::uint64_t>(core->data() - pe.file().data());
    Expected<CoreHeader> h = readCoreHeader(pe, *core, static_cast<std::size_t>(c.coreHeaderOffset), "core header");
    if (!h) return withPath(path, h.error());
    c.flags = h->flags;
    c.sections = std::move(h->sections);
    image.components.push_back(std::move(c));
  }
  return Success{};
}

}  // namespace

FormatProfile formatProfile(std::uint16_t major) {
  FormatProfile p;
  p.bounds = major >= 17 ? il::BoundsForm::Packed3 : major >= 16 ? il::BoundsForm::Packed2 : il::BoundsForm::Nibble;
  p.fatDebugInfo = major >= 17;
  p.x86Funclets = major >= 14;
  p.composite = major >= 5;
  p.hotColdMap = major >= 8;
  p.resumptionStubs = major >= 26;
  return p;
}

const Section* Component::findSection(std::uint32_t type) const {
  for (const Section& s : sections) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

const Section* R2RImage::findSection(std::uint32_t type) const {
  // The runtime's FindSection takes the first of a type.
  for (const Section& s : sections) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

NativeRegion regionOf(const pe::PeImage& pe, const Section* s) {
  if (s == nullptr) return {};
  NativeRegion r;
  r.rva = s->rva;
  r.fileOffset = s->fileOffset;
  r.bytes = pe.file().subspan(static_cast<std::size_t>(s->fileOffset), s->size);
  return r;
}

NativeRegion regionOf(const pe::PeImage& pe, const R2RImage& image, std::uint32_t type) {
  return regionOf(pe, image.findSection(type));
}

std::string methodLabel(const MethodBody& m) {
  if (m.resumptionStub) return "the resumption stub of method " + hex32(m.token);
  return "method " + hex32(m.token) + (m.asyncVariant ? " (async variant)" : "");
}

std::string describeMachine(const R2RImage& image) {
  return std::string(osName(image.os)) + " " + architectureName(image.machine);
}

Expected<R2RImage> readR2RImage(ByteSpan file, const TypeNames* names) {
  Expected<pe::PeImage> pe = pe::PeImage::open(file);
  if (!pe) return pe.error();
  R2RImage image;
  image.pe32Plus = pe->pe32Plus();
  if (Status s = readHeader(*pe, image); !s) return s.error();
  // The COFF Machine field: 4 bytes after the PE signature at e_lfanew.
  ByteCursor lfanew(file.size() >= 0x40 ? file.subspan(0x3C, 4) : ByteSpan{});
  const std::uint64_t machineAt = std::uint64_t{lfanew.u32()} + 4;
  Status read = readMachine(*pe, image, machineAt);
  if (read) read = readOwnerComposite(*pe, image);
  if (read) read = readComponents(*pe, image);
  if (read) read = readRuntimeFunctions(*pe, image);
  if (read) read = readEntryPoints(*pe, image, names);
  if (read) read = readDebugInfo(*pe, image);
  if (!read) return read.error();
  return image;
}

}  // namespace gdmap::r2r
