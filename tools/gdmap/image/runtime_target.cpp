#include "image/runtime_target.hpp"

#include "app/exit_status.hpp"

#include <gdmap/coredump/core_dump.hpp>
#include <gdmap/process/process_memory.hpp>
#include <gdmap/reader/elf_file_image.hpp>
#include <gdmap/reader/elf_module.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <charconv>
#include <cstring>

namespace gdmap::cli {
namespace {

constexpr std::uint16_t kEtCore = 4;

// The runtime opened on `reading`; when the core lacks the descriptor's
// pages, libcoreclr.so's file on disk gives them (its build ID checked
// against the one mapped in the dump).
bool openCode(RuntimeTarget& t, Report& report) {
  Expected<runtime::RuntimeCode> code = runtime::RuntimeCode::open(*t.memory);
  if (code) {
    t.code.emplace(std::move(*code));
    return true;
  }
  const bool missing = code.error().rule == rules::kTargetNotInDump && t.core;
  if (!missing) {
    addTargetError(report, t.name, code.error());
    return false;
  }
  const std::optional<elf::LoadedModule> coreclr = elf::findModule(elf::loadedModules(*t.memory), "libcoreclr.so");
  if (!coreclr) {
    addTargetError(report, t.name, code.error());
    return false;
  }
  Expected<InputBytes> file = InputBytes::open(coreclr->path);
  if (!file) {
    addTargetError(report, t.name,
                   Error(code.error().offset,
                         code.error().message + "; the runtime's file " + coreclr->path +
                             " cannot be read instead: " + file.error().message,
                         code.error().rule));
    return false;
  }
  if (!elf::sameBuild(*t.memory, coreclr->base, file->bytes())) {
    addTargetError(report, t.name,
                   Error(code.error().offset,
                         code.error().message + "; " + coreclr->path +
                             " on disk is not the build that ran (its GNU build ID differs), so it cannot stand in",
                         code.error().rule));
    return false;
  }
  t.runtimeFile.emplace(std::move(*file));
  Expected<elf::FileImage> image = elf::FileImage::open(t.runtimeFile->bytes(), coreclr->base, coreclr->path);
  if (!image) {
    addTargetError(report, t.name, image.error());
    return false;
  }
  t.runtimeImage = std::make_unique<elf::FileImage>(std::move(*image));
  t.reading = std::make_unique<LayeredMemory>(*t.memory, *t.runtimeImage);
  code = runtime::RuntimeCode::open(*t.reading);
  if (!code) {
    addTargetError(report, t.name, code.error());
    return false;
  }
  t.descriptorFromFile = true;
  t.code.emplace(std::move(*code));
  return true;
}

}  // namespace

bool isCoreDump(ByteSpan bytes) {
  return bytes.size() >= 64 &&
         std::memcmp(bytes.data(),
                     "\x7f"
                     "ELF",
                     4) == 0 &&
         static_cast<std::uint16_t>(bytes[16] | (bytes[17] << 8)) == kEtCore;
}

void addTargetError(Report& report, const std::string& target, const Error& error) {
  Diagnostic d;
  d.rule = error.rule;
  d.message = error.message;
  d.file = target;
  report.add(std::move(d));
}

std::unique_ptr<RuntimeTarget> openRuntimeTarget(const std::string& pid, std::optional<InputBytes> core, Report& report,
                                                 int& status) {
  auto t = std::make_unique<RuntimeTarget>();
  status = kInvalid;
  if (!pid.empty()) {
    int value = 0;
    const auto [end, ec] = std::from_chars(pid.data(), pid.data() + pid.size(), value);
    if (ec != std::errc() || end != pid.data() + pid.size() || value <= 0) {
      status = report.fail(kUsageOrIo, rules::kUsage, "--pid " + quoteInput(pid) + ": not a process id");
      return nullptr;
    }
    Expected<process::ProcessMemory> p = process::ProcessMemory::open(static_cast<pid_t>(value));
    if (!p) {
      addTargetError(report, "process " + pid, p.error());
      return nullptr;
    }
    t->name = "process " + pid;
    t->memory = std::make_unique<process::ProcessMemory>(std::move(*p));
  } else {
    t->core = std::move(core);
    if (!t->core) {
      status = kUsageOrIo;
      return nullptr;
    }
    t->name = t->core->displayName();
    Expected<coredump::CoreDump> c = coredump::CoreDump::open(t->core->bytes(), t->name);
    if (!c) {
      addTargetError(report, t->name, c.error());
      return nullptr;
    }
    t->memory = std::make_unique<coredump::CoreDump>(std::move(*c));
  }
  if (!openCode(*t, report)) return nullptr;
  status = kSuccess;
  return t;
}

}  // namespace gdmap::cli
