#pragma once
// The contract descriptor's JSON, read: the runtime's type layouts, its
// globals and the versions of its contracts (docs/runtime-contracts.md,
// section 1.3; the cDAC's "compact" physical descriptor). Both forms seen
// in shipped runtimes are read: .NET 10 ("version": 0, integer contract
// versions, typed globals) and .NET 11 ("version": 2, contract versions as
// strings such as "c1").
//
// Nothing in it is trusted: every number is range-checked, a global that
// names a pointer-data slot is checked against the slots there are, and a
// layout a reader needs but the runtime does not publish is an error that
// names it (runtime-descriptor-invalid), never a default.
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gdmap::runtime {

// One type: its size when it has a determinate one, and its fields' offsets.
struct TypeLayout {
  std::optional<std::uint32_t> size;
  std::map<std::string, std::uint32_t, std::less<>> fields;
};

// One global: a number (direct, or the pointer-data slot an indirect one
// names, already looked up) or a string.
struct GlobalValue {
  std::optional<std::uint64_t> number;
  std::string text;  // a "string" global's value
  std::string type;  // "pointer", "uint8", "string"...; empty: untyped
};

class DataDescriptor {
 public:
  std::uint64_t formatVersion = 0;  // the JSON's "version": 0 (.NET 10), 2 (.NET 11)
  std::map<std::string, TypeLayout, std::less<>> types;
  std::map<std::string, GlobalValue, std::less<>> globals;
  // Contract name -> version as written: an integer in decimal ("2"), or
  // the string itself ("c1").
  std::map<std::string, std::string, std::less<>> contracts;

  // A field's offset, or runtime-descriptor-invalid naming `Type.Field`.
  Expected<std::uint32_t> offset(std::string_view type, std::string_view field) const;
  // Whether the runtime publishes that field.
  bool hasField(std::string_view type, std::string_view field) const;
  // A type's size, or runtime-descriptor-invalid naming it.
  Expected<std::uint32_t> size(std::string_view type) const;
  // A numeric global, or runtime-descriptor-invalid naming it.
  Expected<std::uint64_t> global(std::string_view name) const;
  // A contract's version as written, or nothing when it is not declared.
  std::optional<std::string> contract(std::string_view name) const;
};

// The descriptor's JSON and pointer data, read. Errors are
// runtime-descriptor-invalid, at the JSON's byte offset (for a syntax
// error or a value of the wrong kind, with its JSON path).
Expected<DataDescriptor> readDataDescriptor(const ContractDescriptor& descriptor);

}  // namespace gdmap::runtime
