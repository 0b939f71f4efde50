// The C calls of <gdmap/schema/target_memory.h>.
#include <gdmap/internal/c_target.hpp>

#include <new>
#include <string>

extern "C" {

gdmap_target* gdmap_target_from_callback(gdmap_target_reader read, void* context, const char* name) {
  if (read == nullptr) return nullptr;
  try {
    auto target = std::make_unique<gdmap_target>();
    target->memory = std::make_unique<gdmap::CallbackMemory>(
        [read, context](std::uint64_t address, gdmap::MutableByteSpan out) {
          return read(context, address, out.data(), out.size());
        },
        name != nullptr ? std::string(name) : std::string("target"));
    return target.release();
  } catch (...) {
    return nullptr;
  }
}

void gdmap_target_close(gdmap_target* target) { delete target; }

}  // extern "C"
