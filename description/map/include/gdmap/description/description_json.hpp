#pragma once
// The JSON description of a generic dictionary map (docs/description.md;
// schema/gdmap-description.schema.json): reading it with diagnostics that
// say where, and writing it back.
//
// This is the public header of the gdmap::description library (CMake:
// find_package(gdmap COMPONENTS description), target gdmap::description),
// the one gdmap library that reads JSON. The JSON parser it uses
// (nlohmann/json) is a private dependency: this header, like every other
// gdmap header, includes no JSON library, and a program that never reads a
// description does not need one.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/diagnostic.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/map_description.hpp>
#include <gdmap/schema/type_names.hpp>
#include <gdmap/writer/map_builder.hpp>

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap {

struct DescriptionParse {
  std::optional<MapDescription> description;  // empty when any error was found
  // Errors and warnings, each with its rule, JSON pointer (`path`), byte
  // offset, line and column, in file order. At most 100 are listed (fewer
  // when their pointers are very long); a final too-many-diagnostics note
  // then says how many there were in all.
  std::vector<Diagnostic> diagnostics;
  // Every error and warning found, listed or not.
  std::size_t errorCount = 0;
  std::size_t warningCount = 0;
};

// Reports every problem it can (unknown keys, duplicate RVAs, undefined
// names, types that do not parse, ...), not only the first. Unused
// instantiation names are warnings. Time and memory are linear in the
// length of the text, however many problems it has; no message quotes more
// than a few dozen bytes of it (pointers in `path` are exact).
DescriptionParse parseDescription(std::string_view jsonText);

struct DescriptionBuild {
  // The canonical map the description describes (what buildMap() gives for
  // parseDescription()'s result, byte for byte), read back and checked
  // before it is returned; empty after any error.
  std::optional<Bytes> map;
  // As DescriptionParse's: the same diagnostics for the same text, plus,
  // when a map was built and does not read back as its dictionaries, one
  // description-mismatch error (a bug in gdmap, never in the input).
  std::vector<Diagnostic> diagnostics;
  std::size_t errorCount = 0;
  std::size_t warningCount = 0;
};

// parseDescription() and buildMap() in one pass over the text, without the
// Type model: each dictionary goes to the map builder as it is read, each
// distinct type is parsed and encoded once, instantiations are deduplicated
// as bytes. This is what `gdmap build` and `verify` run; it is several
// times faster and smaller than the two calls it replaces.
// With `names`, type text may name types (`class [mscorlib]System.Object`,
// type_names.hpp) wherever it may hold a token.
DescriptionBuild buildMapFromDescription(std::string_view jsonText, const TypeNames* names = nullptr);

struct DescriptionBuildOptions {
  const TypeNames* names = nullptr;  // as above
  // Called while the text is read, about every 4 MiB, with how many of its
  // bytes the parser has read so far (ascending): for a progress display,
  // or to let go of what was read (MappedFile::release: `gdmap build`
  // holds only the part of a mapped description it has not read yet). The
  // text must stay readable: diagnostics are located in it at the end.
  std::function<void(std::size_t bytesRead)> onProgress;
};
DescriptionBuild buildMapFromDescription(std::string_view jsonText, const DescriptionBuildOptions& options);

// The JSON pointer of the part of `description` an error of buildMap()
// is about (mapPartOf(error)): "/dictionaries/3", "/instantiations/List~1Int/1",
// "/dictionaries/1/types/0", "/layout/fill/2", "/layout/truncate". An
// instantiation no dictionary uses has none, so "instantiation[j]" names
// it; layout.offsets (the dictionaries' `offset` members gathered) and
// the whole map give "".
std::string mapPartPointer(const MapDescription& description, const MapPart& part);

// For a map checkMap() accepts: exactly writeDescription(describeMap(map)
// .description), written straight from the map's bytes (no MapDescription,
// no second check): what `gdmap dump` writes. Errors only for bytes that do
// not even open as a map.
Expected<std::string> dumpDescription(ByteSpan map);
// The same text handed to `emit` in pieces of about 1 MiB, as it is
// written: memory a few words per directory entry, whatever the text's size.
// An error from `emit` stops the dump and is returned.
// With `names`, types name what `names` knows (type_names.hpp).
Status dumpDescription(ByteSpan map, const std::function<Status(std::string_view)>& emit,
                       const TypeNames* names = nullptr);

// Any bytes at all (a map valid or not, truncated, empty, foreign): a
// description that buildMapFromDescription() turns back into exactly these
// bytes, with overrides (dictionaries' "offset", /layout) and `raw` where
// the canonical layout would write other bytes (docs/description.md, "Dump
// of anything"). `gdmap dump` uses it for every map that is not valid and
// canonical; for those, dumpDescription() is the plainer form. Linear in
// the size of the map (plus sorting its directory); never fails but for an
// error from `emit`.
Expected<std::string> dumpExactDescription(ByteSpan map);
Status dumpExactDescription(ByteSpan map, const std::function<Status(std::string_view)>& emit,
                            const TypeNames* names = nullptr);

// Deterministic, human-readable JSON (two-space indent, keys in a fixed
// order, RVAs as "0x0000xxxx" strings, types as ILAsm text, raw items as
// hex) that parseDescription() reads back to the same description.
std::string writeDescription(const MapDescription& description);

}  // namespace gdmap
