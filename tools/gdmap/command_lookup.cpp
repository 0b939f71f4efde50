// gdmap lookup MAP RVA: the types of one dictionary, one per line.
#include "commands.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <charconv>
#include <iostream>
#include <memory>

namespace gdmap::cli {
namespace {

struct LookupOptions {
  std::string map;
  std::string rva;
};

// "heap@0x1c", as check and verify name items.
std::string heapItemName(std::uint32_t heapOffset) {
  std::string hex = hex32(heapOffset);
  const std::size_t firstDigit = hex.find_first_not_of('0', 2);
  return "heap@0x" + (firstDigit == std::string::npos ? std::string("0") : hex.substr(firstDigit));
}

// Decimal or 0x-prefixed hex, below 2^32.
std::optional<std::uint32_t> parseRva(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

int runLookup(const LookupOptions& options) {
  const auto rva = parseRva(options.rva);
  if (!rva) {
    printError("RVA '" + options.rva + "' is not a number below 2^32 (decimal or 0x hex)");
    return kUsageOrIo;
  }
  auto input = InputBytes::open(options.map);
  if (!input) {
    printError(input.error().message);
    return kUsageOrIo;
  }
  auto view = MapView::open(input->bytes());
  if (!view) {
    printError(input->displayName() + ": byte " + std::to_string(view.error().offset) + ": " + view.error().message);
    return kInvalid;
  }
  const auto index = view->find(*rva);
  if (!index) {
    std::cerr << input->displayName() << ": no dictionary at RVA " << hex32(*rva) << '\n';
    return kInvalid;
  }
  const DirectoryEntry entry = view->entry(*index);
  const std::string where = "directory[" + std::to_string(*index) + "]";
  // A broken item is named the way `check` names it: the directory field
  // when the offset misses the heap, else the item and the bad byte.
  auto reportBroken = [&](const std::string& field, std::size_t byte, const std::string& message) {
    printError(input->displayName() + ": " + field + " (byte " + hex32(static_cast<std::uint32_t>(byte)) +
               "): " + message);
    return kInvalid;
  };
  auto item = view->item(entry.offset);
  if (!item) {
    if (entry.offset >= view->heap().size())
      return reportBroken(where + ".offset", kHeaderSize + kDirectoryEntrySize * std::size_t{*index} + 4,
                          item.error().message);
    return reportBroken(where + " -> " + heapItemName(entry.offset), item.error().offset, item.error().message);
  }
  auto types = decodeItemTypes(*item);
  if (!types)
    return reportBroken(where + " -> " + heapItemName(entry.offset), types.error().offset, types.error().message);
  std::string out;
  for (const Type& type : *types) {
    formatType(type, out);
    out += '\n';
  }
  std::cout << out << std::flush;
  return kSuccess;
}

}  // namespace

void addLookupCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<LookupOptions>();
  auto* lookup = app.add_subcommand("lookup", "Print the types of the dictionary at an RVA, one per line");
  lookup->add_option("MAP", options->map, "The map ('-' for stdin)")->required();
  lookup->add_option("RVA", options->rva, "The dictionary's RVA (decimal or 0x hex)")->required();
  lookup->callback([options, &status] { status = runLookup(*options); });
}

}  // namespace gdmap::cli
