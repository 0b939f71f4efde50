/* A target's memory for C callers (schema/target_memory.hpp): the address
 * space a reader of a running .NET runtime reads (reader/runtime's C
 * calls, <gdmap/reader/runtime_code.h>). A target is made from a caller's
 * read function here, from a live process by gdmap_target_open_pid
 * (<gdmap/process/process_memory.h>) or from an ELF core dump's bytes by
 * gdmap_target_open_core (<gdmap/coredump/core_dump.h>), and closed here.
 *
 * This header is C (C99 or later) and C++. No entry point lets an
 * exception reach C: a failure is its documented failure value, with the
 * error described in the caller's gdmap_error when one is given. */
#ifndef GDMAP_SCHEMA_TARGET_MEMORY_H
#define GDMAP_SCHEMA_TARGET_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a call failed: the stable rule id (docs/errors.md), the
 * target address or file offset it names, and the message; each string
 * NUL-terminated, cut to fit. */
typedef struct gdmap_error {
  char rule[64];
  uint64_t where;
  char message[1024];
} gdmap_error;

typedef struct gdmap_target gdmap_target;

/* Reads `size` bytes at `address` into `out`; returns how many it read
 * (fewer than `size`: the first byte not read is unreadable). */
typedef size_t (*gdmap_target_reader)(void* context, uint64_t address, void* out, size_t size);

/* A target read through `read` (called with `context`), named `name` in
 * messages (copied; NULL: "target"). NULL when `read` is NULL or out of
 * memory. Such a target has no list of mapped files: a runtime in it is
 * opened at the descriptor address its caller knows (dlsym of
 * DotNetRuntimeContractDescriptor in libcoreclr.so, in process). */
gdmap_target* gdmap_target_from_callback(gdmap_target_reader read, void* context, const char* name);

/* Closes a target (NULL: nothing). Runtimes opened on it must be closed first. */
void gdmap_target_close(gdmap_target* target);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_SCHEMA_TARGET_MEMORY_H */
