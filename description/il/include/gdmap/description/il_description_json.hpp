#pragma once
// The JSON description of IL-to-native maps (FORMAT.md §3.4, docs/il-map.md;
// schema/gdmap-il-description.schema.json): methods, each with `bounds` (the
// runtime's view) or a verbatim API `map`, read with diagnostics that say
// where, and written back.
//
// Part of the gdmap::description library; like description_json.hpp it
// includes no JSON library.
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::il {

struct IlDescriptionParse {
  // The methods in file order; empty when any error was found.
  std::optional<std::vector<Method>> methods;
  // Errors and warnings with rule, JSON pointer, byte offset, line and
  // column, in file order, capped as parseDescription()'s are.
  std::vector<Diagnostic> diagnostics;
  std::size_t errorCount = 0;
  std::size_t warningCount = 0;
};

// Reports every problem it can: syntax, unknown and repeated keys, wrong
// types, numbers outside u32, unknown IL names and source flags, a method
// with more or fewer than one of `bounds`, `map` and `raw`, bad hex, bounds
// out of native order, tokens given twice (with the same module, component,
// methodDesc, instantiation, code version and first code range), code
// ranges with both or neither of `rva` and `address` or of both kinds in one
// method, unknown code kinds and tiers. A method's `layout` (and `raw`)
// land in Method::layout; whether they apply to a form is decided when
// building (il::encodeExact). Time and memory linear in the text.
IlDescriptionParse parseIlDescription(std::string_view jsonText);

// Deterministic JSON (two-space indent, one bound or entry per line, tokens
// as "0x06000001", offsets as integers, IL specials and flags by name, a
// layout on one line before the bounds, raw bytes as hex; a process's
// method's "module" first, its "methodDesc", "dynamic" and "codeVersion"
// after "component", addresses as "0x7f66c2f01a40") that
// parseIlDescription() reads back to the same methods.
std::string writeIlDescription(std::span<const Method> methods);

// The same text in pieces, for an output written while its methods are
// made: the head, each method (`index`: its place, a comma before all but
// the first), then the tail after `methods` of them.
void appendIlDescriptionHead(std::string& out);
void appendIlDescriptionMethod(const Method& method, std::size_t index, std::string& out);
void appendIlDescriptionTail(std::size_t methods, std::string& out);

}  // namespace gdmap::il
