#pragma once
// Every difference between two generic dictionary maps, at the level a
// debugger-test author thinks in: the header, dictionaries matched by RVA
// (added, removed, or with other types), dictionaries that share their
// instantiation with others in one map and not in the other, and, when the
// content is the same, where the bytes place it differently. An input that
// does not read as a map is compared byte by byte instead. What `gdmap
// diff` and `gdmap verify` print (tools/gdmap/diff_output.*).
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/type_names.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

enum class MapDiffKind {
  Header,   // header.count: the raw u32 (entry count, bit 31)
  Added,    // a dictionary only B has
  Removed,  // a dictionary only A has
  Changed,  // a dictionary both have: one entry per type that differs
  Sharing,  // same types, but its instantiation is shared with other dictionaries
  Layout,   // same content, other bytes: directory order, heap placement, integer encoding, unreachable bytes
  Bytes,    // an input does not read as a map: the first differing byte
};
inline constexpr std::size_t kMapDiffKinds = 7;

// "header", "added", "removed", "changed", "sharing", "layout", "bytes".
std::string_view mapDiffKindName(MapDiffKind kind);

struct MapDiffEntry {
  MapDiffKind kind = MapDiffKind::Bytes;
  // "header.count", "dictionary 0x1040", "dictionary 0x1040.type[1]",
  // "dictionary 0x1040.instantiation", "dictionary 0x1040.directory",
  // "dictionary 0x1040.item", "dictionary 0x1040.encoding", "heap.size",
  // or for Bytes the map's field path ("heap@0x7(directory[1]).type[0]").
  std::string path;
  // The value in A ("" when A has no such thing); a long value is cut
  // around where it differs from B's, so the two never read the same.
  std::string a;
  std::string b;                       // the same in B
  std::optional<std::uint32_t> rva;    // the dictionary's, when the path names one
  std::optional<std::size_t> offsetA;  // where the field starts in A's bytes
  std::optional<std::size_t> offsetB;  // the same in B
  // A Changed type that decodes on both sides: the first place inside it
  // where they differ, in the signature reader's field paths
  // (".arguments[0].arguments[1]", ".genericType", ".inner"; the full path
  // is path + subPath), and each side's type there. Empty when the types
  // differ at their top (a and b say it).
  std::string subPath;
  std::string partA;
  std::string partB;
  // With MapDiffOptions::context, the first Changed entry of a dictionary
  // also carries its whole list of types on each side.
  std::string contextA;
  std::string contextB;
};

// The byte-for-byte view, computed for every comparison.
struct MapByteSummary {
  std::size_t sizeA = 0;
  std::size_t sizeB = 0;
  std::size_t differingBytes = 0;  // positions that differ, counting a length difference
  std::size_t differingRuns = 0;   // maximal runs of such positions
  std::optional<std::size_t> firstOffset;
  std::string pathA;  // mapFieldPath(A, firstOffset), "end of map" past its end
  std::string pathB;
};

struct MapDiffOptions {
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();
  // Entries kept in MapDiff::differences; the rest are only counted.
  std::size_t maxListed = 100;
  // Fill MapDiffEntry::contextA/contextB (listed Changed entries only).
  bool context = false;
  // Type text with these names for tokens (type_names.hpp); null: tokens.
  const TypeNames* names = nullptr;
};

struct MapDiff {
  bool identical = true;    // byte for byte
  bool structural = false;  // both inputs read as maps: differences are by dictionary
  bool sameContent = true;  // no difference but Layout (and, byte by byte, none at all)
  // The header; added, removed and changed dictionaries by RVA; sharing by
  // RVA; layout (only when nothing else differs); or one Bytes entry.
  std::vector<MapDiffEntry> differences;
  std::size_t total = 0;  // differences found, listed or not
  // Per kind: dictionaries for Added, Removed, Changed and Sharing; entries
  // for the others.
  std::array<std::size_t, kMapDiffKinds> counts{};
  MapByteSummary bytes;
  // Why a side was not read as a map (its first reading error, with the
  // rule it breaks); set only when structural is false.
  std::optional<Error> unreadableA;
  std::optional<Error> unreadableB;

  std::size_t count(MapDiffKind kind) const { return counts[static_cast<std::size_t>(kind)]; }
  std::size_t notListed() const { return total - differences.size(); }
};

// Linear in the sizes of both maps (plus a radix sort of each directory),
// memory linear in their entry counts; safe on any bytes.
//
// Both sides read as maps when the directory fits, every entry's item
// reads (its length and type count) and no RVA is given twice; bit 31 need
// not be earned (entries are matched by RVA, not position). A type that
// does not decode is shown as its hex and compared by bytes.
MapDiff diffMaps(ByteSpan a, ByteSpan b, const MapDiffOptions& options = {});

}  // namespace gdmap
