// The C call of <gdmap/coredump/core_dump.h>.
#include <gdmap/coredump/core_dump.h>

#include <gdmap/coredump/core_dump.hpp>
#include <gdmap/internal/c_target.hpp>
#include <gdmap/schema/rules.hpp>

extern "C" gdmap_target* gdmap_target_open_core(const uint8_t* bytes, size_t size, const char* name,
                                                gdmap_error* error) {
  try {
    if (bytes == nullptr && size != 0) {
      gdmap::internal::describe(error, gdmap::rules::kCoreDumpInvalid, 0, "no bytes given");
      return nullptr;
    }
    gdmap::Expected<gdmap::coredump::CoreDump> core =
        gdmap::coredump::CoreDump::open(gdmap::ByteSpan(bytes, size), name != nullptr ? name : "core");
    if (!core) {
      gdmap::internal::describe(error, core.error());
      return nullptr;
    }
    auto target = std::make_unique<gdmap_target>();
    target->memory = std::make_unique<gdmap::coredump::CoreDump>(std::move(*core));
    return target.release();
  } catch (...) {
    gdmap::internal::describe(error, gdmap::rules::kCoreDumpInvalid, 0, "out of memory");
    return nullptr;
  }
}
