#pragma once
// The column layout of every metadata table 0x00..0x2C (ECMA-335 II.22) and
// of the portable PDB's debug tables 0x30..0x37 (Portable PDB v1.0), and the
// widths that follow from a particular file's row counts and heap-size
// flags (II.24.2.6): heap indexes, simple table indexes and coded indexes
// are 2 bytes when the values they can hold fit, 4 bytes otherwise.
// Shared with gdmap's portable PDB reader (reader/pdb); never installed.
#include <array>
#include <cstdint>
#include <vector>

namespace gdmap::metadata {

inline constexpr std::size_t kTableCount = 64;          // bits of the Valid mask
inline constexpr std::uint8_t kLastKnownTable = 0x2C;   // GenericParamConstraint: the type-system tables end
inline constexpr std::uint8_t kFirstDebugTable = 0x30;  // Document
inline constexpr std::uint8_t kLastDebugTable = 0x37;   // CustomDebugInformation

// Tables this tool reads columns of.
namespace table {
inline constexpr std::uint8_t kTypeRef = 0x01;
inline constexpr std::uint8_t kTypeDef = 0x02;
inline constexpr std::uint8_t kField = 0x04;
inline constexpr std::uint8_t kMethodDef = 0x06;
inline constexpr std::uint8_t kMemberRef = 0x0A;
inline constexpr std::uint8_t kCustomAttribute = 0x0C;
inline constexpr std::uint8_t kTypeSpec = 0x1B;
inline constexpr std::uint8_t kAssembly = 0x20;
inline constexpr std::uint8_t kAssemblyRef = 0x23;
inline constexpr std::uint8_t kNestedClass = 0x29;
inline constexpr std::uint8_t kMethodSpec = 0x2B;
// Portable PDB debug tables.
inline constexpr std::uint8_t kDocument = 0x30;
inline constexpr std::uint8_t kMethodDebugInformation = 0x31;
inline constexpr std::uint8_t kLocalScope = 0x32;
inline constexpr std::uint8_t kLocalVariable = 0x33;
inline constexpr std::uint8_t kLocalConstant = 0x34;
inline constexpr std::uint8_t kImportScope = 0x35;
inline constexpr std::uint8_t kStateMachineMethod = 0x36;
inline constexpr std::uint8_t kCustomDebugInformation = 0x37;
}  // namespace table

// Type nesting (NestedClass, TypeRef scopes) deeper than this is taken for
// a cycle in hostile metadata.
inline constexpr int kMaxTypeNesting = 64;

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
  HasCustomDebugInformation,  // Portable PDB: CustomDebugInformation.Parent
};

struct Column {
  ColumnKind kind = ColumnKind::Fixed;
  std::uint8_t fixedSize = 0;                   // Fixed
  std::uint8_t table = 0;                       // TableIndex
  CodedIndex coded = CodedIndex::TypeDefOrRef;  // CodedIndex
};

// The columns of a known table (0x00..0x2C, 0x30..0x37); empty for an
// unknown one.
const std::vector<Column>& tableColumns(std::uint8_t table);

// Widths of this file's columns. `rowCounts` are the counts that size the
// indexes: a standalone PDB's own debug tables, and for the type-system
// tables it refers to, the counts its #Pdb stream gives.
struct ColumnWidths {
  std::array<std::uint32_t, kTableCount> rowCounts{};
  bool wideStrings = false;
  bool wideGuids = false;
  bool wideBlobs = false;

  unsigned width(const Column& column) const;
};

}  // namespace gdmap::metadata
