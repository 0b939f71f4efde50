/* The runtime reader's C calls compiled as C (C11, -Wpedantic), on the
 * real .NET 10 and 11 runtimes recorded in tests/data/runtime/ (read
 * through a caller's callback, as an in-process profiler would) and on
 * this process, which runs no .NET runtime. Arguments: the two recordings
 * and the number of JIT-compiled bodies and explicit code versions each
 * holds. Exit status 0 on success; each failed check prints its line. */
#define _POSIX_C_SOURCE 200809L
#include <gdmap/coredump/core_dump.h>
#include <gdmap/process/process_memory.h>
#include <gdmap/reader/runtime_code.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int failures = 0;

#define EXPECT(condition)                                                     \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

/* A recorded target (tests/support/target_records.hpp), read whole. */
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

/* The callback: the bytes of the record holding `address`. */
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

static void check_runtime(const char* path, uint32_t bodies, uint32_t explicit_versions) {
  recording r;
  gdmap_error error;
  gdmap_target* target;
  gdmap_runtime* runtime;
  gdmap_jit_code* code;
  gdmap_jit_code found;
  gdmap_il_to_native_map* map;
  uint32_t count = 0, i, explicit_count = 0, entries = 0, own = 0;
  char module[4096];

  EXPECT(load(path, &r));
  target = gdmap_target_from_callback(read_recording, &r, path);
  EXPECT(target != NULL);
  /* A callback target lists no files: without the address, nothing is found. */
  EXPECT(gdmap_runtime_open(target, 0, &error) == NULL);
  EXPECT(strcmp(error.rule, "runtime-not-found") == 0);
  runtime = gdmap_runtime_open(target, r.descriptor, &error);
  EXPECT(runtime != NULL);
  if (runtime == NULL) {
    fprintf(stderr, "%s: %s [%s]\n", path, error.message, error.rule);
    return;
  }
  EXPECT(gdmap_runtime_jit_code(runtime, 0, &count, NULL, &error) == S_OK);
  EXPECT(count == bodies);
  code = malloc(count * sizeof *code);
  EXPECT(gdmap_runtime_jit_code(runtime, count, &count, code, &error) == S_OK);
  for (i = 0; i < count; ++i) {
    if (code[i].flags & GDMAP_JIT_CODE_EXPLICIT_VERSION) ++explicit_count;
    if (i > 0) EXPECT(code[i].start >= code[i - 1].start + code[i - 1].size);
    EXPECT(code[i].tier >= 0 && code[i].tier <= 5);
    /* The same body found from its middle, without the walk. */
    EXPECT(gdmap_runtime_find_jit_code(runtime, code[i].start + code[i].size / 2, &found, &error) == S_OK);
    EXPECT(found.start == code[i].start && found.token == code[i].token && found.methodDesc == code[i].methodDesc);
    /* Its array, in two calls. */
    entries = 0;
    if (gdmap_runtime_il_to_native_mapping(runtime, code[i].start, 0, &entries, NULL, &error) == S_OK && entries > 0) {
      map = malloc(entries * sizeof *map);
      EXPECT(gdmap_runtime_il_to_native_mapping(runtime, code[i].start, entries, &entries, map, &error) == S_OK);
      EXPECT(map[entries - 1].nativeEndOffset <= code[i].size);
      free(map);
    }
    EXPECT(gdmap_runtime_module_path(runtime, code[i].module, sizeof module, &entries, module, &error) == S_OK);
    if (strstr(module, "sleeper.dll") != NULL) ++own;
  }
  EXPECT(explicit_count == explicit_versions);
  EXPECT(own >= 5);
  /* Not code, and not a body's start. */
  EXPECT(gdmap_runtime_find_jit_code(runtime, 1, &found, &error) == E_FAIL);
  EXPECT(error.rule[0] == '\0');
  EXPECT(gdmap_runtime_il_to_native_mapping(runtime, code[0].start + 1, 0, &entries, NULL, &error) == E_FAIL);
  EXPECT(gdmap_runtime_jit_code(NULL, 0, &count, NULL, &error) == E_INVALIDARG);
  EXPECT(gdmap_runtime_jit_code(runtime, 1, &count, NULL, &error) == E_INVALIDARG);
  free(code);
  gdmap_runtime_close(runtime);
  gdmap_target_close(target);
  free(r.bytes);
}

int main(int argc, char** argv) {
  gdmap_error error;
  gdmap_target* self;
  static const unsigned char not_a_core[64] = {0x7f, 'E', 'L', 'F'};
  if (argc != 7) {
    fprintf(stderr, "usage: runtime_c_test NET10 BODIES EXPLICIT NET11 BODIES EXPLICIT\n");
    return 2;
  }
  check_runtime(argv[1], (uint32_t)atoi(argv[2]), (uint32_t)atoi(argv[3]));
  check_runtime(argv[4], (uint32_t)atoi(argv[5]), (uint32_t)atoi(argv[6]));

  /* This process: a target, but no .NET runtime in it. */
  self = gdmap_target_open_pid((int)getpid(), &error);
  EXPECT(self != NULL);
  EXPECT(gdmap_runtime_open(self, 0, &error) == NULL);
  EXPECT(strcmp(error.rule, "runtime-not-found") == 0);
  EXPECT(strstr(error.message, "libcoreclr.so") != NULL);
  gdmap_target_close(self);
  /* Not a core dump. */
  EXPECT(gdmap_target_open_core(not_a_core, sizeof not_a_core, "x.core", &error) == NULL);
  EXPECT(strcmp(error.rule, "core-dump-invalid") == 0);
  EXPECT(gdmap_target_from_callback(NULL, NULL, "none") == NULL);
  return failures == 0 ? 0 : 1;
}
