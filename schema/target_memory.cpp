#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/target_memory.hpp>

namespace gdmap {

Status CallbackMemory::read(std::uint64_t address, MutableByteSpan out) const {
  if (out.size() > ~std::uint64_t{0} - address) {
    return Error(static_cast<std::size_t>(address),
                 describe() + ": " + std::to_string(out.size()) + " bytes at " + shortHex(address) +
                     " run past the end of the address space",
                 rules::kTargetUnreadable);
  }
  if (out.empty()) return Success{};  // nothing to read: the caller's reader is not asked (nor given a null span)
  const std::size_t got = reader_ ? reader_(address, out) : 0;
  if (got < out.size()) {
    return Error(static_cast<std::size_t>(address + got),
                 describe() + ": cannot read " + std::to_string(out.size() - got) + " bytes at " +
                     shortHex(address + got) + " (asked for " + std::to_string(out.size()) + " at " +
                     shortHex(address) + ")",
                 rules::kTargetUnreadable);
  }
  return Success{};
}

Status LayeredMemory::read(std::uint64_t address, MutableByteSpan out) const {
  Status first = first_->read(address, out);
  if (first) return first;
  for (const TargetRegion& r : second_->regions()) {
    if (address >= r.start && address < r.end && out.size() <= r.end - address) {
      if (Status second = second_->read(address, out)) return second;
      break;
    }
  }
  return first;
}

Expected<std::uint64_t> readTargetUnsigned(const TargetMemory& target, std::uint64_t address, unsigned width) {
  std::uint8_t bytes[8] = {};
  if (width != 1 && width != 2 && width != 4 && width != 8) {
    return Error(static_cast<std::size_t>(address), "internal: an integer of " + std::to_string(width) + " bytes",
                 rules::kTargetUnreadable);
  }
  if (Status read = target.read(address, MutableByteSpan(bytes, width)); !read) return read.error();
  ByteCursor in(ByteSpan(bytes, width));
  switch (width) {
    case 1: return in.u8();
    case 2: return in.u16();
    case 4: return in.u32();
    default: return in.u64();
  }
}

}  // namespace gdmap
