#include <gdmap/internal/metadata_heaps.hpp>

#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/rules.hpp>

#include <string>

namespace gdmap::metadata {
namespace {

Error heapError(std::size_t at, const char* heap, std::uint32_t index, std::string message) {
  return Error(at, OffsetUnit::Byte, std::string(heap) + "[" + std::to_string(index) + "]", std::move(message),
               rules::kInvalidMetadata);
}

}  // namespace

Expected<ByteSpan> blobAt(const Stream& heap, std::uint32_t index) {
  ByteCursor in(heap.bytes, heap.offset, rules::kInvalidMetadata);
  if (!in.seek(index) || in.atEnd())
    return heapError(heap.offset + heap.bytes.size(), "#Blob", index, "outside the heap");
  const std::uint32_t length = in.compressedUInt();
  if (!in.ok()) return heapError(in.error().offset, "#Blob", index, "the blob's length: " + in.error().message);
  const ByteSpan blob = in.take(length);
  if (!in.ok()) return heapError(in.error().offset, "#Blob", index, "blob runs past the end of the heap");
  return blob;
}

Expected<std::string> stringAt(const Stream& heap, std::uint32_t index) {
  if (index >= heap.bytes.size())
    return heapError(heap.offset + heap.bytes.size(), "#Strings", index, "outside the heap");
  std::string out;
  for (std::size_t i = index; i < heap.bytes.size(); ++i) {
    if (heap.bytes[i] == 0) return out;
    out.push_back(static_cast<char>(heap.bytes[i]));
  }
  return heapError(heap.offset + index, "#Strings", index, "no terminating NUL");
}

Expected<ByteSpan> guidAt(const Stream& heap, std::uint32_t index) {
  constexpr std::size_t kGuidSize = 16;
  if (index == 0) return ByteSpan{};
  if (index > heap.bytes.size() / kGuidSize)
    return heapError(heap.offset + heap.bytes.size(), "#GUID", index,
                     "outside the heap (" + std::to_string(heap.bytes.size() / kGuidSize) + " GUIDs)");
  return heap.bytes.subspan((std::size_t{index} - 1) * kGuidSize, kGuidSize);
}

}  // namespace gdmap::metadata
