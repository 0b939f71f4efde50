#include <gdmap/pdb/portable_pdb.hpp>

#include "document_name_blob.hpp"
#include "pdb_caches.hpp"
#include "pdb_errors.hpp"
#include "sequence_points_blob.hpp"
#include "stack_trace_point.hpp"

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_pdb_stream.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <mutex>
#include <string_view>
#include <utility>

namespace gdmap::pdb {
namespace {

using metadata::table::kDocument;
using metadata::table::kMethodDebugInformation;
constexpr std::size_t kDocumentNameColumn = 0;
constexpr std::size_t kMethodDocumentColumn = 0;
constexpr std::size_t kSequencePointsColumn = 1;

bool startsWith(ByteSpan bytes, std::string_view prefix) {
  return bytes.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), bytes.begin(),
                    [](char c, std::uint8_t b) { return static_cast<std::uint8_t>(c) == b; });
}

// A Windows PDB (MSF 7.00, or the older "program database 2.00") is no
// metadata at all: say what it is and how to get a portable one.
std::optional<Error> windowsPdb(ByteSpan bytes) {
  const bool msf7 = startsWith(bytes, "Microsoft C/C++ MSF 7.00");
  if (!msf7 && !startsWith(bytes, "Microsoft C/C++ program database 2.00")) return std::nullopt;
  return Error(0, OffsetUnit::Byte, "PDB",
               std::string("a Windows PDB (") + (msf7 ? "MSF 7.00" : "program database 2.00") +
                   "), not a portable one: build with <DebugType>portable</DebugType> (a .pdb beside the image) or "
                   "<DebugType>embedded</DebugType> (inside it)",
               rules::kPdbNotPortable);
}

Error notPortable(std::string message) {
  return Error(0, OffsetUnit::Byte, "PDB", std::move(message), rules::kPdbNotPortable);
}

}  // namespace

struct PortablePdb::State {
  State(ByteSpan pdbBytes, const PdbId& pdbId, const metadata::MetadataStreams& pdbStreams,
        const metadata::MetadataTables& pdbTables)
      : bytes(pdbBytes), id(pdbId), streams(pdbStreams), tables(pdbTables) {}

  Expected<const std::string*> name(std::uint32_t row);
  // The points of method `row`: cached; or, given `once`, decoded into it
  // and not kept (a caller that asks once per method: il extract --lines).
  Expected<const std::vector<SequencePoint>*> points(std::uint32_t row, std::vector<SequencePoint>* once = nullptr);

  ByteSpan bytes;
  PdbId id;
  metadata::MetadataStreams streams;
  metadata::MetadataTables tables;
  std::mutex mutex;  // guards `caches`; held by every call that uses them
  PdbCaches caches;
};

Expected<const std::string*> PortablePdb::State::name(std::uint32_t row) {
  if (const std::string* cached = caches.name(row)) return cached;
  const std::uint32_t count = tables.rowCount(kDocument);
  if (row == 0 || row > count)
    return pdbInvalid(streams.tables.offset, "Document[" + std::to_string(row) + "]",
                      "no such row: the Document table has " + std::to_string(count));
  Expected<std::string> name = decodeDocumentName(streams.blobs, tables.cell(kDocument, row, kDocumentNameColumn), row,
                                                  tables.cellOffset(kDocument, row, kDocumentNameColumn));
  if (!name) return name.error();
  return &caches.keepName(row, std::move(name).value());
}

Expected<const std::vector<SequencePoint>*> PortablePdb::State::points(std::uint32_t row,
                                                                       std::vector<SequencePoint>* once) {
  static const std::vector<SequencePoint> none;
  if (row == 0 || row > tables.rowCount(kMethodDebugInformation)) return &none;
  if (const std::vector<SequencePoint>* cached = caches.points(row)) return cached;
  const std::string path = "MethodDebugInformation[" + std::to_string(row) + "]";
  const std::uint32_t documents = tables.rowCount(kDocument);
  const std::uint32_t document = tables.cell(kMethodDebugInformation, row, kMethodDocumentColumn);
  if (document > documents)
    return pdbInvalid(tables.cellOffset(kMethodDebugInformation, row, kMethodDocumentColumn), path + ".Document",
                      "document row " + std::to_string(document) + " is not in the Document table (" +
                          std::to_string(documents) + " rows)");
  const std::uint32_t index = tables.cell(kMethodDebugInformation, row, kSequencePointsColumn);
  if (index == 0) return &none;
  const Expected<ByteSpan> blob = metadata::blobAt(streams.blobs, index);
  if (!blob) return asPdbInvalid(blob.error(), path + ".SequencePoints");
  const std::size_t at = streams.blobs.offset + static_cast<std::size_t>(blob->data() - streams.blobs.bytes.data());
  Expected<std::vector<SequencePoint>> decoded = decodeSequencePoints({*blob, at, row, document, documents});
  if (!decoded) return decoded.error();
  if (once != nullptr) {
    *once = std::move(decoded).value();
    return once;
  }
  return &caches.keepPoints(row, std::move(decoded).value());
}

