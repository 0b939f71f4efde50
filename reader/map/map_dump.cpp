// describeMap(): a valid map's content as a description (shared items become
// named instantiations), with the reasons a rebuild would differ.
// matchesDescription(): whether a map holds exactly a description's content.
#include <gdmap/reader/map_dump.hpp>

#include <gdmap/schema/instantiation_names.hpp>

#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>
#include "map_match_work.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <unordered_set>

namespace gdmap {
namespace {

std::optional<Error> firstCheckError(ByteSpan map) {
  CheckOptions options;
  options.maxDiagnostics = 1000;
  const CheckReport report = checkMap(map, options);
  for (const Diagnostic& d : report.diagnostics) {
    if (d.severity != Severity::Error) continue;
    std::string message = d.path.empty() ? d.message : d.path + ": " + d.message;
    return Error{d.offset == Diagnostic::npos ? 0 : d.offset, std::move(message), d.rule};
  }
  // Errors past the cap are counted, not kept: name the first kept one's
  // absence honestly.
  if (!report.valid) return Error{0, "the map is not valid", rules::kInvalidMap};
  return std::nullopt;
}

InstantiationDescription describeItem(const ItemView& item) {
  InstantiationDescription inst;
  Expected<std::vector<Type>> types = decodeItemTypes(item);
  // checkMap accepted the map, so the types decode; keep the bytes verbatim
  // should they not, rather than lose them.
  if (types) inst.types = std::move(*types);
  else inst.raw = Bytes(item.bytes.begin(), item.bytes.end());
  return inst;
}

// Why rebuilding the description of `map` will not give its bytes: the
// canonical rules it breaks, one sentence each.
std::vector<std::string> rebuildDifferences(ByteSpan map) {
  std::vector<std::string> reasons;
  for (const Diagnostic& d : checkCanonical(map).reasons)
    reasons.push_back((d.path.empty() ? d.message : d.path + ": " + d.message) + " [" + d.rule + "]");
  return reasons;
}

}  // namespace

std::size_t ReachedItems::indexOf(std::uint32_t offset) const {
  return static_cast<std::size_t>(std::lower_bound(offsets.begin(), offsets.end(), offset) - offsets.begin());
}

ReachedItems reachedItems(const MapView& view) {
  ReachedItems reached;
  std::vector<std::uint32_t>& offsets = reached.offsets;
  offsets.resize(view.size());
  for (std::uint32_t i = 0; i < view.size(); ++i) offsets[i] = view.entry(i).offset;
  std::sort(offsets.begin(), offsets.end());
  std::size_t distinct = 0;
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t j = i + 1;
    while (j < offsets.size() && offsets[j] == offsets[i]) ++j;
    offsets[distinct++] = offsets[i];
    reached.references.push_back(static_cast<std::uint32_t>(j - i));
    i = j;
  }
  offsets.resize(distinct);
  return reached;
}

Expected<DumpResult> describeMap(ByteSpan map) {
  if (std::optional<Error> e = firstCheckError(map)) return *e;
  Expected<MapView> opened = MapView::open(map);
  if (!opened) return opened.error();
  const MapView& view = *opened;
  const std::uint32_t n = view.size();

  const ReachedItems reached = reachedItems(view);

  DumpResult result;
  MapDescription& d = result.description;
  d.sorted = view.sorted();
  // Shared items are named from their bytes (instantiation_names.hpp), in
  // heap order; a name stands for the item wherever it is used.
  InstantiationNamer namer;
  std::vector<std::size_t> shared(reached.offsets.size(), static_cast<std::size_t>(-1));
  for (std::size_t k = 0; k < reached.offsets.size(); ++k) {
    if (!reached.shared(k)) continue;
    Expected<ItemView> item = view.item(reached.offsets[k]);
    if (!item) return item.error();
    InstantiationDescription inst = describeItem(*item);
    inst.name = namer.next(item->bytes);
    shared[k] = d.instantiations.size();
    d.instantiations.push_back(std::move(inst));
  }
  d.dictionaries.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirectoryEntry e = view.entry(i);
    DictionaryDescription dict;
    dict.rva = e.rva;
    const std::size_t k = reached.indexOf(e.offset);
    if (shared[k] != static_cast<std::size_t>(-1)) {
      dict.instantiation = shared[k];
    } else {
      Expected<ItemView> item = view.item(e.offset);
      if (!item) return item.error();
      InstantiationDescription inst = describeItem(*item);
      dict.instantiation = d.instantiations.size();
      d.instantiations.push_back(std::move(inst));
    }
    d.dictionaries.push_back(dict);
  }
  result.rebuildDifferences = rebuildDifferences(map);
  return result;
}

