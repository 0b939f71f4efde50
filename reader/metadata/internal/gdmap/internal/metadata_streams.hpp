#pragma once
// The metadata root (ECMA-335 II.24.2.1) and its stream headers
// (II.24.2.2): which bytes are the tables and which are each heap; in a
// standalone portable PDB also the #Pdb stream (Portable PDB v1.0).
// Shared with gdmap's portable PDB reader (reader/pdb); never installed.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstddef>

namespace gdmap::metadata {

// A stream's bytes and their offset in the file, so that what is read from
// it can be located in the file.
struct Stream {
  ByteSpan bytes;
  std::size_t offset = 0;
};

struct MetadataStreams {
  Stream tables;   // "#~" (compressed) or "#-" (uncompressed, edit-and-continue)
  Stream blobs;    // "#Blob"; empty when the stream is absent
  Stream strings;  // "#Strings"; empty when the stream is absent
  Stream guids;    // "#GUID"; empty when the stream is absent
  Stream pdb;      // "#Pdb" (a standalone portable PDB's); see hasPdb
  bool hasPdb = false;
};

// The streams of the metadata root `root`, which starts at file offset
// `rootOffset`; an invalid-metadata error at its file offset when the root is
// malformed, a stream lies outside the metadata, or there is no table
// stream.
Expected<MetadataStreams> readStreams(ByteSpan root, std::size_t rootOffset);

}  // namespace gdmap::metadata
