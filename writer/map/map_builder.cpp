// MapBuilder and buildMap(): collect (RVA, item) pairs, interning item bytes
// so identical items are stored once, then hand them to layoutMap().
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/internal/waiting_queue.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/writer/type_encoder.hpp>
#include "map_layout.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace gdmap {
namespace {

// The encoder's rule for a type that does not encode, or the umbrella one.
std::string ruleOf(const Error& e) { return e.rule.empty() ? std::string(rules::kInvalidType) : e.rule; }

}  // namespace

// addEncoded() stages its item rather than interning it at once: the item
// store's first probe is a cache miss once the store outgrows the cache,
// and a dictionary's item is committed kStagedItems adds later, when the
// prefetch of its slot has long arrived. Dictionaries keep their order
// (an entry waits with kItemLater); everything that reads the items or the
// entries commits what is staged first.
constexpr std::size_t kStagedItems = 8;

struct MapBuilder::State {
  bool sorted = true;
  detail::ItemStore items;
  detail::HugePageVector<detail::LayoutEntry> entries;
  detail::ExplicitLayout explicitLayout;  // empty for a canonical map
  // After finish() laid out a sorted canonical map: its directory as
  // (rva << 32 | item) keys, for directoryAt().
  detail::SortKeys directory;
  Bytes scratch;  // reused for encoding each add()'s types

  struct Staged {
    std::size_t entry;  // in entries
    std::uint64_t hash;
  };
  detail::WaitingQueue<Staged, std::uint8_t> staged;  // each with its whole item

  void commitOldest() {
    // Each waiting item's lookup is prefetched in three steps as it moves
    // up the queue: its slot (when staged), the record the slot points to,
    // then the stored bytes it is compared with.
    if (staged.size() > kStagedItems / 2) items.prefetchRecord(staged.at(kStagedItems / 2).hash);
    if (staged.size() > 2) items.prefetchBytes(staged.at(2).hash);
    const Staged& s = staged.at(0);
    entries[s.entry].item = items.internHashed(staged.bytesAt(0), s.hash);
    staged.pop();
  }
  void commitStaged() {
    while (!staged.empty()) commitOldest();
  }
};

MapBuilder::MapBuilder(bool sorted) : state_(std::make_unique<State>()) { state_->sorted = sorted; }
MapBuilder::~MapBuilder() = default;
MapBuilder::MapBuilder(MapBuilder&&) noexcept = default;
MapBuilder& MapBuilder::operator=(MapBuilder&&) noexcept = default;

void MapBuilder::reserve(std::size_t dictionaries, std::size_t heapBytes) {
  // What a reservation does not use is never touched, so huge pages cost
  // nothing there; what it uses is faulted in 2 MiB at a time.
  state_->entries.reserve(dictionaries);
  state_->items.reserve(dictionaries, heapBytes);
}

Status MapBuilder::add(std::uint32_t rva, std::span<const Type> types) {
  if (types.empty()) return Error{0, "an instantiation needs at least one type", rules::kEmptyTypes};
  Bytes& scratch = state_->scratch;
  scratch.clear();
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (Status s = encodeType(types[i], scratch); !s) {
      Error e{0, s.error().message, ruleOf(s.error())};
      e.path = "types[" + std::to_string(i) + "]";
      e.index = i;
      return e;
    }
  }
  return addEncoded(rva, static_cast<std::uint32_t>(std::min<std::size_t>(types.size(), 0xFFFFFFFFu)), scratch);
}

Status MapBuilder::addEncoded(std::uint32_t rva, std::uint32_t typeCount, ByteSpan typeBytes) {
  Expected<std::uint32_t> length = detail::itemLength(typeCount, typeBytes.size());
  if (!length) return length.error();
  State& st = *state_;
  std::uint8_t prefix[8];
  std::size_t prefixSize = encodeCompressedUInt(*length, prefix);
  prefixSize += encodeCompressedUInt(typeCount, prefix + prefixSize);
  st.staged.push({st.entries.size(), 0}, ByteSpan(prefix, prefixSize), typeBytes);
  const std::uint64_t hash = detail::ItemStore::hashOf(st.staged.bytesAt(st.staged.size() - 1));
  st.staged.newest().hash = hash;
  st.items.prefetch(hash);
  st.entries.push_back({rva, kItemLater});
  if (st.staged.size() > kStagedItems) st.commitOldest();
  return Success{};
}

