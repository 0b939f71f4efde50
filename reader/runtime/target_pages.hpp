#pragma once
// Reads of a target through a page cache: the runtime's structures are
// small and close together (a code header, its MethodDesc, its debug info),
// and a live process answers each read with a system call, so whole pages
// are read once and kept. A page the target cannot give whole is never
// cached: the read goes to the target as asked, and its error (the first
// address missing) is the target's own.
//
// Every typed read names what it read in its error ("RangeSection.HeapList
// of range section 0x..."), so that a hostile or partial target says where
// and what, never only "short read".
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/target_memory.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

namespace gdmap::runtime {

class TargetPages {
 public:
  explicit TargetPages(const TargetMemory& target) : target_(&target) {}

  const TargetMemory& target() const { return *target_; }

  // The bytes at `address`, whole, or the target's error with `what` in
  // front of its message.
  Status read(std::uint64_t address, MutableByteSpan out, const std::string& what) const;

  // As many bytes as the target holds contiguously from `address`, up to
  // out.size(): how a blob of unknown length is read near the end of a
  // mapping. Returns the count (0: not even the first byte).
  std::size_t readSome(std::uint64_t address, MutableByteSpan out) const;

  Expected<std::uint64_t> u64(std::uint64_t address, const std::string& what) const;
  Expected<std::uint32_t> u32(std::uint64_t address, const std::string& what) const;
  Expected<std::uint16_t> u16(std::uint64_t address, const std::string& what) const;
  Expected<std::uint8_t> u8(std::uint64_t address, const std::string& what) const;

 private:
  static constexpr std::uint64_t kPageSize = 4096;
  // About 64 MiB: past it the cache starts over (a process with more
  // runtime data than that is read correctly, only with more reads).
  static constexpr std::size_t kMaxPages = 16384;
  using Page = std::array<std::uint8_t, kPageSize>;
  // The page at `pageAddress`, or null when the target cannot give it whole.
  const Page* page(std::uint64_t pageAddress) const;

  const TargetMemory* target_;
  mutable std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
  mutable std::unordered_map<std::uint64_t, bool> missing_;  // pages the target could not give whole
};

}  // namespace gdmap::runtime
