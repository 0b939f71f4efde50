#pragma once
// An IL-map description for `gdmap il build`, `verify` and `lookup`: parsed
// whole (every diagnostic, warnings too, goes to the report, whichever
// method is asked for), one method chosen by --method, and that method
// turned into one of the four binary forms. Problems of a method name it by
// its JSON pointer ("/methods/2/bounds/3/source") and its token.
#include "common/file_io.hpp"
#include "common/report.hpp"

#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap::cli {

// The description's methods, or empty when it is invalid (status 1; the
// reasons are in the report).
std::optional<std::vector<il::Method>> loadIlDescription(const InputBytes& input, Report& report);

// The index of the method --method names (`token`), or of the only method
// when no token is given; when several bodies (instantiations, as `gdmap il
// extract` writes them) share the token, --instantiation (`instantiation`,
// an il::instantiationText) picks one. Otherwise empty, with `status` set
// and the reason reported: kInvalid (il-method-not-found) for a token or
// instantiation the description does not have or a description without
// methods, kUsageOrIo (usage) when several methods leave the choice open.
// `component` (--component) keeps the bodies of that component assembly
// (a whole composite image's description, where tokens repeat); `address`
// (--address) the bodies whose code ranges hold it (an absolute address or
// an RVA, as the ranges are), with or without a token. Bodies the other
// choices leave open (a process's code versions) are listed, to be chosen
// by --address.
std::optional<std::size_t> chooseMethod(const std::vector<il::Method>& methods, std::optional<std::uint32_t> token,
                                        const InputBytes& input, Report& report, int& status,
                                        const std::string& instantiation = {}, const std::string& component = {},
                                        std::optional<std::uint64_t> address = std::nullopt);

// "/methods/2": the JSON pointer of methods[index].
std::string methodPointer(std::size_t index);

// methods[index] in `form`: the API array derived from bounds (needs the
// code size) or written verbatim from `map`; a compressed form from bounds
// (a `map` cannot be compressed: il-map-not-compressible). Empty on error
// (status 1, reported at the method's pointer, with its line and column in
// `input`, the description).
std::optional<Bytes> encodeMethod(const il::Method& method, std::size_t index, il::BoundsForm form,
                                  const InputBytes& input, Report& report);

}  // namespace gdmap::cli
