// ItemStore: every heap item's bytes in one arena, deduplicated through an
// ArenaHashSet of record indices, so interning allocates nothing per item
// beyond amortised vector growth.
#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include "map_layout.hpp"

#include <cassert>
#include <cstring>

namespace gdmap::detail {
std::uint64_t hashItemBytes(ByteSpan bytes) { return hashBytes(bytes); }

void ItemStore::reserve(std::size_t items, std::size_t bytes) {
  arena_.reserve(bytes);
  records_.reserve(items);
}

std::uint32_t ItemStore::internTyped(std::uint32_t length, std::uint32_t typeCount, ByteSpan types) {
  const std::size_t begin = arena_.size();
  std::uint8_t prefix[8];
  std::size_t prefixSize = encodeCompressedUInt(length, prefix);
  prefixSize += encodeCompressedUInt(typeCount, prefix + prefixSize);
  arena_.insert(arena_.end(), prefix, prefix + prefixSize);
  arena_.insert(arena_.end(), types.begin(), types.end());
  return commit(begin);
}

std::uint32_t ItemStore::internRaw(ByteSpan item) {
  assert(!item.empty());  // checkRawItem() first: an empty item has no offset of its own
  const std::size_t begin = arena_.size();
  arena_.insert(arena_.end(), item.begin(), item.end());
  return commit(begin);
}

std::uint64_t ItemStore::hashOf(ByteSpan item) { return hashItemBytes(item); }

std::uint32_t ItemStore::internHashed(ByteSpan item, std::uint64_t hash) {
  const std::size_t begin = arena_.size();
  arena_.insert(arena_.end(), item.begin(), item.end());
  return commit(begin, hash);
}

std::uint32_t ItemStore::commit(std::size_t begin) {
  return commit(begin, hashItemBytes(ByteSpan(arena_).subspan(begin)));
}

std::uint32_t ItemStore::commit(std::size_t begin, std::uint64_t hash) {
  const ByteSpan candidate = ByteSpan(arena_).subspan(begin);
  if (slots_.fullFor(records_.size())) grow();
  const std::size_t slot = slots_.slotOf(hash, [&](const Slot& s) {
    const Record& r = records_[s.record - 1];
    // r.length == 0 never reaches memcmp: its pointers may then be null.
    return r.hash == hash && r.length == candidate.size() &&
           (r.length == 0 || std::memcmp(arena_.data() + r.offset, candidate.data(), r.length) == 0);
  });
  if (slots_[slot].used()) {
    arena_.resize(begin);  // already stored: drop the copy
    return slots_[slot].record - 1;
  }
  assert(records_.size() < 0xFFFFFFFFu);
  records_.push_back(Record{begin, candidate.size(), hash});
  slots_[slot] = Slot{slots_.tagOf(hash), static_cast<std::uint32_t>(records_.size())};
  return static_cast<std::uint32_t>(records_.size() - 1);
}

void ItemStore::grow() {
  // Every record keeps its hash: the table is rebuilt from the records
  // alone, in their order.
  slots_.regrow(64, [this](auto place) {
    for (std::size_t i = 0; i < records_.size(); ++i)
      place(records_[i].hash, Slot{slots_.tagOf(records_[i].hash), static_cast<std::uint32_t>(i + 1)});
  });
}

}  // namespace gdmap::detail
