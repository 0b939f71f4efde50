// Fuzz target: the portable PDB reader (reader/pdb) on arbitrary bytes,
// read twice: as a standalone PDB (PortablePdb::open, every document name,
// every method's sequence points and lines), and as a PE image
// (readDebugDirectory, then inflateEmbeddedPdb and the same walk over the
// PDB it embeds). Seeded with the real sample of tests/data/pdb/ (the PDB,
// the IL, ReadyToRun and embedded-PDB images). It must never crash, hang or
// read outside the input, and:
// - an error names a pdb-* rule (or, for the image's headers, the PE
//   reader's r2r-not-pe, r2r-truncated or r2r-section-outside-image) and an
//   offset inside its bytes;
// - points ascend strictly in IL offset, below 2^29; a hidden point has lines
//   0xFEEFEE and columns 0; any other has lines below 2^29 and not
//   0xFEEFEE, an end at or after its start (past it on one line), and a
//   document row of the Document table;
// - lineAt is what StackTraceSymbols' loop gives on those points, walked
//   here one by one; a document name is at most 64 KiB;
// - an embedded PDB inflates to exactly the size its entry declares.
#include "fuzz_check.hpp"

#include <gdmap/pdb/debug_directory.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace pdb = gdmap::pdb;
namespace rules = gdmap::rules;

constexpr std::uint32_t kHiddenLine = 0xFEEFEE;
constexpr std::uint32_t kLimit = 0x20000000;

void checkError(const gdmap::Error& e, std::size_t size, bool image) {
  const bool pdbRule =
      e.rule == rules::kPdbInvalid || e.rule == rules::kPdbNotPortable || e.rule == rules::kPdbEmbeddedInvalid;
  const bool peRule = image && (e.rule == rules::kR2rNotPe || e.rule == rules::kR2rSectionOutsideImage ||
                                e.rule == rules::kR2rTruncated);
  FUZZ_CHECK(pdbRule || peRule, gdmap::fuzz::describeError(e));
  FUZZ_CHECK(e.offset <= size, gdmap::fuzz::describeError(e));
}

void checkPoints(const std::vector<pdb::SequencePoint>& points, std::uint32_t documents) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    const pdb::SequencePoint& p = points[i];
    FUZZ_CHECK(i == 0 || p.ilOffset > points[i - 1].ilOffset, "points do not ascend");
    FUZZ_CHECK(p.ilOffset < kLimit, "an IL offset of 2^29 or more");
    FUZZ_CHECK(p.document >= 1 && p.document <= documents, "a point outside the Document table");
    if (p.hidden()) {
      FUZZ_CHECK(p.endLine == kHiddenLine && p.startColumn == 0 && p.endColumn == 0, "a half-hidden point");
      continue;
    }
    FUZZ_CHECK(p.startLine < kLimit && p.endLine < kLimit && p.endLine != kHiddenLine, "a line out of range");
    FUZZ_CHECK(p.endLine > p.startLine || (p.endLine == p.startLine && p.endColumn > p.startColumn),
               "a point that ends before it starts");
  }
}

// StackTraceSymbols.GetSourceLineInfo's loop, as it is written.
const pdb::SequencePoint* walked(const std::vector<pdb::SequencePoint>& points, std::uint32_t il) {
  const pdb::SequencePoint* best = nullptr;
  for (const pdb::SequencePoint& p : points) {
    if (p.ilOffset > il) break;
    if (!p.hidden()) best = &p;
  }
  return best;
}

void checkLines(const pdb::PortablePdb& portable, std::uint32_t row, const std::vector<pdb::SequencePoint>& points,
                std::size_t size) {
  std::vector<std::uint32_t> offsets = {0, 0xFFFFFFFF};
  for (const pdb::SequencePoint& p : points) {
    offsets.push_back(p.ilOffset);
    offsets.push_back(p.ilOffset - 1);
    offsets.push_back(p.ilOffset + 1);
  }
  for (const std::uint32_t il : offsets) {
    const auto line = portable.lineAt(row, il);
    const pdb::SequencePoint* expected = walked(points, il);
    if (!line) {  // only its document's name can fail now: the points decoded
      FUZZ_CHECK(expected != nullptr, "lineAt failed where no point is taken");
      checkError(line.error(), size, false);
      continue;
    }
    FUZZ_CHECK(line->has_value() == (expected != nullptr), "lineAt disagrees with StackTraceSymbols' loop");
    if (!expected) continue;
    FUZZ_CHECK((*line)->pointIlOffset == expected->ilOffset && (*line)->line == expected->startLine &&
                   (*line)->column == expected->startColumn && (*line)->endLine == expected->endLine,
               "lineAt took another point than StackTraceSymbols' loop");
  }
}

void walk(gdmap::ByteSpan bytes) {
  const auto portable = pdb::PortablePdb::open(bytes);
  if (!portable) return checkError(portable.error(), bytes.size(), false);
  const std::uint32_t documents = portable->documentCount();
  for (std::uint32_t row = 1; row <= documents; ++row) {
    const auto name = portable->documentName(row);
    if (!name) checkError(name.error(), bytes.size(), false);
    else FUZZ_CHECK(name->size() <= 65536, "a document name over 64 KiB");
  }
  for (std::uint32_t row = 0; row <= portable->methodCount() + 1; ++row) {
    const auto points = portable->sequencePoints(row);
    if (!points) {
      checkError(points.error(), bytes.size(), false);
      FUZZ_CHECK(!portable->lineAt(row, 0).ok(), "lineAt read points sequencePoints refused");
      continue;
    }
    checkPoints(*points, documents);
    checkLines(*portable, row, *points, bytes.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const gdmap::ByteSpan bytes = gdmap::fuzz::asBytes(data, size);
  walk(bytes);
  const auto directory = pdb::readDebugDirectory(bytes);
  if (!directory) {
    checkError(directory.error(), size, true);
    return 0;
  }
  for (const pdb::CodeViewEntry& entry : directory->codeView)
    FUZZ_CHECK(entry.offset + 24 + entry.path.size() < size, "a CodeView entry outside the file");
  if (!directory->hasEmbeddedPdb) return 0;
  FUZZ_CHECK(directory->embeddedOffset + 8 + directory->embeddedDeflate.size() <= size,
             "embedded data outside the file");
  const auto inflated = pdb::inflateEmbeddedPdb(*directory);
  if (!inflated) {
    checkError(inflated.error(), size, false);
    return 0;
  }
  FUZZ_CHECK(inflated->size() == directory->embeddedSize, "inflated to another size than declared");
  walk(*inflated);
  return 0;
}
