#include <gdmap/metadata/metadata_heaps.hpp>

#include <gdmap/metadata/metadata_error.hpp>

#include <string>

namespace gdmap::metadata {

ByteSpan blobAt(ByteSpan heap, std::uint32_t index) {
  const auto fail = [index](const char* why) -> ByteSpan {
    throw MetadataError("#Blob heap offset " + std::to_string(index) + ": " + why);
  };
  if (index >= heap.size()) return fail("outside the heap");
  const std::size_t left = heap.size() - index;
  const std::uint8_t lead = heap[index];
  std::size_t prefix = 0;
  std::uint32_t length = 0;
  if ((lead & 0x80) == 0) {
    prefix = 1;
    length = lead;
  } else if ((lead & 0xC0) == 0x80) {
    if (left < 2) return fail("truncated length");
    prefix = 2;
    length = (std::uint32_t{lead & 0x3Fu} << 8) | heap[index + 1];
  } else if ((lead & 0xE0) == 0xC0) {
    if (left < 4) return fail("truncated length");
    prefix = 4;
    length = (std::uint32_t{lead & 0x1Fu} << 24) | (std::uint32_t{heap[index + 1]} << 16) |
             (std::uint32_t{heap[index + 2]} << 8) | heap[index + 3];
  } else {
    return fail("invalid length lead byte");
  }
  if (length > left - prefix) return fail("blob runs past the end of the heap");
  return heap.subspan(index + prefix, length);
}

std::string stringAt(ByteSpan heap, std::uint32_t index) {
  if (index >= heap.size()) {
    throw MetadataError("#Strings heap offset " + std::to_string(index) + ": outside the heap");
  }
  std::string out;
  for (std::size_t i = index; i < heap.size(); ++i) {
    if (heap[i] == 0) return out;
    out.push_back(static_cast<char>(heap[i]));
  }
  throw MetadataError("#Strings heap offset " + std::to_string(index) + ": no terminating NUL");
}

}  // namespace gdmap::metadata
