/* The IL-to-native map protocol header compiled as C (C11, -Wpedantic):
 * proves <gdmap/reader/il_to_native_map.h> is C, and plays the two-call
 * protocol the way a C profiler mock would. Exit status 0 on success; each
 * failed check prints its line. */
#include <gdmap/reader/il_to_native_map.h>

#include <stdio.h>
#include <stdlib.h>

static int failures = 0;

#define EXPECT(condition)                                                     \
  do {                                                                        \
    if (!(condition)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                             \
    }                                                                         \
  } while (0)

int main(void) {
  /* FORMAT.md §3.2's worked example: codeSize 40. */
  const gdmap_il_bound bounds[] = {
      {0, 0xFFFFFFFEu, 0x02}, {4, 0x0, 0x02},  {10, 0x5, 0x00},
      {12, 0x5, 0x10},        {17, 0x9, 0x02}, {30, 0xFFFFFFFDu, 0x00},
  };
  const gdmap_il_to_native_map expected[] = {
      {0xFFFFFFFEu, 0, 4}, {0x0, 4, 10}, {0x5, 10, 17}, {0x9, 17, 30}, {0xFFFFFFFDu, 30, 40},
  };
  gdmap_il_to_native_map* map;
  gdmap_il_map_table* table = gdmap_il_map_table_create();
  uint32_t count = 0;
  uint32_t i;

  EXPECT(sizeof(gdmap_il_to_native_map) == 12);
  EXPECT(S_OK == 0);
  EXPECT((uint32_t)E_INVALIDARG == 0x80070057u);
  EXPECT((uint32_t)E_FAIL == 0x80004005u);
  if (table == NULL) return 1;
  EXPECT(gdmap_il_map_table_add_bounds(table, 0x06000001u, 40, bounds, 6) == S_OK);

  /* First call: the count only. */
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000001u, 0, &count, NULL) == S_OK);
  EXPECT(count == 5);
  /* Second call: the entries. */
  map = (gdmap_il_to_native_map*)malloc(count * sizeof *map);
  if (map == NULL) return 1;
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000001u, count, &count, map) == S_OK);
  EXPECT(count == 5);
  for (i = 0; i < 5; ++i) {
    EXPECT(map[i].ilOffset == expected[i].ilOffset);
    EXPECT(map[i].nativeStartOffset == expected[i].nativeStartOffset);
    EXPECT(map[i].nativeEndOffset == expected[i].nativeEndOffset);
  }
  /* Truncated: two entries copied, the full count reported. */
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000001u, 2, &count, map) == S_OK);
  EXPECT(count == 5);
  /* The error codes. */
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000001u, 1, NULL, map) == E_INVALIDARG);
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000001u, 1, &count, NULL) == E_INVALIDARG);
  count = 77;
  EXPECT(gdmap_get_il_to_native_mapping(table, 0x06000009u, 0, &count, NULL) == E_FAIL);
  EXPECT(count == 77);

  free(map);
  gdmap_il_map_table_destroy(table);
  if (failures == 0) puts("il protocol (C): all checks passed");
  return failures == 0 ? 0 : 1;
}
