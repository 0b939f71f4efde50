#include <gdmap/internal/metadata_table_schema.hpp>

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace gdmap::metadata {
namespace {

// Shorthands so the table list below reads like ECMA-335 II.22.
constexpr Column fixed(std::uint8_t size) { return {ColumnKind::Fixed, size, 0, CodedIndex::TypeDefOrRef}; }
constexpr Column str() { return {ColumnKind::StringIndex, 0, 0, CodedIndex::TypeDefOrRef}; }
constexpr Column guid() { return {ColumnKind::GuidIndex, 0, 0, CodedIndex::TypeDefOrRef}; }
constexpr Column blob() { return {ColumnKind::BlobIndex, 0, 0, CodedIndex::TypeDefOrRef}; }
constexpr Column idx(std::uint8_t table) { return {ColumnKind::TableIndex, 0, table, CodedIndex::TypeDefOrRef}; }
constexpr Column coded(CodedIndex c) { return {ColumnKind::CodedIndex, 0, 0, c}; }

constexpr std::uint8_t kNone = 0xFF;  // an unused tag value of a coded index

enum : std::uint8_t {
  Module = 0x00,
  TypeRef = 0x01,
  TypeDef = 0x02,
  Field = 0x04,
  MethodDef = 0x06,
  Param = 0x08,
  InterfaceImpl = 0x09,
  MemberRef = 0x0A,
  DeclSecurity = 0x0E,
  StandAloneSig = 0x11,
  Event = 0x14,
  Property = 0x17,
  ModuleRef = 0x1A,
  TypeSpec = 0x1B,
  Assembly = 0x20,
  AssemblyRef = 0x23,
  File = 0x26,
  ExportedType = 0x27,
  ManifestResource = 0x28,
  GenericParam = 0x2A,
  MethodSpec = 0x2B,
  GenericParamConstraint = 0x2C,
  Document = 0x30,
  LocalScope = 0x32,
  LocalVariable = 0x33,
  LocalConstant = 0x34,
  ImportScope = 0x35,
};

struct CodedIndexInfo {
  unsigned tagBits;
  std::vector<std::uint8_t> tables;
};

// The tables HasCustomAttribute tags (II.24.2.6), then `more`.
std::vector<std::uint8_t> hasCustomAttribute(std::initializer_list<std::uint8_t> more = {}) {
  std::vector<std::uint8_t> tables = {MethodDef,        Field,        TypeRef,
                                      TypeDef,          Param,        InterfaceImpl,
                                      MemberRef,        Module,       DeclSecurity,
                                      Property,         Event,        StandAloneSig,
                                      ModuleRef,        TypeSpec,     Assembly,
                                      AssemblyRef,      File,         ExportedType,
                                      ManifestResource, GenericParam, GenericParamConstraint,
                                      MethodSpec};
  for (const std::uint8_t t : more) tables.push_back(t);  // (insert trips a false g++ 12 -Warray-bounds)
  return tables;
}

// II.24.2.6, in the order of CodedIndex.
const std::vector<CodedIndexInfo>& codedIndexes() {
  static const std::vector<CodedIndexInfo> info = {
      {2, {TypeDef, TypeRef, TypeSpec}},
      {2, {Field, Param, Property}},
      {5, hasCustomAttribute()},
      {1, {Field, Param}},
      {2, {TypeDef, MethodDef, Assembly}},
      {3, {TypeDef, TypeRef, ModuleRef, MethodDef, TypeSpec}},
      {1, {Event, Property}},
      {1, {MethodDef, MemberRef}},
      {1, {Field, MethodDef}},
      {2, {File, AssemblyRef, ExportedType}},
      {3, {kNone, kNone, MethodDef, MemberRef, kNone}},
      {2, {Module, ModuleRef, AssemblyRef, TypeRef}},
      {1, {TypeDef, MethodDef}},
      // Portable PDB v1.0, CustomDebugInformation.Parent: every table
      // HasCustomAttribute tags, then the debug tables that carry
      // information of their own.
      {5, hasCustomAttribute({Document, LocalScope, LocalVariable, LocalConstant, ImportScope})},
  };
  return info;
}

using C = CodedIndex;

// II.22.2 .. II.22.39, indexed by table number; the *Ptr and ENC tables
// appear only in uncompressed (#-) streams.
const std::array<std::vector<Column>, kLastKnownTable + 1>& typeSystemTables() {
  static const std::array<std::vector<Column>, kLastKnownTable + 1> tables = {{
      /*00 Module*/ {fixed(2), str(), guid(), guid(), guid()},
      /*01 TypeRef*/ {coded(C::ResolutionScope), str(), str()},
      /*02 TypeDef*/ {fixed(4), str(), str(), coded(C::TypeDefOrRef), idx(Field), idx(MethodDef)},
      /*03 FieldPtr*/ {idx(Field)},
      /*04 Field*/ {fixed(2), str(), blob()},
      /*05 MethodPtr*/ {idx(MethodDef)},
      /*06 MethodDef*/ {fixed(4), fixed(2), fixed(2), str(), blob(), idx(Param)},
      /*07 ParamPtr*/ {idx(Param)},
      /*08 Param*/ {fixed(2), fixed(2), str()},
      /*09 InterfaceImpl*/ {idx(TypeDef), coded(C::TypeDefOrRef)},
      /*0A MemberRef*/ {coded(C::MemberRefParent), str(), blob()},
      /*0B Constant*/ {fixed(2), coded(C::HasConstant), blob()},
      /*0C CustomAttribute*/ {coded(C::HasCustomAttribute), coded(C::CustomAttributeType), blob()},
      /*0D FieldMarshal*/ {coded(C::HasFieldMarshal), blob()},
      /*0E DeclSecurity*/ {fixed(2), coded(C::HasDeclSecurity), blob()},
      /*0F ClassLayout*/ {fixed(2), fixed(4), idx(TypeDef)},
      /*10 FieldLayout*/ {fixed(4), idx(Field)},
      /*11 StandAloneSig*/ {blob()},
      /*12 EventMap*/ {idx(TypeDef), idx(Event)},
      /*13 EventPtr*/ {idx(Event)},
      /*14 Event*/ {fixed(2), str(), coded(C::TypeDefOrRef)},
      /*15 PropertyMap*/ {idx(TypeDef), idx(Property)},
      /*16 PropertyPtr*/ {idx(Property)},
      /*17 Property*/ {fixed(2), str(), blob()},
      /*18 MethodSemantics*/ {fixed(2), idx(MethodDef), coded(C::HasSemantics)},
      /*19 MethodImpl*/ {idx(TypeDef), coded(C::MethodDefOrRef), coded(C::MethodDefOrRef)},
      /*1A ModuleRef*/ {str()},
      /*1B TypeSpec*/ {blob()},
      /*1C ImplMap*/ {fixed(2), coded(C::MemberForwarded), str(), idx(ModuleRef)},
      /*1D FieldRVA*/ {fixed(4), idx(Field)},
      /*1E ENCLog*/ {fixed(4), fixed(4)},
      /*1F ENCMap*/ {fixed(4)},
      /*20 Assembly*/ {fixed(4), fixed(2), fixed(2), fixed(2), fixed(2), fixed(4), blob(), str(), str()},
      /*21 AssemblyProcessor*/ {fixed(4)},
      /*22 AssemblyOS*/ {fixed(4), fixed(4), fixed(4)},
      /*23 AssemblyRef*/ {fixed(2), fixed(2), fixed(2), fixed(2), fixed(4), blob(), str(), str(), blob()},
      /*24 AssemblyRefProcessor*/ {fixed(4), idx(AssemblyRef)},
      /*25 AssemblyRefOS*/ {fixed(4), fixed(4), fixed(4), idx(AssemblyRef)},
      /*26 File*/ {fixed(4), str(), blob()},
      /*27 ExportedType*/ {fixed(4), fixed(4), str(), str(), coded(C::Implementation)},
      /*28 ManifestResource*/ {fixed(4), fixed(4), str(), coded(C::Implementation)},
      /*29 NestedClass*/ {idx(TypeDef), idx(TypeDef)},
      /*2A GenericParam*/ {fixed(2), fixed(2), coded(C::TypeOrMethodDef), str()},
      /*2B MethodSpec*/ {coded(C::MethodDefOrRef), blob()},
      /*2C GenericParamConstraint*/ {idx(GenericParam), coded(C::TypeDefOrRef)},
  }};
  return tables;
}

// Portable PDB v1.0, tables 0x30..0x37.
const std::array<std::vector<Column>, kLastDebugTable - kFirstDebugTable + 1>& debugTables() {
  static const std::array<std::vector<Column>, kLastDebugTable - kFirstDebugTable + 1> tables = {{
      /*30 Document*/ {blob(), guid(), blob(), guid()},
      /*31 MethodDebugInformation*/ {idx(Document), blob()},
      /*32 LocalScope*/ {idx(MethodDef), idx(ImportScope), idx(LocalVariable), idx(LocalConstant), fixed(4), fixed(4)},
      /*33 LocalVariable*/ {fixed(2), fixed(2), str()},
      /*34 LocalConstant*/ {str(), blob()},
      /*35 ImportScope*/ {idx(ImportScope), blob()},
      /*36 StateMachineMethod*/ {idx(MethodDef), idx(MethodDef)},
      /*37 CustomDebugInformation*/ {coded(C::HasCustomDebugInformation), guid(), blob()},
  }};
  return tables;
}

}  // namespace

const std::vector<Column>& tableColumns(std::uint8_t table) {
  static const std::vector<Column> unknown;
  if (table <= kLastKnownTable) return typeSystemTables()[table];
  if (table >= kFirstDebugTable && table <= kLastDebugTable) return debugTables()[table - kFirstDebugTable];
  return unknown;
}

unsigned ColumnWidths::width(const Column& column) const {
  switch (column.kind) {
    case ColumnKind::Fixed: return column.fixedSize;
    case ColumnKind::StringIndex: return wideStrings ? 4 : 2;
    case ColumnKind::GuidIndex: return wideGuids ? 4 : 2;
    case ColumnKind::BlobIndex: return wideBlobs ? 4 : 2;
    case ColumnKind::TableIndex: return rowCounts[column.table] > 0xFFFF ? 4 : 2;
    case ColumnKind::CodedIndex: {
      const CodedIndexInfo& info = codedIndexes()[static_cast<std::size_t>(column.coded)];
      std::uint32_t largest = 0;
      for (std::uint8_t t : info.tables) {
        if (t != kNone) largest = std::max(largest, rowCounts[t]);
      }
      // 2 bytes hold a row number below 2^(16 - tag bits).
      return largest < (std::uint32_t{1} << (16 - info.tagBits)) ? 2 : 4;
    }
  }
  return 4;
}

}  // namespace gdmap::metadata
