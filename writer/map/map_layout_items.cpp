// ItemStore: every heap item's bytes in one arena, deduplicated through an
// open-addressing table of indices, so interning allocates nothing per item
// beyond amortised vector growth.
#include <gdmap/internal/bytes_hash.hpp>
#include <gdmap/internal/huge_pages.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include "map_layout.hpp"

#include <cassert>
#include <cstring>

namespace gdmap::detail {
std::uint64_t hashItemBytes(ByteSpan bytes) { return hashBytes(bytes); }

void ItemStore::reserve(std::size_t items, std::size_t bytes) {
  arena_.reserve(bytes);
  records_.reserve(items);
  adviseHugePages(arena_.data(), arena_.capacity());
  adviseHugePages(records_.data(), records_.capacity() * sizeof(Record));
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

std::uint32_t ItemStore::commit(std::size_t begin) {
  const ByteSpan candidate = ByteSpan(arena_).subspan(begin);
  const std::uint64_t hash = hashItemBytes(candidate);
  const auto tag = static_cast<std::uint32_t>(hash >> 32);
  if ((records_.size() + 1) * 2 > slots_.size()) grow();
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
    const Slot s = slots_[slot];
    if (s.record == 0) {
      assert(records_.size() < 0xFFFFFFFFu);
      records_.push_back(Record{begin, candidate.size(), hash});
      slots_[slot] = Slot{tag, static_cast<std::uint32_t>(records_.size())};
      return static_cast<std::uint32_t>(records_.size() - 1);
    }
    if (s.tag != tag) continue;
    const Record& r = records_[s.record - 1];
    // r.length == 0 never reaches memcmp: its pointers may then be null.
    if (r.hash == hash && r.length == candidate.size() &&
        (r.length == 0 || std::memcmp(arena_.data() + r.offset, candidate.data(), r.length) == 0)) {
      arena_.resize(begin);  // already stored: drop the copy
      return s.record - 1;
    }
  }
}

void ItemStore::grow() {
  const std::size_t size = slots_.empty() ? 64 : slots_.size() * 2;
  slots_ = std::vector<Slot>();  // the old table goes first: no copy, no two tables at once
  slots_.reserve(size);
  adviseHugePages(slots_.data(), size * sizeof(Slot));
  slots_.assign(size, Slot{});
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < records_.size(); ++i) {
    std::size_t slot = records_[i].hash & mask;
    while (slots_[slot].record != 0) slot = (slot + 1) & mask;
    slots_[slot] = Slot{static_cast<std::uint32_t>(records_[i].hash >> 32), static_cast<std::uint32_t>(i + 1)};
  }
}

}  // namespace gdmap::detail
