#include "metadata_root.hpp"

#include <gdmap/reader/pe_image.hpp>

namespace gdmap::metadata {

Expected<ByteSpan> findMetadataRoot(ByteSpan file) {
  Expected<pe::PeImage> image = pe::PeImage::open(file);
  if (!image) return image.error();
  Expected<pe::CliHeader> cli = image->cliHeader();
  if (!cli) return cli.error();
  return image->range(cli->metadata, cli->offset + 8, "metadata");
}

}  // namespace gdmap::metadata
