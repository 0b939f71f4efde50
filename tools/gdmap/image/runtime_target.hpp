#pragma once
// The target of `il extract --pid` / `il extract CORE` and `il locate`:
// a live process or an ELF core dump, and the runtime's code read from it
// (reader/runtime). A core dump whose pages of the runtime's descriptor
// are missing (.NET 10's default createdump kind) has them read from
// libcoreclr.so on disk, when that file is the one that ran.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <memory>
#include <optional>
#include <string>

namespace gdmap::cli {

// Whether `bytes` are an ELF core file (what createdump writes).
bool isCoreDump(ByteSpan bytes);

struct RuntimeTarget {
  std::optional<InputBytes> core;              // the core file's bytes
  std::optional<InputBytes> runtimeFile;       // libcoreclr.so from disk, when the dump lacks the descriptor
  std::unique_ptr<TargetMemory> memory;        // the process or the core
  std::unique_ptr<TargetMemory> runtimeImage;  // runtimeFile as mapped (relocated)
  std::unique_ptr<TargetMemory> reading;       // what the runtime is read through
  std::optional<runtime::RuntimeCode> code;
  std::string name;  // "process 1234", the core's path
  bool descriptorFromFile = false;
};

// A process (`pid` not empty) or the core file `core` (opened by the
// caller, who looked at it), its runtime opened. Failures go to `report`;
// `status` says which exit status.
std::unique_ptr<RuntimeTarget> openRuntimeTarget(const std::string& pid, std::optional<InputBytes> core, Report& report,
                                                 int& status);

// An error of the runtime reader as a diagnostic on the target.
void addTargetError(Report& report, const std::string& target, const Error& error);

}  // namespace gdmap::cli
