/* The symbolizer's C calls compiled as C (C11, -Wpedantic): an image
 * symbolizer on tests/data/pdb/sample-r2r.dll (its PDB beside it: lines;
 * RVAs, then absolute addresses with a base; exact and return addresses),
 * and a target symbolizer on the recorded .NET 10 runtime of
 * tests/data/runtime/ (read through a caller's callback). Arguments: the
 * image and the recording. Exit status 0 on success; each failed check
 * prints its line. */
#include <gdmap/symbolize/symbolizer.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT(condition)                                                     \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

typedef struct recording {
  unsigned char* bytes;
  size_t size;
  uint64_t descriptor;
} recording;

static uint64_t le(const unsigned char* p, unsigned width) {
  uint64_t v = 0;
  unsigned i;
  for (i = 0; i < width; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static int load(const char* path, recording* r) {
  FILE* f = fopen(path, "rb");
  long n;
  if (f == NULL) return 0;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  r->bytes = malloc((size_t)n);
  r->size = fread(r->bytes, 1, (size_t)n, f);
  fclose(f);
  if (r->size < 16 || memcmp(r->bytes, "GDMAPTGT", 8) != 0) return 0;
  r->descriptor = le(r->bytes + 8, 8);
  return 1;
}

static size_t read_recording(void* context, uint64_t address, void* out, size_t size) {
  const recording* r = context;
  size_t at = 16;
  while (at + 12 <= r->size) {
    const uint64_t start = le(r->bytes + at, 8);
    const uint64_t length = le(r->bytes + at + 8, 4);
    at += 12;
    if (address >= start && address - start < length) {
      const size_t n = (size_t)(length - (address - start)) < size ? (size_t)(length - (address - start)) : size;
      memcpy(out, r->bytes + at + (address - start), n);
      return n;
    }
    at += (size_t)length;
  }
  return 0;
}

static void check_image(const char* path) {
  gdmap_error error;
  gdmap_symbol symbol;
  uint32_t size = 0;
  char* document;
  char small[4];
  gdmap_symbolizer* s = gdmap_symbolizer_open_image(path, NULL, 0, &error);
  EXPECT(s != NULL);
  if (s == NULL) {
    fprintf(stderr, "%s: %s [%s]\n", path, error.message, error.rule);
    return;
  }
  /* Nothing located yet. */
  EXPECT(gdmap_symbolizer_module(s, 0, &size, NULL, &error) == E_FAIL);
  /* Helper.Twice at RVA 0x10960: +5 starts IL 0xf's code, line 11. */
  EXPECT(gdmap_symbolizer_locate(s, 0x10965, GDMAP_ADDRESS_EXACT, &symbol, &error) == S_OK);
  EXPECT(symbol.token == 0x06000001);
  EXPECT(symbol.methodStart == 0x10960);
  EXPECT(symbol.nativeOffset == 5);
  EXPECT(symbol.ilOffset == 0xf);
  EXPECT(symbol.mapping == GDMAP_IL_MAPPING_EXACT);
  EXPECT(symbol.flags & GDMAP_SYMBOL_LINE);
  EXPECT(symbol.line == 11);
  EXPECT(gdmap_symbolizer_document(s, 0, &size, NULL, &error) == S_OK);
  EXPECT(size > 1);
  document = malloc(size);
  EXPECT(gdmap_symbolizer_document(s, size, &size, document, &error) == S_OK);
  EXPECT(strstr(document, "Helper.cs") != NULL);
  free(document);
  /* Cut to fit, still a string. */
  EXPECT(gdmap_symbolizer_module(s, sizeof small, &size, small, &error) == S_OK);
  EXPECT(size == strlen(path) + 1);
  EXPECT(strlen(small) == sizeof small - 1);
  /* As a return address: the statement before the call's return. */
  EXPECT(gdmap_symbolizer_locate(s, 0x10965, GDMAP_ADDRESS_RETURN, &symbol, &error) == S_OK);
  EXPECT(symbol.ilOffset == 0);
  /* The method's first byte: the prolog, IL 0, even as a return address. */
  EXPECT(gdmap_symbolizer_locate(s, 0x10960, GDMAP_ADDRESS_RETURN, &symbol, &error) == S_OK);
  EXPECT(symbol.mapping == GDMAP_IL_MAPPING_PROLOG);
  /* In no method: E_FAIL, no error. */
  EXPECT(gdmap_symbolizer_locate(s, 0x10, GDMAP_ADDRESS_EXACT, &symbol, &error) == E_FAIL);
  EXPECT(error.rule[0] == '\0');
  EXPECT(gdmap_symbolizer_locate(s, 0x10965, (gdmap_address_kind)7, &symbol, &error) == E_INVALIDARG);
  EXPECT(gdmap_symbolizer_locate(s, 0x10965, GDMAP_ADDRESS_EXACT, NULL, &error) == E_INVALIDARG);
  gdmap_symbolizer_close(s);

  /* Mapped at a base: absolute addresses; below the base, nothing. */
  s = gdmap_symbolizer_open_image(path, "", 0x7f0000000000u, &error);
  EXPECT(s != NULL);
  EXPECT(gdmap_symbolizer_locate(s, 0x7f0000010965u, GDMAP_ADDRESS_EXACT, &symbol, &error) == S_OK);
  EXPECT(symbol.methodStart == 0x7f0000010960u && symbol.line == 11);
  EXPECT(gdmap_symbolizer_locate(s, 0x10965, GDMAP_ADDRESS_EXACT, &symbol, &error) == E_FAIL);
  gdmap_symbolizer_close(s);

  /* A PDB named that is not there is the error. */
  EXPECT(gdmap_symbolizer_open_image(path, "no-such.pdb", 0, &error) == NULL);
  EXPECT(strcmp(error.rule, "pdb-not-found") == 0);
  EXPECT(gdmap_symbolizer_open_image("no-such.dll", NULL, 0, &error) == NULL);
  EXPECT(error.rule[0] != '\0');
  EXPECT(gdmap_symbolizer_open_image(NULL, NULL, 0, &error) == NULL);
}

static void check_target(const char* path) {
  recording r;
  gdmap_error error;
  gdmap_symbol symbol;
  gdmap_target* target;
  gdmap_symbolizer* s;
  char module[4096];
  uint32_t size = 0;
  EXPECT(load(path, &r));
  target = gdmap_target_from_callback(read_recording, &r, path);
  EXPECT(target != NULL);
  /* A callback target lists no files: without the address, no runtime. */
  EXPECT(gdmap_symbolizer_open_target(target, 0, 0, &error) == NULL);
  EXPECT(strcmp(error.rule, "runtime-not-found") == 0);
  s = gdmap_symbolizer_open_target(target, r.descriptor, 0, &error);
  EXPECT(s != NULL);
  if (s != NULL) {
    /* The body of 0x06000002 at 0x7fdf0f8a20a0 (tier 0, 147 bytes). */
    EXPECT(gdmap_symbolizer_locate(s, 0x7fdf0f8a20a5u, GDMAP_ADDRESS_RETURN, &symbol, &error) == S_OK);
    EXPECT(symbol.token == 0x06000002);
    EXPECT(symbol.methodStart == 0x7fdf0f8a20a0u);
    EXPECT(symbol.nativeOffset == 5);
    EXPECT(symbol.flags & GDMAP_SYMBOL_JIT);
    EXPECT((symbol.flags & GDMAP_SYMBOL_LINE) == 0);
    EXPECT(gdmap_symbolizer_module(s, sizeof module, &size, module, &error) == S_OK);
    EXPECT(strstr(module, "sleeper.dll") != NULL);
    EXPECT(gdmap_symbolizer_document(s, sizeof module, &size, module, &error) == S_OK);
    EXPECT(size == 1 && module[0] == '\0');
    EXPECT(gdmap_symbolizer_locate(s, 0x1000, GDMAP_ADDRESS_EXACT, &symbol, &error) == E_FAIL);
    EXPECT(error.rule[0] == '\0');
    gdmap_symbolizer_close(s);
  }
  EXPECT(gdmap_symbolizer_open_target(NULL, 0, 0, &error) == NULL);
  gdmap_target_close(target);
  free(r.bytes);
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: symbolizer_c_test IMAGE RECORDING\n");
    return 2;
  }
  check_image(argv[1]);
  check_target(argv[2]);
  gdmap_symbolizer_close(NULL);
  return failures == 0 ? 0 : 1;
}
