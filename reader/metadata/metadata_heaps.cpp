#include <gdmap/metadata/metadata_heaps.hpp>

#include <gdmap/metadata/metadata_error.hpp>
#include <gdmap/schema/byte_cursor.hpp>

#include <string>

namespace gdmap::metadata {

ByteSpan blobAt(ByteSpan heap, std::uint32_t index) {
  const auto fail = [index](const std::string& why) {
    throw MetadataError("#Blob heap offset " + std::to_string(index) + ": " + why);
  };
  ByteCursor in(heap);
  if (!in.seek(index) || in.atEnd()) fail("outside the heap");
  const std::uint32_t length = in.compressedUInt();
  if (!in.ok()) fail("the blob's length: " + in.error().message);
  const ByteSpan blob = in.take(length);
  if (!in.ok()) fail("blob runs past the end of the heap");
  return blob;
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
