#include "document_name_blob.hpp"

#include "pdb_errors.hpp"

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/schema/byte_cursor.hpp>
#include <gdmap/schema/rules.hpp>

#include <string>

namespace gdmap::pdb {
namespace {

// The length of the UTF-8 character `bytes` starts with; 0 when they start
// with none (a continuation byte, an over-long or out-of-range lead, a
// missing continuation byte).
std::size_t utf8CharacterLength(ByteSpan bytes) {
  const std::uint8_t lead = bytes[0];
  const std::size_t length = lead < 0x80                    ? 1
                             : lead >= 0xC2 && lead <= 0xDF ? 2
                             : lead >= 0xE0 && lead <= 0xEF ? 3
                             : lead >= 0xF0 && lead <= 0xF4 ? 4
                                                            : 0;
  if (length == 0 || length > bytes.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((bytes[i] & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

Expected<std::string> decodeDocumentName(const metadata::Stream& blobs, std::uint32_t nameIndex, std::uint32_t row,
                                         std::size_t nameAt) {
  const std::string path = "Document[" + std::to_string(row) + "].Name";
  if (nameIndex == 0) return pdbInvalid(nameAt, path, "the name is nil (an empty name is a blob of its own)");
  const Expected<ByteSpan> blob = metadata::blobAt(blobs, nameIndex);
  if (!blob) return asPdbInvalid(blob.error(), path);
  const std::size_t blobAt = blobs.offset + static_cast<std::size_t>(blob->data() - blobs.bytes.data());
  if (blob->empty()) return pdbInvalid(blobAt, path, "the name blob is empty: it has no separator");
  const std::size_t separatorLength = (*blob)[0] == 0 ? 1 : utf8CharacterLength(*blob);
  if (separatorLength == 0) return pdbInvalid(blobAt, path, "the separator is no UTF-8 character");
  const ByteSpan separator = (*blob)[0] == 0 ? ByteSpan{} : blob->first(separatorLength);
  ByteCursor in(blob->subspan(separatorLength), blobAt + separatorLength, rules::kPdbInvalid);
  if (in.atEnd()) return pdbInvalid(in.offset(), path, "the name has no part");
  const auto partPath = [&](std::size_t part) { return path + ".parts[" + std::to_string(part) + "]"; };
  std::string name;
  for (std::size_t part = 0; !in.atEnd(); ++part) {
    const std::size_t at = in.offset();
    const std::uint32_t index = in.compressedUInt();
    if (!in.ok()) return asPdbInvalid(in.takeError(), partPath(part));
    if (part > 0) name.append(separator.begin(), separator.end());
    if (index != 0) {
      const Expected<ByteSpan> text = metadata::blobAt(blobs, index);
      if (!text) return asPdbInvalid(text.error(), partPath(part));
      if (text->size() > kMaxDocumentName) return pdbInvalid(at, partPath(part), "the part is over 64 KiB");
      name.append(text->begin(), text->end());
    }
    if (name.size() > kMaxDocumentName) return pdbInvalid(at, path, "the name is over 64 KiB");
  }
  return name;
}

}  // namespace gdmap::pdb
