#pragma once
// The column layout of every metadata table 0x00..0x2C (ECMA-335 II.22) and
// the widths that follow from a particular file's row counts and heap-size
// flags (II.24.2.6): heap indexes, simple table indexes and coded indexes
// are 2 bytes when the values they can hold fit, 4 bytes otherwise.
#include <array>
#include <cstdint>
#include <vector>

namespace gdmap::metadata {

inline constexpr std::size_t kTableCount = 64;         // bits of the Valid mask
inline constexpr std::uint8_t kLastKnownTable = 0x2C;  // GenericParamConstraint

// Tables this tool reads columns of.
namespace table {
inline constexpr std::uint8_t kTypeRef = 0x01;
inline constexpr std::uint8_t kTypeDef = 0x02;
inline constexpr std::uint8_t kField = 0x04;
inline constexpr std::uint8_t kMethodDef = 0x06;
inline constexpr std::uint8_t kMemberRef = 0x0A;
inline constexpr std::uint8_t kCustomAttribute = 0x0C;
inline constexpr std::uint8_t kTypeSpec = 0x1B;
inline constexpr std::uint8_t kMethodSpec = 0x2B;
}  // namespace table

enum class ColumnKind : std::uint8_t {
  Fixed,        // a constant number of bytes
  StringIndex,  // #Strings heap
  GuidIndex,    // #GUID heap
  BlobIndex,    // #Blob heap
  TableIndex,   // a row of one table
  CodedIndex,   // a row of one of several tables, tagged
};

enum class CodedIndex : std::uint8_t {
  TypeDefOrRef,
  HasConstant,
  HasCustomAttribute,
  HasFieldMarshal,
  HasDeclSecurity,
  MemberRefParent,
  HasSemantics,
  MethodDefOrRef,
  MemberForwarded,
  Implementation,
  CustomAttributeType,
  ResolutionScope,
  TypeOrMethodDef,
};

struct Column {
  ColumnKind kind = ColumnKind::Fixed;
  std::uint8_t fixedSize = 0;                   // Fixed
  std::uint8_t table = 0;                       // TableIndex
  CodedIndex coded = CodedIndex::TypeDefOrRef;  // CodedIndex
};

// The columns of a known table (0x00..0x2C); empty for an unknown one.
const std::vector<Column>& tableColumns(std::uint8_t table);

// Widths of this file's columns.
struct ColumnWidths {
  std::array<std::uint32_t, kTableCount> rowCounts{};
  bool wideStrings = false;
  bool wideGuids = false;
  bool wideBlobs = false;

  unsigned width(const Column& column) const;
};

}  // namespace gdmap::metadata
