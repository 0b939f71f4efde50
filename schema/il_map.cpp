// Names and small helpers of the IL-to-native map model.
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/il_map.hpp>

#include <array>
#include <utility>

namespace gdmap::il {
namespace {

constexpr std::array<std::pair<std::uint32_t, std::string_view>, 3> kSpecialNames = {{
    {kProlog, "prolog"},
    {kEpilog, "epilog"},
    {kNoMapping, "no_mapping"},
}};

// In bit order, so that sourceText lists flags as the runtime numbers them.
constexpr std::array<std::pair<std::uint32_t, std::string_view>, 6> kFlagNames = {{
    {source::kSequencePoint, "sequence_point"},
    {source::kStackEmpty, "stack_empty"},
    {source::kCallSite, "call_site"},
    {source::kNativeEndOffsetUnknown, "native_end_offset_unknown"},
    {source::kCallInstruction, "call_instruction"},
    {source::kAsync, "async"},
}};

constexpr std::array<std::pair<BoundsForm, std::string_view>, 4> kFormNames = {{
    {BoundsForm::Api, "api"},
    {BoundsForm::Nibble, "nibble"},
    {BoundsForm::Packed2, "packed2"},
    {BoundsForm::Packed3, "packed3"},
}};

constexpr std::array<std::pair<CodeKind, const char*>, 2> kCodeKindNames = {{
    {CodeKind::Jit, "jit"},
    {CodeKind::ReadyToRun, "r2r"},
}};

constexpr std::array<std::pair<OptimizationTier, const char*>, 6> kTierNames = {{
    {OptimizationTier::Tier0, "tier0"},
    {OptimizationTier::Tier1, "tier1"},
    {OptimizationTier::Tier1Osr, "tier1-osr"},
    {OptimizationTier::Optimized, "optimized"},
    {OptimizationTier::Tier0Instrumented, "tier0-instrumented"},
    {OptimizationTier::Tier1Instrumented, "tier1-instrumented"},
}};

template <typename Value, std::size_t N>
const char* nameOf(const std::array<std::pair<Value, const char*>, N>& names, Value value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return "?";
}

template <typename Value, std::size_t N>
std::optional<Value> valueOf(const std::array<std::pair<Value, const char*>, N>& names, std::string_view text) {
  for (const auto& [v, name] : names)
    if (text == name) return v;
  return std::nullopt;
}

}  // namespace

const char* codeKindName(CodeKind kind) { return nameOf(kCodeKindNames, kind); }
std::optional<CodeKind> parseCodeKind(std::string_view name) { return valueOf(kCodeKindNames, name); }
const char* tierName(OptimizationTier tier) { return nameOf(kTierNames, tier); }
std::optional<OptimizationTier> parseTier(std::string_view name) { return valueOf(kTierNames, name); }

std::string_view specialIlName(std::uint32_t ilOffset) {
  for (const auto& [value, name] : kSpecialNames)
    if (value == ilOffset) return name;
  return {};
}

std::optional<std::uint32_t> parseSpecialIl(std::string_view name) {
  for (const auto& [value, text] : kSpecialNames)
    if (text == name) return value;
  return std::nullopt;
}

std::string ilText(std::uint32_t ilOffset) {
  const std::string_view special = specialIlName(ilOffset);
  if (!special.empty()) return std::string(special);
  return shortHex(ilOffset);
}

std::string sourceFlagName(std::uint32_t bit) {
  for (const auto& [value, name] : kFlagNames)
    if (value == bit) return std::string(name);
  return shortHex(bit);
}

std::optional<std::uint32_t> parseSourceFlag(std::string_view name) {
  for (const auto& [value, text] : kFlagNames)
    if (text == name) return value;
  return std::nullopt;
}

std::string sourceText(std::uint32_t source) {
  if (source == 0) return "none";
  std::string out;
  for (std::uint32_t bit = 1; bit != 0; bit <<= 1) {
    if ((source & bit) == 0) continue;
    if (!out.empty()) out += '|';
    out += sourceFlagName(bit);
  }
  return out;
}

std::string_view formName(BoundsForm form) {
  for (const auto& [value, name] : kFormNames)
    if (value == form) return name;
  return "?";
}

std::optional<BoundsForm> parseFormName(std::string_view name) {
  for (const auto& [value, text] : kFormNames)
    if (text == name) return value;
  return std::nullopt;
}

std::uint32_t storableSource(BoundsForm form) {
  switch (form) {
    case BoundsForm::Api: return 0;
    case BoundsForm::Nibble:
      // The classic stream stores the raw value, but only runtimes before
      // async wrote it: FORMAT.md §3.3 makes bits outside 0x1F an error.
      return 0x1F;
    case BoundsForm::Packed2: return source::kCallInstruction | source::kStackEmpty;
    case BoundsForm::Packed3: return source::kCallInstruction | source::kStackEmpty | source::kAsync;
  }
  return 0;
}

std::optional<std::size_t> firstDescendingBound(std::span<const Bound> bounds) {
  for (std::size_t i = 1; i < bounds.size(); ++i)
    if (bounds[i].nativeOffset < bounds[i - 1].nativeOffset) return i;
  return std::nullopt;
}

namespace {

void appendArguments(const std::vector<std::string>& arguments, std::string& out) {
  out += '<';
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) out += ", ";
    out += arguments[i];
  }
  out += '>';
}

