/* The code of a running .NET runtime for C callers (reader/runtime,
 * <gdmap/reader/runtime_code.hpp>): a profiler, live or reading a dump,
 * asks which JIT-compiled method holds an address and what the runtime's
 * GetILToNativeMapping3 would answer for it, without the runtime's help:
 *
 *   gdmap_error error;
 *   gdmap_target* target = gdmap_target_open_pid(pid, &error);
 *   gdmap_runtime* runtime = gdmap_runtime_open(target, 0, &error);
 *   gdmap_jit_code code;
 *   if (gdmap_runtime_find_jit_code(runtime, ip, &code, &error) == S_OK) {
 *     uint32_t count = 0;
 *     gdmap_runtime_il_to_native_mapping(runtime, code.start, 0, &count, NULL, &error);
 *     ... (the two-call protocol of <gdmap/reader/il_to_native_map.h>)
 *   }
 *   gdmap_runtime_close(runtime);
 *   gdmap_target_close(target);
 *
 * A runtime is a snapshot: what it read when opened and since stays read;
 * open it again to see code compiled later. .NET 10 and 11 (64-bit); any
 * other is refused, its error naming why (runtime-not-found,
 * runtime-contract-unsupported). C (C99 or later) and C++. No entry point
 * lets an exception reach C. */
#ifndef GDMAP_READER_RUNTIME_CODE_H
#define GDMAP_READER_RUNTIME_CODE_H

#include <gdmap/reader/il_to_native_map.h>
#include <gdmap/schema/target_memory.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gdmap_runtime gdmap_runtime;

/* gdmap_jit_code.flags */
#define GDMAP_JIT_CODE_EXPLICIT_VERSION \
  0x1u                              /* a NativeCodeVersionNode's (tier-up, OSR, ReJIT); else the method's default */
#define GDMAP_JIT_CODE_ACTIVE 0x2u  /* the version the runtime calls now */
#define GDMAP_JIT_CODE_DYNAMIC 0x4u /* a dynamic method: no metadata, token 0x06000000 */
#define GDMAP_JIT_CODE_VERSION_UNKNOWN 0x8u /* its versions could not be read: tier, flags and IL version unknown */

/* One JIT-compiled body: one native code version of a method. */
typedef struct gdmap_jit_code {
  uint64_t start;
  uint32_t size;       /* the body and its funclets */
  uint32_t token;      /* 0x06000000 | RID */
  uint64_t methodDesc; /* the runtime's MethodDesc: one per instantiation */
  uint64_t module;     /* the runtime's Module: gdmap_runtime_module_path names its file */
  int32_t tier;        /* the runtime's OptimizationTier: 0 tier 0, 1 tier 1, 2 tier-1 OSR, 3 optimized,
                          4 tier 0 instrumented, 5 tier 1 instrumented; -1 when not known */
  uint32_t flags;      /* GDMAP_JIT_CODE_* */
  uint64_t ilVersion;  /* 0: the original IL */
} gdmap_jit_code;

/* The runtime in `target` (which must outlive it), or NULL with `error`
 * described. `descriptorAddress`: the runtime's
 * DotNetRuntimeContractDescriptor, or 0 to find libcoreclr.so's export
 * among the target's mapped files (a process or a core dump; a callback
 * target has none). */
gdmap_runtime* gdmap_runtime_open(const gdmap_target* target, uint64_t descriptorAddress, gdmap_error* error);
void gdmap_runtime_close(gdmap_runtime* runtime);

/* Every JIT-compiled body of every code heap, ascending by start, in the
 * two-call protocol: *pcCode = the count, always (on S_OK), and the first
 * min(cCode, count) are copied. The heaps are walked on the first call.
 * E_INVALIDARG for a NULL runtime or cCode > 0 with NULL pcCode or code;
 * E_FAIL with `error` described when the walk fails. */
gdmap_hresult gdmap_runtime_jit_code(gdmap_runtime* runtime, uint32_t cCode, uint32_t* pcCode, gdmap_jit_code code[],
                                     gdmap_error* error);

/* The JIT-compiled body holding `address` (range section, nibble map, code
 * header: no walk of the heaps). S_OK with *code filled; E_FAIL when the
 * address is in no JIT-compiled body (error->rule empty) or it cannot be
 * read (error described); E_INVALIDARG for NULL arguments. */
gdmap_hresult gdmap_runtime_find_jit_code(gdmap_runtime* runtime, uint64_t address, gdmap_jit_code* code,
                                          gdmap_error* error);

/* The file of a Module, UTF-8, in the two-call protocol (cch and *pcch in
 * bytes, the NUL included); an empty string for a module without one. */
gdmap_hresult gdmap_runtime_module_path(gdmap_runtime* runtime, uint64_t module, uint32_t cch, uint32_t* pcch,
                                        char path[], gdmap_error* error);

/* What GetILToNativeMapping3(codeStart) answers for the body that starts at
 * `codeStart` (the runtime's stored bounds made into the profiling API's
 * array), in the protocol of gdmap_get_il_to_native_mapping. E_FAIL when no
 * JIT-compiled body starts there or its debug info cannot be read. */
gdmap_hresult gdmap_runtime_il_to_native_mapping(gdmap_runtime* runtime, uint64_t codeStart, uint32_t cMap,
                                                 uint32_t* pcMap, gdmap_il_to_native_map map[], gdmap_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_READER_RUNTIME_CODE_H */
