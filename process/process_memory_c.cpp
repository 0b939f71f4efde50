// The C call of <gdmap/process/process_memory.h>.
#include <gdmap/process/process_memory.h>

#include <gdmap/internal/c_target.hpp>
#include <gdmap/process/process_memory.hpp>
#include <gdmap/schema/rules.hpp>

extern "C" gdmap_target* gdmap_target_open_pid(int pid, gdmap_error* error) {
  try {
    gdmap::Expected<gdmap::process::ProcessMemory> process = gdmap::process::ProcessMemory::open(pid);
    if (!process) {
      gdmap::internal::describe(error, process.error());
      return nullptr;
    }
    auto target = std::make_unique<gdmap_target>();
    target->memory = std::make_unique<gdmap::process::ProcessMemory>(std::move(*process));
    return target.release();
  } catch (...) {
    gdmap::internal::describe(error, gdmap::rules::kTargetUnreadable, 0, "out of memory");
    return nullptr;
  }
}
