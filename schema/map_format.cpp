// The map's field paths: built by appending, one allocation each in practice.
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>

namespace gdmap {

void appendU32(Bytes& out, std::uint32_t value) {
  std::uint8_t bytes[4];
  writeU32(bytes, value);
  out.insert(out.end(), bytes, bytes + 4);
}

std::string directoryEntryPath(std::uint64_t index) {
  std::string out = "directory[";
  out += std::to_string(index);
  out += ']';
  return out;
}

std::string directoryRvaPath(std::uint64_t index) { return directoryEntryPath(index) + ".rva"; }

std::string directoryOffsetPath(std::uint64_t index) { return directoryEntryPath(index) + ".offset"; }

std::string heapPath(std::uint64_t heapOffset) {
  std::string out = "heap@";
  appendShortHex(heapOffset, out);
  return out;
}

std::string itemLengthPath(std::uint64_t heapOffset) { return heapPath(heapOffset) + ".length"; }

std::string itemCountPath(std::uint64_t heapOffset) { return heapPath(heapOffset) + ".count"; }

void appendTypeIndexPath(std::uint64_t index, std::string& out) {
  out += ".type[";
  out += std::to_string(index);
  out += ']';
}

std::string typeIndexPath(std::uint64_t index) {
  std::string out;
  appendTypeIndexPath(index, out);
  return out;
}

}  // namespace gdmap
