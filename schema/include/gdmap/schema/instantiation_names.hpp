#pragma once
// The names a dump gives shared instantiations: derived from the item's
// bytes, so that a name stays the same when unrelated dictionaries are added
// or removed and two dumps diff quietly. `i` and 12 hex digits of a fixed
// (unseeded: the same on every run and machine) 64-bit hash of the item;
// should two different items of one map meet on those 48 bits, the later in
// heap order gets `_2`, `_3`, ... appended.
#include <gdmap/schema/bytes.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>

namespace gdmap {

class InstantiationNamer {
 public:
  // The name of the next shared item, items being named in heap order.
  std::string next(ByteSpan item);

 private:
  std::unordered_map<std::uint64_t, std::uint32_t> seen_;  // 48-bit name -> items so named
};

}  // namespace gdmap