Status MapBuilder::addRaw(std::uint32_t rva, ByteSpan itemBytes) {
  Expected<ItemId> item = internRaw(itemBytes);
  if (!item) return item.error();
  addItem(rva, *item);
  return Success{};
}

Expected<MapBuilder::ItemId> MapBuilder::internEncoded(std::uint32_t typeCount, ByteSpan typeBytes) {
  Expected<std::uint32_t> length = detail::itemLength(typeCount, typeBytes.size());
  if (!length) return length.error();
  return state_->items.internTyped(*length, typeCount, typeBytes);
}

Expected<MapBuilder::ItemId> MapBuilder::internRaw(ByteSpan itemBytes) {
  if (Status s = detail::checkRawItem(itemBytes); !s) return s.error();
  return state_->items.internRaw(itemBytes);
}

void MapBuilder::addItem(std::uint32_t rva, ItemId item) { state_->entries.push_back({rva, item}); }

void MapBuilder::setItem(std::size_t index, ItemId item) {
  State& st = *state_;
  // A staged entry's item is its own: committed first, not overwritten.
  for (std::size_t k = 0; k < st.staged.size(); ++k) {
    if (st.staged.at(k).entry == index) {
      st.commitStaged();
      break;
    }
  }
  st.entries[index].item = item;
}

void MapBuilder::setSorted(bool sorted) { state_->sorted = sorted; }

void MapBuilder::addItemAt(std::uint32_t rva, ItemId item, std::uint32_t offset) {
  state_->explicitLayout.offsets.emplace_back(state_->entries.size(), offset);
  state_->entries.push_back({rva, item});
}

void MapBuilder::addOffset(std::uint32_t rva, std::uint32_t offset) {
  state_->explicitLayout.offsets.emplace_back(state_->entries.size(), offset);
  state_->entries.push_back({rva, detail::kNoItem});
}

void MapBuilder::setLayout(LayoutOverrides layout) { state_->explicitLayout.layout = std::move(layout); }

bool MapBuilder::sorted() const { return state_->sorted; }

const LayoutOverrides& MapBuilder::layout() const { return state_->explicitLayout.layout; }

bool MapBuilder::hasOverrides() const { return state_->explicitLayout.any(); }

std::optional<std::uint32_t> MapBuilder::offsetAt(std::size_t index) const {
  const auto& offsets = state_->explicitLayout.offsets;  // by ascending index
  const auto it = std::lower_bound(offsets.begin(), offsets.end(), index,
                                   [](const auto& entry, std::size_t i) { return entry.first < i; });
  if (it == offsets.end() || it->first != index) return std::nullopt;
  return it->second;
}

bool MapBuilder::hasItem(std::size_t index) const {
  state_->commitStaged();
  return state_->entries[index].item != detail::kNoItem;
}

std::size_t MapBuilder::size() const { return state_->entries.size(); }

std::uint32_t MapBuilder::rvaAt(std::size_t index) const { return state_->entries[index].rva; }

ByteSpan MapBuilder::itemAt(std::size_t index) const {
  state_->commitStaged();
  return hasItem(index) ? state_->items.item(state_->entries[index].item) : ByteSpan{};
}

std::span<const MapBuilder::Entry> MapBuilder::entries() const {
  state_->commitStaged();
  return state_->entries;
}

std::size_t MapBuilder::itemCount() const {
  state_->commitStaged();
  return state_->items.size();
}

ByteSpan MapBuilder::itemBytes(ItemId item) const {
  state_->commitStaged();
  return state_->items.item(item);
}

Expected<Bytes> MapBuilder::finish() { return finish(mapPartPath); }

