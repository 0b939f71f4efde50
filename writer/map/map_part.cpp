// MapPart: where in what a map is built from an error is, carried in the
// Error's path and index rather than in its message.
#include <gdmap/writer/map_builder.hpp>
#include "map_layout.hpp"

#include <charconv>
#include <string_view>

namespace gdmap {
namespace {

constexpr std::string_view kDictionaries = "dictionaries[";
constexpr std::string_view kInstantiations = "instantiations[";
constexpr std::string_view kTypes = "].types[";
constexpr std::string_view kOffsets = "layout.offsets[";
constexpr std::string_view kFill = "layout.fill[";
constexpr std::string_view kTruncate = "layout.truncate";

std::string indexed(std::string_view list, std::size_t index) {
  std::string out(list);
  out += std::to_string(index);
  out += ']';
  return out;
}

}  // namespace

std::string mapPartPath(const MapPart& part) {
  switch (part.kind) {
    case MapPart::Kind::Map: return {};
    case MapPart::Kind::Dictionary: return indexed(kDictionaries, part.index);
    case MapPart::Kind::Instantiation: return indexed(kInstantiations, part.index);
    case MapPart::Kind::Type: {
      std::string out = indexed(kInstantiations, part.index);
      out.pop_back();
      return indexed(out + std::string(kTypes), part.type);
    }
    case MapPart::Kind::Offset: return indexed(kOffsets, part.index);
    case MapPart::Kind::Fill: return indexed(kFill, part.index);
    case MapPart::Kind::Truncate: return std::string(kTruncate);
  }
  return {};
}

MapPart mapPartOf(const Error& error) {
  const std::string_view path = error.path;
  MapPart part;
  part.index = error.index.value_or(0);
  if (path == kTruncate) {
    part.kind = MapPart::Kind::Truncate;
  } else if (path.starts_with(kDictionaries)) {
    part.kind = MapPart::Kind::Dictionary;
  } else if (path.starts_with(kOffsets)) {
    part.kind = MapPart::Kind::Offset;
  } else if (path.starts_with(kFill)) {
    part.kind = MapPart::Kind::Fill;
  } else if (path.starts_with(kInstantiations)) {
    // The type's index is the one number the index field does not hold.
    const std::size_t types = path.find(kTypes);
    part.kind = types == std::string_view::npos ? MapPart::Kind::Instantiation : MapPart::Kind::Type;
    if (types != std::string_view::npos) {
      const char* digits = path.data() + types + kTypes.size();
      std::from_chars(digits, path.data() + path.size(), part.type);
    }
  }
  return part;
}

namespace detail {

Error partError(const MapPart& part, std::string message, std::string rule) {
  Error e{0, std::move(message), std::move(rule)};
  e.path = mapPartPath(part);
  if (part.kind != MapPart::Kind::Map && part.kind != MapPart::Kind::Truncate) e.index = part.index;
  return e;
}

}  // namespace detail
}  // namespace gdmap
