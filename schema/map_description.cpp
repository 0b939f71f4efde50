// The JSON pointers of a description's parts, derived from its indexes.
#include <gdmap/schema/map_description.hpp>

#include <cstdint>

namespace gdmap {
namespace {

constexpr std::size_t kNoUse = SIZE_MAX;

// The pointer of instantiation `index`, first used by dictionary `firstUse`
// (kNoUse when none is).
std::string pointerOf(const MapDescription& description, std::size_t index, std::size_t firstUse) {
  if (index >= description.instantiations.size()) return {};
  const InstantiationDescription& inst = description.instantiations[index];
  if (!inst.name.empty()) {
    std::string out = "/instantiations/";
    out += escapePointerToken(inst.name);
    return out;
  }
  // An unnamed instantiation is a dictionary's own `types` or `raw` member:
  // the parser makes one per such dictionary, and a writer spells it out
  // inline at every use, the first of which is its earliest definition.
  if (firstUse == kNoUse) return {};
  std::string out = dictionaryPointer(firstUse);
  out += inst.raw ? "/raw" : "/types";
  return out;
}

}  // namespace

LayoutOverrides::LayoutOverrides() = default;
LayoutOverrides::~LayoutOverrides() = default;
LayoutOverrides::LayoutOverrides(const LayoutOverrides&) = default;
LayoutOverrides::LayoutOverrides(LayoutOverrides&&) noexcept = default;
LayoutOverrides& LayoutOverrides::operator=(const LayoutOverrides&) = default;
LayoutOverrides& LayoutOverrides::operator=(LayoutOverrides&&) noexcept = default;

bool LayoutOverrides::any() const {
  return !offsets.empty() || count || duplicateRvas || !fill.empty() || !trailing.empty() || truncate;
}

std::string escapePointerToken(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string dictionaryPointer(std::size_t index) {
  // Appended rather than "literal" + std::string: g++ 12 at -O2 warns
  // falsely (-Wrestrict, GCC bug 105329) on that form.
  std::string out = "/dictionaries/";
  out += std::to_string(index);
  return out;
}

std::string instantiationPointer(const MapDescription& description, std::size_t index) {
  std::size_t firstUse = kNoUse;
  const bool named = index < description.instantiations.size() && !description.instantiations[index].name.empty();
  for (std::size_t i = 0; !named && i < description.dictionaries.size(); ++i) {
    if (description.dictionaries[i].instantiation == index) {
      firstUse = i;
      break;
    }
  }
  return pointerOf(description, index, firstUse);
}

InstantiationPointers::InstantiationPointers(const MapDescription& description)
    : description_(description), firstUse_(description.instantiations.size(), kNoUse) {
  for (std::size_t i = description.dictionaries.size(); i-- > 0;) {
    const std::size_t used = description.dictionaries[i].instantiation;
    if (used < firstUse_.size()) firstUse_[used] = i;  // backwards: the first use is written last
  }
}

std::string InstantiationPointers::operator()(std::size_t index) const {
  return pointerOf(description_, index, index < firstUse_.size() ? firstUse_[index] : kNoUse);
}

}  // namespace gdmap