namespace {

// Messages quote types and bytes with a cap: a mismatch in a huge
// instantiation costs a short message.
constexpr std::size_t kMaxQuotedText = 120;
constexpr std::size_t kMaxQuotedBytes = 32;

std::string typesText(const std::vector<Type>& types) {
  std::string out = "[";
  for (std::size_t i = 0; i < types.size() && out.size() <= kMaxQuotedText; ++i) {
    if (i != 0) out += ", ";
    formatType(types[i], out);
  }
  if (out.size() > kMaxQuotedText) {
    out.resize(kMaxQuotedText);
    return out + "...";
  }
  return out + "]";
}

std::string bytesText(ByteSpan bytes) {
  if (bytes.size() <= kMaxQuotedBytes) return toHex(bytes);
  return toHex(bytes.first(kMaxQuotedBytes)) + "... (" + std::to_string(bytes.size()) + " bytes)";
}

// Whether the item holds the types of `inst` (compared as models, so a map
// with non-minimal integers still holds its content).
Status itemMatches(const ItemView& item, const InstantiationDescription& inst, detail::MatchWork& work) {
  Expected<std::vector<Type>> types = decodeItemTypes(item);
  ++work.itemsCompared;
  if (types) work.typesDecoded += types->size();
  if (types && *types == inst.types) return Success{};
  return Error{item.start,
               "types " + (types ? typesText(*types) : "that do not decode (" + types.error().message + ")") +
                   " in the map, " + typesText(inst.types) + " in the description",
               rules::kDescriptionMismatch};
}

}  // namespace

Status matchesDescription(ByteSpan map, const MapDescription& description) {
  detail::MatchWork work;
  return detail::matchesDescription(map, description, work);
}

Status detail::matchesDescription(ByteSpan map, const MapDescription& description, MatchWork& work) {
  Expected<MapView> opened = MapView::open(map);
  if (!opened) return opened.error();
  const MapView& view = *opened;
  if (view.sorted() != description.sorted)
    return Error{0,
                 std::string("/sorted: the map is ") + (view.sorted() ? "sorted" : "unsorted") +
                     ", the description says " + (description.sorted ? "sorted" : "unsorted"),
                 rules::kDescriptionMismatch};
  const std::size_t n = description.dictionaries.size();
  if (view.size() != n)
    return Error{0,
                 "/dictionaries: the map holds " + std::to_string(view.size()) + " dictionaries, the description " +
                     std::to_string(n),
                 rules::kDescriptionMismatch};

  // The order the builder writes: by RVA (stable) when sorted.
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (description.sorted)
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return description.dictionaries[a].rva < description.dictionaries[b].rva;
    });

  // Many dictionaries share an instantiation, and a non-canonical map may
  // hold copies of one item at several offsets, referenced in any order:
  // each distinct (heap offset, instantiation) pair is compared once, so the
  // work is the bytes of the distinct pairs, not dictionaries x item size.
  std::unordered_set<std::uint64_t> matched;
  matched.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const DictionaryDescription& dict = description.dictionaries[order[i]];
    // Built only for a message: the loop runs once per dictionary.
    const auto pointer = [&] { return dictionaryPointer(order[i]); };
    const DirectoryEntry e = view.entry(i);
    const auto at = static_cast<std::size_t>(directoryEntryOffset(i));
    if (e.rva != dict.rva)
      return Error{
          at, pointer() + ": RVA " + hex32(dict.rva) + ", but directory[" + std::to_string(i) + "] has " + hex32(e.rva),
          rules::kDescriptionMismatch};
    if (dict.instantiation >= description.instantiations.size())
      return Error{at, pointer() + ": instantiation index " + std::to_string(dict.instantiation) + " is out of range",
                   rules::kUndefinedInstantiation};
    if (!matched.insert(std::uint64_t{e.offset} << 32 ^ dict.instantiation).second) continue;
    const InstantiationDescription& inst = description.instantiations[dict.instantiation];
    if (inst.raw) {
      // Raw bytes need not carry a truthful length: compare them in place.
      ++work.itemsCompared;
      const std::size_t start = view.heapStart() + std::size_t{e.offset};
      const ByteSpan raw = *inst.raw;
      if (start > map.size() || map.size() - start < raw.size() ||
          !std::equal(raw.begin(), raw.end(), map.begin() + static_cast<std::ptrdiff_t>(start)))
        return Error{start,
                     pointer() + ": the map's item at heap offset " + hex32(e.offset) + " is not the raw bytes " +
                         bytesText(raw),
                     rules::kDescriptionMismatch};
      continue;
    }
    Expected<ItemView> item = view.item(e.offset);
    if (!item) return Error{item.error().offset, pointer() + ": " + item.error().message, item.error().rule};
    if (Status s = itemMatches(*item, inst, work); !s)
      return Error{s.error().offset, pointer() + ": " + s.error().message, s.error().rule};
  }
  return Success{};
}

}  // namespace gdmap
