#pragma once
// A recorded target: the bytes a reader of a running runtime read from a
// process, kept so that tests (and the fuzz target runtime_code) read the
// same runtime again without the process, the runtime or a core dump.
//
//   "GDMAPTGT" (8 bytes), u64 the contract descriptor's address,
//   then records to the end: u64 address, u32 size, `size` bytes.
//
// All little-endian. A read is answered from one record (the bytes of a
// read never straddle two: the recorder keeps each read whole, and merges
// neighbours). Parsing checks every size against what is left.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>

namespace gdmap::testing {

class TargetRecords {
 public:
  static constexpr char kMagic[9] = "GDMAPTGT";

  std::uint64_t descriptor = 0;
  std::map<std::uint64_t, Bytes> ranges;  // by start; disjoint

  static std::optional<TargetRecords> parse(ByteSpan bytes) {
    if (bytes.size() < 16 || std::memcmp(bytes.data(), kMagic, 8) != 0) return std::nullopt;
    TargetRecords t;
    t.descriptor = le(bytes.data() + 8, 8);
    for (std::size_t at = 16; at < bytes.size();) {
      if (bytes.size() - at < 12) return std::nullopt;
      const std::uint64_t address = le(bytes.data() + at, 8);
      const std::uint64_t size = le(bytes.data() + at + 8, 4);
      at += 12;
      if (size > bytes.size() - at) return std::nullopt;
      t.add(address, ByteSpan(bytes.data() + at, static_cast<std::size_t>(size)));
      at += static_cast<std::size_t>(size);
    }
    return t;
  }

  Bytes serialize() const {
    Bytes out(kMagic, kMagic + 8);
    put(out, descriptor, 8);
    for (const auto& [address, bytes] : ranges) {
      put(out, address, 8);
      put(out, bytes.size(), 4);
      out.insert(out.end(), bytes.begin(), bytes.end());
    }
    return out;
  }

  // Keeps `bytes` at `address`, joined with the records it touches.
  void add(std::uint64_t address, ByteSpan bytes) {
    if (bytes.empty() || address + bytes.size() < address) return;
    std::uint64_t start = address;
    std::uint64_t end = address + bytes.size();
    auto it = ranges.upper_bound(address);
    if (it != ranges.begin() && std::prev(it)->first + std::prev(it)->second.size() >= address) --it;
    Bytes merged;
    while (it != ranges.end() && it->first <= end) {
      start = std::min(start, it->first);
      end = std::max<std::uint64_t>(end, it->first + it->second.size());
      auto old = *it;
      it = ranges.erase(it);
      keep(start, end, old.first, old.second, merged);
    }
    keep(start, end, address, Bytes(bytes.begin(), bytes.end()), merged);
    ranges[start] = std::move(merged);
  }

  // What a CallbackMemory reader answers: the bytes of the record holding
  // `address`, as many as it has.
  std::size_t read(std::uint64_t address, MutableByteSpan out) const {
    auto it = ranges.upper_bound(address);
    if (it == ranges.begin()) return 0;
    --it;
    const std::uint64_t in = address - it->first;
    if (in >= it->second.size()) return 0;
    const std::size_t n = std::min<std::size_t>(out.size(), it->second.size() - static_cast<std::size_t>(in));
    std::memcpy(out.data(), it->second.data() + in, n);
    return n;
  }

  // A recording's file, read whole and parsed (nothing: no such file, or
  // not a recording).
  static std::optional<TargetRecords> load(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse(ByteSpan(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  }

  CallbackMemory target(std::string name) const {
    return CallbackMemory([this](std::uint64_t a, MutableByteSpan out) { return read(a, out); }, std::move(name));
  }

 private:
  static std::uint64_t le(const std::uint8_t* p, unsigned width) {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= std::uint64_t{p[i]} << (8 * i);
    return v;
  }
  static void put(Bytes& out, std::uint64_t v, unsigned width) {
    for (unsigned i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  // Writes `bytes` (at `at`) into `merged`, which covers [start, end).
  static void keep(std::uint64_t start, std::uint64_t end, std::uint64_t at, const Bytes& bytes, Bytes& merged) {
    if (merged.size() < end - start) merged.resize(static_cast<std::size_t>(end - start));
    std::copy(bytes.begin(), bytes.end(), merged.begin() + static_cast<std::ptrdiff_t>(at - start));
  }
};

}  // namespace gdmap::testing
