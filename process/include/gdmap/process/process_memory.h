/* A live process as a target for C callers (<gdmap/schema/target_memory.h>,
 * process/process_memory.hpp). C (C99 or later) and C++. */
#ifndef GDMAP_PROCESS_PROCESS_MEMORY_H
#define GDMAP_PROCESS_PROCESS_MEMORY_H

#include <gdmap/schema/target_memory.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The process `pid` (Linux: /proc/PID/maps, process_vm_readv, /proc/PID/mem),
 * or NULL with `error` (when not NULL) describing why: target-no-access
 * naming the ptrace permission it lacks, target-unreadable for a process
 * that is gone. Close it with gdmap_target_close. */
gdmap_target* gdmap_target_open_pid(int pid, gdmap_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_PROCESS_PROCESS_MEMORY_H */
