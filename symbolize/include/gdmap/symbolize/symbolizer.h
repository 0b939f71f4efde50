/* Symbolization for C callers (symbolize/, <gdmap/symbolize/...>): a
 * native address to the method, the IL offset the runtime reports for it
 * (what a stack trace prints) and the source line of the method's portable
 * PDB, one call per address, for a profiler that keeps one symbolizer open:
 *
 *   gdmap_error error;
 *   gdmap_symbolizer* s = gdmap_symbolizer_open_image("app.dll", NULL, base, &error);
 *   gdmap_symbol symbol;
 *   if (gdmap_symbolizer_locate(s, ip, GDMAP_ADDRESS_RETURN, &symbol, &error) == S_OK &&
 *       (symbol.flags & GDMAP_SYMBOL_LINE)) {
 *     uint32_t n = 0;
 *     gdmap_symbolizer_document(s, 0, &n, NULL, &error);
 *     ... (the two-call protocol of <gdmap/reader/il_to_native_map.h>)
 *   }
 *   gdmap_symbolizer_close(s);
 *
 * An image symbolizer answers for one ReadyToRun image; a target
 * symbolizer for a .NET process or core dump (the JIT-compiled code and
 * ReadyToRun images of a gdmap_target, <gdmap/schema/target_memory.h>), a
 * snapshot as gdmap_runtime is. C (C99 or later) and C++; no entry point
 * lets an exception reach C. */
#ifndef GDMAP_SYMBOLIZE_SYMBOLIZER_H
#define GDMAP_SYMBOLIZE_SYMBOLIZER_H

#include <gdmap/reader/il_to_native_map.h>
#include <gdmap/schema/target_memory.h>

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gdmap_symbolizer gdmap_symbolizer;

/* What an address is: the instruction being executed (a leaf sample), or a
 * return address (a caller's frame), which the runtime looks up one byte
 * before, unless it is its method's first byte. */
typedef enum gdmap_address_kind { GDMAP_ADDRESS_EXACT = 0, GDMAP_ADDRESS_RETURN = 1 } gdmap_address_kind;

/* gdmap_symbol.mapping: how the IL offset was found (the runtime's
 * CorDebugMappingResult). */
#define GDMAP_IL_MAPPING_EXACT 0       /* at the start of an entry's native range */
#define GDMAP_IL_MAPPING_APPROXIMATE 1 /* inside an entry's native range */
#define GDMAP_IL_MAPPING_PROLOG 2      /* in the prolog: IL 0 */
#define GDMAP_IL_MAPPING_EPILOG 3      /* in an epilog: the method's greatest IL offset */
#define GDMAP_IL_MAPPING_UNMAPPED 4    /* in code of no IL: IL 0 */
#define GDMAP_IL_MAPPING_NO_INFO 5     /* no bounds say: IL 0 */

/* gdmap_symbol.flags */
#define GDMAP_SYMBOL_LINE 0x1u    /* line, column, endLine, endColumn and the document are known */
#define GDMAP_SYMBOL_JIT 0x2u     /* JIT-compiled code (a target); else a ReadyToRun image's */
#define GDMAP_SYMBOL_FUNCLET 0x4u /* in a funclet of the method */
#define GDMAP_SYMBOL_COLD 0x8u    /* in the cold part of the method */

/* One address's answer. */
typedef struct gdmap_symbol {
  uint64_t address;      /* as given */
  uint64_t methodStart;  /* the method's code: an absolute address (a target, an image with a base) or an RVA */
  uint32_t token;        /* the method's MethodDef, 0x06000000 | RID */
  uint32_t nativeOffset; /* of the address in its method's code (hot and cold as one block) */
  uint32_t ilOffset;     /* the IL offset the runtime reports (StackFrame.GetILOffset) */
  int32_t mapping;       /* GDMAP_IL_MAPPING_* */
  uint32_t line;         /* the sequence point's, when GDMAP_SYMBOL_LINE */
  uint32_t column;
  uint32_t endLine;
  uint32_t endColumn;
  uint32_t flags; /* GDMAP_SYMBOL_* */
} gdmap_symbol;

/* The ReadyToRun image file `imagePath` (UTF-8). `pdbPath`: its portable
 * PDB, or NULL (or "") to find it as a debugger does (embedded, then
 * beside the image; none found: answers without lines). `base`: where the
 * image is mapped, addresses then being absolute; 0: addresses are RVAs.
 * NULL with `error` described when the image (or the PDB named) cannot be
 * used. */
gdmap_symbolizer* gdmap_symbolizer_open_image(const char* imagePath, const char* pdbPath, uint64_t base,
                                              gdmap_error* error);

/* The .NET runtime in `target` (which must outlive the symbolizer), its
 * descriptor at `descriptorAddress` or found among the target's mapped
 * files (0), as gdmap_runtime_open finds it. `lines`: nonzero to read the
 * lines of each module whose portable PDB is beside its file. */
gdmap_symbolizer* gdmap_symbolizer_open_target(const gdmap_target* target, uint64_t descriptorAddress, int lines,
                                               gdmap_error* error);

void gdmap_symbolizer_close(gdmap_symbolizer* symbolizer);

/* The method holding `address`. S_OK with *symbol filled; E_FAIL when the
 * address is in no method's code (error->rule empty) or what holds it
 * cannot be read (error described); E_INVALIDARG for NULL arguments. */
gdmap_hresult gdmap_symbolizer_locate(gdmap_symbolizer* symbolizer, uint64_t address, gdmap_address_kind kind,
                                      gdmap_symbol* symbol, gdmap_error* error);

/* The module file of the method the last successful locate found, UTF-8,
 * in the two-call protocol (cch and *pcch in bytes, the NUL included); an
 * empty string for a module without a file. E_FAIL before any locate. */
gdmap_hresult gdmap_symbolizer_module(gdmap_symbolizer* symbolizer, uint32_t cch, uint32_t* pcch, char path[],
                                      gdmap_error* error);

/* The source document of the last successful locate's line (the path the
 * PDB names), as gdmap_symbolizer_module; an empty string without a line. */
gdmap_hresult gdmap_symbolizer_document(gdmap_symbolizer* symbolizer, uint32_t cch, uint32_t* pcch, char document[],
                                        gdmap_error* error);

#ifdef __cplusplus
}
#endif

#endif /* GDMAP_SYMBOLIZE_SYMBOLIZER_H */