Expected<Bytes> MapBuilder::finish(const MapPartName& name) {
  state_->commitStaged();
  for (std::size_t i = 0; i < state_->entries.size(); ++i) {
    if (state_->entries[i].item == kItemLater)
      return detail::partError({MapPart::Kind::Dictionary, i}, "the dictionary was never given its item",
                               rules::kUndefinedInstantiation);
  }
  if (state_->explicitLayout.any())
    return detail::layoutMapExact(state_->sorted, state_->entries, state_->items, state_->explicitLayout, name);
  return detail::layoutMap(state_->sorted, state_->entries, state_->items, name, &state_->directory);
}

MapBuilder::Entry MapBuilder::directoryAt(std::size_t position) const {
  if (!state_->sorted) return state_->entries[position];
  const std::uint64_t key = state_->directory[position];
  return Entry{static_cast<std::uint32_t>(key >> 32), static_cast<ItemId>(key)};
}

namespace {

// Interns instantiation `j` into `items`: its types encoded once, however
// many dictionaries share it.
Expected<std::uint32_t> internInstantiation(const MapDescription& d, std::size_t j, detail::ItemStore& items,
                                            Bytes& scratch) {
  const InstantiationDescription& inst = d.instantiations[j];
  if (inst.raw) {
    if (Status s = detail::checkRawItem(*inst.raw); !s)
      return detail::partError({MapPart::Kind::Instantiation, j}, s.error().message, s.error().rule);
    return items.internRaw(*inst.raw);
  }
  scratch.clear();
  for (std::size_t i = 0; i < inst.types.size(); ++i) {
    if (Status s = encodeType(inst.types[i], scratch); !s)
      return detail::partError({MapPart::Kind::Type, j, i}, s.error().message, ruleOf(s.error()));
  }
  Expected<std::uint32_t> length = detail::itemLength(inst.types.size(), scratch.size());
  if (!length) return detail::partError({MapPart::Kind::Instantiation, j}, length.error().message, length.error().rule);
  return items.internTyped(*length, static_cast<std::uint32_t>(inst.types.size()), scratch);
}

}  // namespace

Expected<Bytes> buildMap(const MapDescription& description) {
  detail::ItemStore items;
  items.reserve(description.instantiations.size(), 0);
  std::vector<std::uint32_t> itemOf(description.instantiations.size());
  Bytes scratch;
  for (std::size_t j = 0; j < description.instantiations.size(); ++j) {
    Expected<std::uint32_t> item = internInstantiation(description, j, items, scratch);
    if (!item) return item.error();
    itemOf[j] = *item;
  }

  std::vector<detail::LayoutEntry> entries;
  entries.reserve(description.dictionaries.size());
  detail::ExplicitLayout explicitLayout;
  explicitLayout.layout = description.layout;
  for (std::size_t k = 0; k < description.layout.offsets.size(); ++k) {
    const DictionaryOffset& given = description.layout.offsets[k];
    if (given.dictionary >= description.dictionaries.size() ||
        (!explicitLayout.offsets.empty() && explicitLayout.offsets.back().first >= given.dictionary))
      return detail::partError(
          {MapPart::Kind::Offset, k},
          "the offset for dictionary " + std::to_string(given.dictionary) + ": out of range or not in ascending order",
          rules::kUndefinedInstantiation);
    explicitLayout.offsets.emplace_back(given.dictionary, given.offset);
  }
  for (std::size_t i = 0, nextOffset = 0; i < description.dictionaries.size(); ++i) {
    const DictionaryDescription& dict = description.dictionaries[i];
    const bool hasOffset = nextOffset < explicitLayout.offsets.size() && explicitLayout.offsets[nextOffset].first == i;
    if (hasOffset) ++nextOffset;
    if (hasOffset && dict.instantiation == kNoInstantiation) {
      entries.push_back({dict.rva, detail::kNoItem});
      continue;
    }
    if (dict.instantiation >= itemOf.size())
      return detail::partError({MapPart::Kind::Dictionary, i},
                               "instantiation index " + std::to_string(dict.instantiation) + " is out of range",
                               rules::kUndefinedInstantiation);
    entries.push_back({dict.rva, itemOf[dict.instantiation]});
  }

  if (explicitLayout.any())
    return detail::layoutMapExact(description.sorted, entries, items, explicitLayout, mapPartPath);
  return detail::layoutMap(description.sorted, entries, items, mapPartPath);
}

}  // namespace gdmap
