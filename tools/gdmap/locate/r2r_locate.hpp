#pragma once
// How `il locate` writes the answers of symbolize/: a ReadyToRun image's
// answer for an RVA (or an absolute address: --base, --maps) as a line of
// text or a JSON object, and what every answer adds to its IL entries (the
// lookup, the IL offset the runtime reports, the source line).
#include <gdmap/description/json_writer.hpp>
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/symbolize/il_offset.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>

#include "image/r2r_components.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::cli {

std::string ilText(std::uint32_t il);

// The body's instantiation as `--instantiation` takes it (`<int32>`,
// `async resumption`); empty for a method's plain body.
std::string instantiationOf(const r2r::MethodBody& m);

// `["a", "b"]` on one line.
void writeStringArray(JsonWriter& w, const std::vector<std::string>& items);
// The "instantiation" member: its type and method arguments, and the flags
// of a body that is not the method's plain one.
void writeInstantiation(JsonWriter& w, const il::Instantiation& inst);

// ", looked up at +0x27" for a return address looked up before itself.
std::string lookupText(symbolize::AddressKind kind, std::uint32_t offset, std::uint32_t lookup);
// " at DOCUMENT:LINE:COLUMN", or nothing.
std::string sourceText(const std::optional<pdb::SourceLine>& source);
// The members lookup, ilOffset and source of an answer.
void writeSymbol(JsonWriter& w, symbolize::AddressKind kind, const symbolize::IlOffset& il,
                 const std::optional<pdb::SourceLine>& source);
// The member il of an answer: its entries, null without bounds.
void writeEntries(JsonWriter& w, bool noBounds, const std::vector<il::ApiEntry>& entries);

// The metadata that names an image's methods (--names): the image's own,
// or a composite image's components'.
struct MethodNames {
  const metadata::AssemblyTypeNames* image = nullptr;
  const std::vector<AssemblyMetadata>* components = nullptr;
  const metadata::AssemblyTypeNames* of(const r2r::MethodBody& m) const;
  // Each method's text as an answer names it (token, component, name,
  // instantiation, the methods sharing its body), made once: a profile
  // names the same methods again and again.
  mutable std::unordered_map<const r2r::MethodBody*, std::string> texts;
  // The image's own signatures (a composite image's: its components').
  const metadata::MethodSignatures* imageSignatures = nullptr;
  // `m` as SOS names it (with its instantiation); empty without --names or
  // when the signature cannot be formed.
  std::string signatureOf(const r2r::MethodBody& m) const;
};

// One address of an image: an RVA, or an absolute address made one.
struct ImageAnswer {
  std::optional<std::uint64_t> address;  // the absolute address given (--base, --maps)
  std::string module;                    // --maps: the file the address is in
  std::string problem;                   // why the address has no RVA (then `located` is empty)
  std::string component;                 // a composite image's component of the method
  symbolize::Located located;
  std::optional<pdb::SourceLine> source;
  bool found() const { return problem.empty() && located.method != nullptr; }
};

std::string imageAnswerText(const ImageAnswer& a, const MethodNames& names);
std::string imageAnswerJson(const ImageAnswer& a, const MethodNames& names);

}  // namespace gdmap::cli
