// Reads a generic dictionary map the way a debugger does: validates it in
// place, then prints every dictionary's RVA and types. Exit status 0 when the
// map is valid, 1 when it is not, 2 when the file cannot be read.
//   gdmap_reader_consumer MAP.gdmap
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gdmap_reader_consumer MAP.gdmap\n");
    return 2;
  }
  std::ifstream file(argv[1], std::ios::binary);
  const gdmap::Bytes map{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  if (!file.eof()) {
    std::fprintf(stderr, "gdmap_reader_consumer: cannot read %s\n", argv[1]);
    return 2;
  }

  const gdmap::CheckReport report = gdmap::checkMap(map);
  for (const gdmap::Diagnostic& d : report.diagnostics)
    std::fprintf(stderr, "%s\n", gdmap::formatDiagnostic(d, argv[1]).c_str());
  if (!report.valid) return 1;

  // checkMap() accepted it: every entry's item and types decode.
  const gdmap::Expected<gdmap::MapView> view = gdmap::MapView::open(map);
  if (!view) return 1;
  for (std::uint32_t i = 0; i < view->size(); ++i) {
    const gdmap::DirectoryEntry entry = view->entry(i);
    const gdmap::Expected<gdmap::ItemView> item = view->item(entry.offset);
    if (!item) return 1;
    const gdmap::Expected<std::vector<gdmap::Type>> types = gdmap::decodeItemTypes(*item);
    if (!types) return 1;
    std::printf("%s:", gdmap::hex32(entry.rva).c_str());
    for (const gdmap::Type& type : *types) std::printf(" %s", gdmap::formatType(type).c_str());
    std::printf("\n");
  }
  return 0;
}
