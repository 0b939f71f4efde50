#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/schema/rules.hpp>

#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>

namespace gdmap::pdb {
namespace {

// A PDB inflated past this is taken for a hostile image (the largest
// portable PDBs of the framework are a few tens of MB).
constexpr std::uint64_t kMaxEmbeddedSize = std::uint64_t{256} << 20;
// Raw deflate makes at most 258 bytes of 2 bits (a length-258 match of a
// one-bit code and a one-bit distance code): about 1032 bytes a byte.
constexpr std::uint64_t kMaxDeflateRatio = 1032;
// Where the deflate bytes start in the entry's data: after "MPDB" and the size.
constexpr std::size_t kDeflateStart = 8;

Error embeddedError(const DebugDirectory& d, std::size_t deflateOffset, std::string message) {
  return Error(static_cast<std::size_t>(d.embeddedOffset) + kDeflateStart + deflateOffset, OffsetUnit::Byte,
               "embedded PDB", std::move(message), rules::kPdbEmbeddedInvalid);
}

}  // namespace

Expected<std::vector<std::uint8_t>> inflateEmbeddedPdb(const DebugDirectory& directory) {
  if (!directory.hasEmbeddedPdb)
    return Error(0, "the image embeds no portable PDB (no EmbeddedPortablePdb debug directory entry)",
                 rules::kPdbNotFound);
  const std::uint64_t size = directory.embeddedSize;
  const ByteSpan in = directory.embeddedDeflate;
  if (size > kMaxEmbeddedSize)
    return embeddedError(directory, 0, "declares " + std::to_string(size) + " bytes, over the 256 MiB gdmap reads");
  if (size > (in.size() + 1) * kMaxDeflateRatio)
    return embeddedError(directory, 0,
                         "declares " + std::to_string(size) + " bytes, more than raw deflate can make of " +
                             std::to_string(in.size()) + " bytes");
  std::vector<std::uint8_t> out(static_cast<std::size_t>(size));
  std::uint8_t spill = 0;  // a byte past the declared size would land here
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return embeddedError(directory, 0, "zlib cannot start inflating");
  z.next_in = const_cast<Bytef*>(in.data());  // zlib's API is not const-correct; it only reads
  z.avail_in = static_cast<uInt>(std::min<std::size_t>(in.size(), std::numeric_limits<uInt>::max()));
  z.next_out = out.empty() ? &spill : out.data();
  z.avail_out = out.empty() ? 1 : static_cast<uInt>(out.size());
  int status = Z_OK;
  bool spilled = out.empty();
  while (status == Z_OK) {
    if (z.avail_out == 0) {
      if (spilled) break;
      z.next_out = &spill;  // the declared size is reached: is there more?
      z.avail_out = 1;
      spilled = true;
    }
    status = inflate(&z, Z_NO_FLUSH);
    if (status == Z_BUF_ERROR && z.avail_in == 0) break;  // the input ended inside the stream
  }
  const std::size_t consumed = static_cast<std::size_t>(z.total_in);
  const std::uint64_t produced = z.total_out;
  const std::string zlibMessage = z.msg != nullptr ? z.msg : "zlib error " + std::to_string(status);
  inflateEnd(&z);
  if (status == Z_DATA_ERROR || status == Z_NEED_DICT || status == Z_MEM_ERROR)
    return embeddedError(directory, consumed, "no raw deflate stream: " + zlibMessage);
  if (produced > size)
    return embeddedError(directory, consumed, "inflates to more than the " + std::to_string(size) + " bytes declared");
  if (status != Z_STREAM_END)
    return embeddedError(directory, consumed,
                         "the deflate stream is cut short after " + std::to_string(produced) + " bytes");
  if (produced != size)
    return embeddedError(directory, consumed,
                         "inflates to " + std::to_string(produced) + " bytes, " + std::to_string(size) + " declared");
  return out;
}

}  // namespace gdmap::pdb
