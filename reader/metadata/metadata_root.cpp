#include <gdmap/metadata/pe_image.hpp>

#include <gdmap/metadata/metadata_error.hpp>
#include <gdmap/reader/pe_image.hpp>

#include <string>

namespace gdmap::metadata {
namespace {

// The PE reader's located error, as this library reports a malformed file.
[[noreturn]] void raise(const Error& e) {
  throw MetadataError("PE image at offset " + std::to_string(e.offset) + ": " + e.message);
}

}  // namespace

ByteSpan findMetadataRoot(ByteSpan file) {
  Expected<pe::PeImage> image = pe::PeImage::open(file);
  if (!image) raise(image.error());
  Expected<pe::CliHeader> cli = image->cliHeader();
  if (!cli) raise(cli.error());
  Expected<ByteSpan> root = image->range(cli->metadata, cli->offset + 8, "metadata");
  if (!root) raise(root.error());
  return *root;
}

}  // namespace gdmap::metadata
