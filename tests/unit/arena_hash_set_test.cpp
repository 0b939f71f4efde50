// ArenaHashSet: probing past colliding keys, and growth that keeps every
// key findable (both ways of growing).
#include <gdmap/internal/arena_hash_set.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using gdmap::detail::ArenaHashSet;

namespace {

struct Slot {
  std::uint32_t tag = 0;
  std::uint32_t key = 0;  // 0 empty, else the key's index + 1
  bool used() const { return key != 0; }
};

// A set of strings over one vector of keys, hashed by `hashOf`: every
// collision a test wants is a hash function away.
template <class Hash>
class StringSet {
 public:
  explicit StringSet(Hash hash, bool regrow) : hash_(hash), regrow_(regrow) {}

  // The key's index, or -1.
  long find(std::string_view key) const {
    if (slots_.empty()) return -1;
    const Slot& s = slots_[slots_.slotOf(hash_(key), equalTo(key))];
    return s.used() ? static_cast<long>(s.key) - 1 : -1;
  }
  // False when `key` is already there.
  bool add(std::string_view key) {
    if (slots_.fullFor(keys_.size())) grow();
    const std::uint64_t hash = hash_(key);
    Slot& s = slots_[slots_.slotOf(hash, equalTo(key))];
    if (s.used()) return false;
    keys_.emplace_back(key);
    s = Slot{slots_.tagOf(hash), static_cast<std::uint32_t>(keys_.size())};
    return true;
  }
  std::size_t capacity() const { return slots_.capacity(); }

 private:
  auto equalTo(std::string_view key) const {
    return [this, key](const Slot& s) { return keys_[s.key - 1] == key; };
  }
  void grow() {
    if (!regrow_) {
      slots_.grow(4, [this](const Slot& s) { return hash_(keys_[s.key - 1]); });
      return;
    }
    slots_.regrow(4, [this](auto place) {
      for (std::size_t i = 0; i < keys_.size(); ++i)
        place(hash_(keys_[i]), Slot{slots_.tagOf(hash_(keys_[i])), static_cast<std::uint32_t>(i + 1)});
    });
  }

  Hash hash_;
  bool regrow_;
  std::vector<std::string> keys_;
  ArenaHashSet<Slot> slots_;
};

std::string keyOf(int i) {
  std::string key = "k";
  key += std::to_string(i);
  return key;
}

// A hash that spreads keys: the FNV-1a of their bytes.
std::uint64_t fnv(std::string_view key) {
  std::uint64_t hash = 1469598103934665603u;
  for (const char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211u;
  return hash;
}

template <class Hash>
void checkKeys(StringSet<Hash>& set, int count) {
  for (int i = 0; i < count; ++i) REQUIRE(set.add(keyOf(i)));
  for (int i = 0; i < count; ++i) CHECK(set.find(keyOf(i)) == i);
  CHECK(set.find(keyOf(count)) == -1);
  // A key given twice keeps its first index.
  CHECK_FALSE(set.add(keyOf(count / 2)));
  CHECK(set.find(keyOf(count / 2)) == count / 2);
  // Never more than half full.
  CHECK(set.capacity() >= 2 * static_cast<std::size_t>(count));
}

}  // namespace

TEST_CASE("arena hash set: keys keep their index through growth, both ways of growing") {
  for (const bool regrow : {false, true}) {
    CAPTURE(regrow);
    StringSet set(fnv, regrow);
    CHECK(set.find("k0") == -1);  // an empty set has no table yet
    checkKeys(set, 5000);
  }
}

TEST_CASE("arena hash set: keys whose hashes collide entirely are told apart by their bytes") {
  // Same slot and same tag for every key: each lookup probes past the others.
  const auto same = [](std::string_view) { return std::uint64_t{0x1234567800000007}; };
  for (const bool regrow : {false, true}) {
    CAPTURE(regrow);
    StringSet set(same, regrow);
    checkKeys(set, 300);
  }
}

TEST_CASE("arena hash set: keys sharing a slot but not a tag are told apart without comparing bytes") {
  // The low half (the slot) alike, the high half (the tag) different: the
  // comparison is asked only about keys with the probe's tag.
  int comparisons = 0;
  ArenaHashSet<Slot> slots;
  slots.grow(8, [](const Slot&) { return std::uint64_t{0}; });  // the first table: nothing to put back
  const auto hashOf = [](std::uint32_t i) { return (std::uint64_t{i} << 32) | 3u; };
  for (std::uint32_t i = 1; i <= 3; ++i) {
    const std::size_t slot = slots.slotOf(hashOf(i), [&](const Slot&) { return ++comparisons, true; });
    REQUIRE_FALSE(slots[slot].used());
    slots[slot] = Slot{slots.tagOf(hashOf(i)), i};
  }
  CHECK(comparisons == 0);
  const std::size_t found = slots.slotOf(hashOf(3), [&](const Slot& s) { return ++comparisons, s.key == 3; });
  CHECK(slots[found].key == 3);
  CHECK(comparisons == 1);
}