Expected<PortablePdb> PortablePdb::open(ByteSpan bytes) {
  if (std::optional<Error> windows = windowsPdb(bytes)) return *windows;
  if (!startsWith(bytes, "BSJB")) return notPortable("no BSJB metadata signature: not a portable PDB");
  const Expected<metadata::MetadataStreams> streams = metadata::readStreams(bytes, 0);
  if (!streams) return asPdbInvalid(streams.error());
  if (!streams->hasPdb) return notPortable("metadata without a #Pdb stream: an assembly's, not a standalone PDB's");
  const Expected<metadata::PdbStream> header = metadata::readPdbStream(streams->pdb);
  if (!header) return asPdbInvalid(header.error());
  const Expected<metadata::MetadataTables> tables = metadata::MetadataTables::openPortablePdb(streams->tables, *header);
  if (!tables) return asPdbInvalid(tables.error());
  // The table extends MethodDef by a column (the specification): none, or
  // one row per method.
  const std::uint32_t methods = tables->rowCount(kMethodDebugInformation);
  const std::uint32_t methodDefs = header->rowCounts[metadata::table::kMethodDef];
  if (methods != 0 && methods != methodDefs)
    return pdbInvalid(streams->tables.offset, "#~ table stream.MethodDebugInformation",
                      std::to_string(methods) + " rows for " + std::to_string(methodDefs) +
                          " MethodDef rows: it must have one per method, or none");
  PdbId id;
  id.bytes = header->id;
  return PortablePdb(std::make_shared<State>(bytes, id, *streams, *tables));
}

const PdbId& PortablePdb::id() const { return state_->id; }

std::uint32_t PortablePdb::documentCount() const { return state_->tables.rowCount(kDocument); }

std::uint32_t PortablePdb::methodCount() const { return state_->tables.rowCount(kMethodDebugInformation); }

Expected<std::string> PortablePdb::documentName(std::uint32_t row) const {
  const std::lock_guard<std::mutex> lock(state_->mutex);
  const Expected<const std::string*> name = state_->name(row);
  if (!name) return name.error();
  return **name;
}

Expected<std::vector<SequencePoint>> PortablePdb::sequencePoints(std::uint32_t methodRow) const {
  const std::lock_guard<std::mutex> lock(state_->mutex);
  const Expected<const std::vector<SequencePoint>*> points = state_->points(methodRow);
  if (!points) return points.error();
  return **points;
}

Expected<std::optional<SourceLine>> PortablePdb::lineAt(std::uint32_t methodRow, std::uint32_t ilOffset) const {
  const std::lock_guard<std::mutex> lock(state_->mutex);
  const Expected<const std::vector<SequencePoint>*> points = state_->points(methodRow);
  if (!points) return points.error();
  const SequencePoint* point = stackTracePoint(**points, ilOffset);
  if (point == nullptr) return std::optional<SourceLine>();
  const Expected<const std::string*> document = state_->name(point->document);
  if (!document) return document.error();
  return std::optional<SourceLine>(
      SourceLine{**document, point->startLine, point->startColumn, point->endLine, point->endColumn, point->ilOffset});
}

Expected<std::vector<std::optional<SequencePoint>>> PortablePdb::stackTracePoints(
    std::uint32_t methodRow, const std::vector<std::uint32_t>& ilOffsets) const {
  const std::lock_guard<std::mutex> lock(state_->mutex);
  std::vector<SequencePoint> decoded;  // a method asked for at once is not kept
  const Expected<const std::vector<SequencePoint>*> points = state_->points(methodRow, &decoded);
  if (!points) return points.error();
  std::vector<std::optional<SequencePoint>> out;
  out.reserve(ilOffsets.size());
  for (const std::uint32_t il : ilOffsets) {
    const SequencePoint* point = stackTracePoint(**points, il);
    out.push_back(point ? std::optional<SequencePoint>(*point) : std::nullopt);
  }
  return out;
}

}  // namespace gdmap::pdb
