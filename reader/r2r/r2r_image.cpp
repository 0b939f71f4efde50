#include <gdmap/reader/r2r_image.hpp>

#include "r2r_failure.hpp"
#include "r2r_parts.hpp"

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

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

void readMachine(const pe::PeImage& pe, R2RImage& image, std::uint64_t machineAt) {
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
  if (image.machine != machine::kAmd64 && image.machine != machine::kI386) {
    const std::string what = knownArchitecture(image.machine)
                                 ? std::string(architectureName(image.machine)) + " (" + osName(image.os) + ")"
                                 : "an unknown architecture";
    fail(machineAt,
         "PE Machine " + shortHex(pe.machine()) + " is " + what + ": gdmap reads ReadyToRun code for x64 and x86 only",
         rules::kR2rUnsupportedMachine);
  }
}

void readHeader(const pe::PeImage& pe, R2RImage& image) {
  Expected<pe::CliHeader> cli = pe.cliHeader();
  if (!cli) throw R2RFailure{cli.error()};
  if (cli->managedNativeHeader.rva == 0) {
    fail(cli->managedNativeHeaderAt, "CLI header: no ManagedNativeHeader: an IL-only assembly, not ReadyToRun",
         rules::kR2rNoHeader);
  }
  Expected<ByteSpan> bytes = pe.range(cli->managedNativeHeader, cli->managedNativeHeaderAt, "READYTORUN_HEADER");
  if (!bytes) throw R2RFailure{bytes.error()};
  image.headerRva = cli->managedNativeHeader.rva;
  image.headerOffset = static_cast<std::uint64_t>(bytes->data() - pe.file().data());
  if (bytes->size() < kHeaderSize) {
    fail(image.headerOffset, "READYTORUN_HEADER: " + std::to_string(bytes->size()) + " bytes, needs 16",
         rules::kR2rTruncated);
  }
  ByteCursor in(*bytes, static_cast<std::size_t>(image.headerOffset));
  const std::uint32_t signature = in.u32();
  if (signature != kSignature) {
    // 'NGE': a fragile NGen image (CORCOMPILE_HEADER), as System.Private.CoreLib ships in .NET Core 2.x.
    const char* ngen = signature == 0x0045474E ? ": a fragile NGen native image, not ReadyToRun" : "";
    fail(image.headerOffset, "READYTORUN_HEADER: signature " + hex32(signature) + " is not 0x00525452 ('RTR')" + ngen,
         rules::kR2rBadSignature);
  }
  image.majorVersion = in.u16();
  image.minorVersion = in.u16();
  if (image.majorVersion != kSupportedMajorVersion) {
    fail(image.headerOffset + 4,
         "READYTORUN_HEADER: version " + std::to_string(image.majorVersion) + "." + std::to_string(image.minorVersion) +
             " is not supported: gdmap reads major version 2 (.NET Core 2.x); newer versions change the format",
         rules::kR2rUnsupportedVersion);
  }
  image.flags = in.u32();
  const std::uint32_t count = in.u32();
  if (count > (bytes->size() - kHeaderSize) / kSectionEntrySize) {
    fail(image.headerOffset + 12,
         "READYTORUN_HEADER: " + std::to_string(count) + " sections do not fit its " + std::to_string(bytes->size()) +
             " bytes",
         rules::kR2rTruncated);
  }
  image.sections.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint64_t at = in.offset();
    Section s;
    s.type = in.u32();
    s.rva = in.u32();
    s.size = in.u32();
    const std::string name = "section[" + std::to_string(i) + "] (type " + std::to_string(s.type) + ")";
    Expected<ByteSpan> data = pe.range({s.rva, s.size}, at, name);
    if (!data) throw R2RFailure{data.error()};
    s.fileOffset = static_cast<std::uint64_t>(data->data() - pe.file().data());
    image.sections.push_back(s);
  }
}

}  // namespace

const Section* R2RImage::findSection(std::uint32_t type) const {
  // The runtime's FindSection takes the first of a type.
  for (const Section& s : sections) {
    if (s.type == type) return &s;
  }
  return nullptr;
}

NativeRegion regionOf(const pe::PeImage& pe, const R2RImage& image, std::uint32_t type) {
  const Section* s = image.findSection(type);
  if (s == nullptr) return {};
  NativeRegion r;
  r.rva = s->rva;
  r.fileOffset = s->fileOffset;
  r.bytes = pe.file().subspan(static_cast<std::size_t>(s->fileOffset), s->size);
  return r;
}

std::string methodLabel(const MethodBody& m) { return "method " + hex32(m.token); }

std::string describeMachine(const R2RImage& image) {
  return std::string(osName(image.os)) + " " + architectureName(image.machine);
}

Expected<R2RImage> readR2RImage(ByteSpan file, const TypeNames* names) {
  Expected<pe::PeImage> pe = pe::PeImage::open(file);
  if (!pe) return pe.error();
  R2RImage image;
  image.pe32Plus = pe->pe32Plus();
  try {
    readHeader(*pe, image);
    // The COFF Machine field: 4 bytes after the PE signature at e_lfanew.
    const std::uint64_t machineAt =
        (file.size() >= 0x40 ? (std::uint64_t{file[0x3C]} | std::uint64_t{file[0x3D]} << 8 |
                                std::uint64_t{file[0x3E]} << 16 | std::uint64_t{file[0x3F]} << 24)
                             : 0) +
        4;
    readMachine(*pe, image, machineAt);
    readRuntimeFunctions(*pe, image);
    readEntryPoints(*pe, image, names);
    readDebugInfo(*pe, image);
  } catch (R2RFailure& f) {
    return std::move(f.error);
  }
  return image;
}

}  // namespace gdmap::r2r
