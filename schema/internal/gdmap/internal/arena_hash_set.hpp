#pragma once
// The table behind gdmap's sets of byte strings (the writer's heap items,
// the description's instantiation names and type cache). Each owner keeps
// its keys in one arena of its own; the table holds only small slots that
// point into it, so a lookup touches one slot and, when the tags agree, one
// place in the arena: no node, string or vector per key (a hash map of
// strings touches a bucket, a node and often a heap string, each a cache
// miss once the keys outgrow the cache).
//
// Open addressing with linear probing over a power-of-two array kept at
// most half full. A slot carries the hash's high half (its tag), so a probe
// that meets another key is told so without reading that key. What a slot
// holds besides, how a key compares and how the table grows are the
// owner's: Slot has a `std::uint32_t tag` and a `bool used() const`, and a
// value-initialised Slot is unused.
#include <gdmap/internal/huge_pages.hpp>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gdmap::detail {

template <class Slot>
class ArenaHashSet {
 public:
  static std::uint32_t tagOf(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

  bool empty() const { return slots_.empty(); }
  std::size_t capacity() const { return slots_.size(); }
  // Whether a set holding `keys` keys must grow before it takes one more.
  bool fullFor(std::size_t keys) const { return (keys + 1) * 2 > slots_.size(); }

  // The slot whose key `equals(slot)` accepts, or the unused slot where the
  // key would go. `equals` is asked only about used slots tagged like
  // `hash`. The table must not be empty.
  template <class Equals>
  std::size_t slotOf(std::uint64_t hash, Equals&& equals) const {
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t tag = tagOf(hash);
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const Slot& s = slots_[slot];
      if (!s.used()) return slot;
      if (s.tag == tag && equals(s)) return slot;
    }
  }

  // Asks for the slot a lookup of `hash` reads first, ahead of the lookup.
  void prefetch(std::uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & (slots_.size() - 1)]);
  }
  // The first slot of a lookup of `hash` tagged like it (the key it likely
  // holds), else null: for a second prefetch, of what that slot points to,
  // once the first has arrived. The probe walks on from the first slot
  // read, as the lookup will: a quarter of the keys of a half-full table
  // are not in their first slot, and their neighbours are in the line
  // already fetched.
  const Slot* likelySlot(std::uint64_t hash) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    const std::uint32_t tag = tagOf(hash);
    for (std::size_t slot = hash & mask;; slot = (slot + 1) & mask) {
      const Slot& s = slots_[slot];
      if (!s.used()) return nullptr;
      if (s.tag == tag) return &s;
    }
  }

  Slot& operator[](std::size_t slot) { return slots_[slot]; }
  const Slot& operator[](std::size_t slot) const { return slots_[slot]; }

  // Doubles the table (the first has `firstSize` slots) and puts each used
  // slot back where `hashOf(slot)` says: the old table is read while the
  // new one fills, so both are held at once.
  template <class HashOf>
  void grow(std::size_t firstSize, HashOf&& hashOf) {
    HugePageVector<Slot> old = std::move(slots_);
    allocate(old.empty() ? firstSize : old.size() * 2);
    for (const Slot& s : old)
      if (s.used()) place(hashOf(s), s);
  }

  // Doubles the table like grow(), but for a table too large to hold twice:
  // the old one is freed first (no copy, no two tables at once), the new one
  // asked for huge pages, and the owner, which keeps each key's hash, puts
  // its keys back: `refill(place)` calls `place(hash, slot)` once per key.
  template <class Refill>
  void regrow(std::size_t firstSize, Refill&& refill) {
    const std::size_t size = slots_.empty() ? firstSize : slots_.size() * 2;
    slots_ = HugePageVector<Slot>();
    allocate(size);
    refill([this](std::uint64_t hash, const Slot& s) { place(hash, s); });
  }

 private:
  // An empty table of `size` slots. A large one is in huge pages: its
  // probes land anywhere in it, and with 4 KiB pages each would also miss
  // the TLB (a page walk per lookup, prefetched or not).
  void allocate(std::size_t size) { slots_.assign(size, Slot{}); }

  // Puts `s` in the first unused slot from `hash` on (a key not yet held).
  void place(std::uint64_t hash, const Slot& s) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t slot = hash & mask;
    while (slots_[slot].used()) slot = (slot + 1) & mask;
    slots_[slot] = s;
  }

  HugePageVector<Slot> slots_;  // a power of two
};

}  // namespace gdmap::detail