std::string withoutSpace(std::string_view text) {
  std::string kept;
  for (const char c : text) {
    if (c != ' ' && c != '\t') kept += c;
  }
  return kept;
}

}  // namespace

std::string instantiationText(const std::optional<Instantiation>& instantiation) {
  if (!instantiation) return "(none)";
  std::string text;
  if (!instantiation->typeArguments.empty()) appendArguments(instantiation->typeArguments, text);
  if (!instantiation->methodArguments.empty()) {
    text += "::";
    appendArguments(instantiation->methodArguments, text);
  }
  const auto flag = [&](bool set, const char* word) {
    if (!set) return;
    if (!text.empty()) text += ' ';
    text += word;
  };
  flag(instantiation->unboxingStub, "unboxing");
  flag(instantiation->asyncVariant, "async");
  flag(instantiation->resumptionStub, "resumption");
  return text.empty() ? "<>" : text;
}

bool sameInstantiationText(std::string_view given, std::string_view text) {
  return withoutSpace(given) == withoutSpace(text);
}

std::string varintPath(VarintField field, std::uint32_t bound) {
  switch (field) {
    case VarintField::Count: return "header.count";
    case VarintField::NativeBits: return "header.nativeBits";
    case VarintField::IlBits: return "header.ilBits";
    case VarintField::Native: return "bounds[" + std::to_string(bound) + "].native";
    case VarintField::Il: return "bounds[" + std::to_string(bound) + "].il";
    case VarintField::Source: return "bounds[" + std::to_string(bound) + "].source";
  }
  return {};
}

std::optional<VarintLength> parseVarintPath(std::string_view path) {
  if (path == "header.count") return VarintLength{VarintField::Count, 0, 0};
  if (path == "header.nativeBits") return VarintLength{VarintField::NativeBits, 0, 0};
  if (path == "header.ilBits") return VarintLength{VarintField::IlBits, 0, 0};
  constexpr std::string_view kBounds = "bounds[";
  if (!path.starts_with(kBounds)) return std::nullopt;
  path.remove_prefix(kBounds.size());
  std::uint64_t index = 0;
  std::size_t digits = 0;
  while (digits < path.size() && path[digits] >= '0' && path[digits] <= '9') {
    index = index * 10 + static_cast<std::uint64_t>(path[digits] - '0');
    if (index > 0xFFFFFFFFu) return std::nullopt;
    ++digits;
  }
  // One spelling per index: no leading zero (so a path names one field).
  if (digits == 0 || (digits > 1 && path[0] == '0')) return std::nullopt;
  path.remove_prefix(digits);
  const auto bound = static_cast<std::uint32_t>(index);
  if (path == "].native") return VarintLength{VarintField::Native, bound, 0};
  if (path == "].il") return VarintLength{VarintField::Il, bound, 0};
  if (path == "].source") return VarintLength{VarintField::Source, bound, 0};
  return std::nullopt;
}

}  // namespace gdmap::il
