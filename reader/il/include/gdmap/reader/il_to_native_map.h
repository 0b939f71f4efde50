/* The two-call protocol of ICorProfilerInfo::GetILToNativeMapping as a C
 * library call (FORMAT.md §3.1), for profiler mocks and tests written in C
 * or C++. A table of methods, each keyed by its metadata token, answers the
 * way the runtime does:
 *
 *   uint32_t count = 0;
 *   gdmap_get_il_to_native_mapping(table, 0x06000001, 0, &count, NULL);
 *   gdmap_il_to_native_map* map = malloc(count * sizeof *map);
 *   gdmap_get_il_to_native_mapping(table, 0x06000001, count, &count, map);
 *
 * This header is C (C99 or later) and C++. */
#ifndef GDMAP_READER_IL_TO_NATIVE_MAP_H
#define GDMAP_READER_IL_TO_NATIVE_MAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* HRESULT: a 32-bit signed status, as on Windows and in the runtime's PAL. */
typedef int32_t gdmap_hresult;
#define GDMAP_S_OK ((gdmap_hresult)0)
#define GDMAP_E_INVALIDARG ((gdmap_hresult)(-2147024809)) /* 0x80070057 */
#define GDMAP_E_FAIL ((gdmap_hresult)(-2147467259))       /* 0x80004005 */

/* The usual names, unless the includer already has them (windows.h, the
 * runtime's PAL) or asks for none. */
#ifndef GDMAP_NO_HRESULT_NAMES
#ifndef S_OK
#define S_OK GDMAP_S_OK
#endif
#ifndef E_INVALIDARG
#define E_INVALIDARG GDMAP_E_INVALIDARG
#endif
#ifndef E_FAIL
#define E_FAIL GDMAP_E_FAIL
#endif
#endif

/* Laid out as COR_DEBUG_IL_TO_NATIVE_MAP (cordebug.idl): three u32, 12 bytes,
 * no padding, so an array of either type can be passed for the other. */
typedef struct gdmap_il_to_native_map {
  uint32_t ilOffset; /* or 0xFFFFFFFF NO_MAPPING, 0xFFFFFFFE PROLOG, 0xFFFFFFFD EPILOG */
  uint32_t nativeStartOffset;
  uint32_t nativeEndOffset; /* exclusive */
} gdmap_il_to_native_map;

/* A bound as the code generator reports it (ICorDebugInfo::OffsetMapping):
 * at nativeOffset begins the code for ilOffset; source is a set of
 * ICorDebugInfo::SourceTypes flags (0x10 call_instruction, ...). */
typedef struct gdmap_il_bound {
  uint32_t nativeOffset;
  uint32_t ilOffset;
  uint32_t source;
} gdmap_il_bound;

#ifdef __cplusplus
static_assert(sizeof(gdmap_il_to_native_map) == 12, "COR_DEBUG_IL_TO_NATIVE_MAP is 12 bytes");
static_assert(sizeof(gdmap_il_bound) == 12, "a bound is three u32");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(gdmap_il_to_native_map) == 12, "COR_DEBUG_IL_TO_NATIVE_MAP is 12 bytes");
_Static_assert(sizeof(gdmap_il_bound) == 12, "a bound is three u32");
#else /* C99: an array of negative size fails to compile */
typedef char gdmap_il_to_native_map_is_12_bytes[sizeof(gdmap_il_to_native_map) == 12 ? 1 : -1];
typedef char gdmap_il_bound_is_12_bytes[sizeof(gdmap_il_bound) == 12 ? 1 : -1];
#endif

/* A table of methods (opaque; C++ callers may build one with
 * gdmap::il::MethodTable, reader/il_map_table.hpp). */
typedef struct gdmap_il_map_table gdmap_il_map_table;

/* An empty table, or NULL when out of memory. No entry point lets an
 * exception reach C: any failure inside is its documented failure value
 * (NULL, E_FAIL). */
gdmap_il_map_table* gdmap_il_map_table_create(void);
void gdmap_il_map_table_destroy(gdmap_il_map_table* table);

/* Adds a method known by its bounds (ascending native offsets) and code size;
 * its array is what the runtime derives (FORMAT.md §3.2). Adds a method
 * known by its array verbatim. Both return E_INVALIDARG, adding nothing, for
 * a NULL table, NULL bounds/entries with a count above 0, a token already in
 * the table, or descending bounds; E_FAIL when out of memory (or any other
 * failure inside); else S_OK. */
gdmap_hresult gdmap_il_map_table_add_bounds(gdmap_il_map_table* table, uint32_t methodToken, uint32_t codeSize,
                                            const gdmap_il_bound* bounds, uint32_t count);
gdmap_hresult gdmap_il_map_table_add_map(gdmap_il_map_table* table, uint32_t methodToken,
                                         const gdmap_il_to_native_map* entries, uint32_t count);

/* GetILToNativeMapping (FORMAT.md §3.1):
 *  - cMap > 0 and pcMap or map NULL, or a NULL table: E_INVALIDARG, nothing
 *    written;
 *  - no method with that token: E_FAIL, nothing written (*pcMap untouched);
 *  - otherwise S_OK: *pcMap (when pcMap is not NULL) = the method's full
 *    count of entries, always, and the first min(cMap, count) entries are
 *    copied to map (when not NULL). cMap and *pcMap count entries, not
 *    bytes; *pcMap > cMap means the copy was truncated. A known method with
 *    an empty array gives S_OK and a count of 0. */
gdmap_hresult gdmap_get_il_to_native_mapping(const gdmap_il_map_table* table, uint32_t methodToken, uint32_t cMap,
                                             uint32_t* pcMap, gdmap_il_to_native_map map[]);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_READER_IL_TO_NATIVE_MAP_H */
