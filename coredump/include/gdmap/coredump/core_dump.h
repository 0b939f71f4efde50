/* An ELF core dump as a target for C callers (<gdmap/schema/target_memory.h>,
 * coredump/core_dump.hpp). C (C99 or later) and C++. */
#ifndef GDMAP_COREDUMP_CORE_DUMP_H
#define GDMAP_COREDUMP_CORE_DUMP_H

#include <gdmap/schema/target_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The core dump in `bytes` (the caller's: they must outlive the target,
 * e.g. the file mapped with mmap), named `name` in messages (copied), or
 * NULL with `error` (when not NULL) describing why (core-dump-invalid at
 * the file offset of the lying field). Close it with gdmap_target_close. */
gdmap_target* gdmap_target_open_core(const uint8_t* bytes, size_t size, const char* name, gdmap_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_COREDUMP_CORE_DUMP_H */
