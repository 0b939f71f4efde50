#pragma once
// A standalone portable PDB (Portable PDB v1.0, dotnet/runtime
// docs/design/specs/PortablePdb-Metadata.md): its id, its documents, each
// method's sequence points, and the source line a .NET stack trace prints
// for an IL offset of a method. Zero-copy over the caller's bytes; no
// count or index of the file is trusted, and every problem is an Error at
// its byte offset in the PDB with the structure as its path
// ("MethodDebugInformation[12].SequencePoints[3].deltaLines", rows
// 1-based, points 0-based).
#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::pdb {

// One sequence point of a method, as System.Reflection.Metadata gives it.
struct SequencePoint {
  std::uint32_t ilOffset = 0;
  std::uint32_t document = 0;  // Document row, 1-based
  std::uint32_t startLine = 0, endLine = 0;
  std::uint16_t startColumn = 0, endColumn = 0;
  // A hidden point: lines 0xFEEFEE, columns 0 (no source for its IL).
  bool hidden() const { return startLine == 0xFEEFEE; }
};

// The source of an IL offset: the document's name and the start (line,
// column) and end of the sequence point chosen.
struct SourceLine {
  std::string document;
  std::uint32_t line = 0;
  std::uint16_t column = 0;
  std::uint32_t endLine = 0;
  std::uint16_t endColumn = 0;
  std::uint32_t pointIlOffset = 0;  // the IL offset of the sequence point chosen
};

class PortablePdb {
 public:
  // The PDB in `bytes`, which the caller keeps alive (and unchanged) as
  // long as the PortablePdb or a copy of it is used. pdb-not-portable for a
  // Windows PDB (MSF), or bytes that are no metadata or no standalone PDB's
  // (no #Pdb stream); pdb-invalid for a metadata root, stream, #Pdb stream
  // or table stream that is malformed, or a MethodDebugInformation table
  // whose rows are neither none nor one per MethodDef.
  static Expected<PortablePdb> open(ByteSpan bytes);

  const PdbId& id() const;

  std::uint32_t documentCount() const;
  // The name of Document row `row` (1-based): its name blob's parts joined
  // by its separator. Decoded once, then cached. pdb-invalid for a row the
  // table does not have, a nil name, a blob or part outside the #Blob heap,
  // no part, a separator that is no UTF-8 character, or a name over 64 KiB.
  Expected<std::string> documentName(std::uint32_t row) const;

  // MethodDebugInformation rows (0, or one per MethodDef row).
  std::uint32_t methodCount() const;
  // The sequence points of MethodDef row `methodRow` (1-based), in IL
  // order; none for a method without them or a row the table does not
  // have. pdb-invalid, located at the byte of the blob, for a record that
  // breaks the specification's rules: a truncated or malformed compressed
  // integer, a document row that is 0 or not in the Document table, an IL
  // offset of 2^29 or more, lines of 2^29 or more or 0xFEEFEE, columns of
  // 2^16 or more, an end before the start.
  Expected<std::vector<SequencePoint>> sequencePoints(std::uint32_t methodRow) const;

  // The line a .NET stack trace prints for IL offset `ilOffset` of MethodDef
  // row `methodRow`: System.Diagnostics.StackTrace's rule (StackTraceSymbols
  // .GetSourceLineInfo) walks the points in order, stops at the first whose
  // IL offset is past `ilOffset`, and keeps the last non-hidden one seen.
  // nullopt when there is none (the method has no points, or only hidden
  // ones up to `ilOffset`). Errors as sequencePoints() and documentName()
  // give them: the whole method's points are checked, also those after
  // the one chosen. Decoded points and names are cached, within a bound,
  // so repeated lookups cost a hash lookup and a binary search.
  Expected<std::optional<SourceLine>> lineAt(std::uint32_t methodRow, std::uint32_t ilOffset) const;

  // lineAt's point for each of `ilOffsets` of one method, in one call (the
  // document as a row: documentName names it): what `il extract --lines`
  // asks for every bound of a method at once, without a name copied per
  // offset; the method's points are decoded for the call and not kept in
  // the cache (a method asked for once). Errors as lineAt.
  Expected<std::vector<std::optional<SequencePoint>>> stackTracePoints(
      std::uint32_t methodRow, const std::vector<std::uint32_t>& ilOffsets) const;

 private:
  // The tables and the caches; every member function is safe to call from
  // several threads at once (the caches are behind a lock), and copies
  // share them.
  struct State;
  explicit PortablePdb(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

}  // namespace gdmap::pdb
