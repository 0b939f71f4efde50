#pragma once
// The metadata root (ECMA-335 II.24.2.1) and its stream headers
// (II.24.2.2): which bytes are the tables and which are each heap.
#include <gdmap/schema/bytes.hpp>

namespace gdmap::metadata {

struct MetadataStreams {
  ByteSpan tables;   // "#~" (compressed) or "#-" (uncompressed, edit-and-continue)
  ByteSpan blobs;    // "#Blob"; empty when the stream is absent
  ByteSpan strings;  // "#Strings"; empty when the stream is absent
};

// Throws MetadataError on a malformed root, a stream outside the metadata,
// or a missing table stream.
MetadataStreams readStreams(ByteSpan root);

}  // namespace gdmap::metadata
