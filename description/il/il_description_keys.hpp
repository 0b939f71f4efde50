#pragma once
// The keys of the IL-to-native description (docs/il-map.md), each spelled
// here once: the reader's key table (il_description_json.cpp) and the
// writer (il_description_writer.cpp) name a key by these constants.
#include <string_view>

namespace gdmap::description::il_key {

// The description's.
inline constexpr std::string_view kSchema = "$schema";
inline constexpr std::string_view kMethods = "methods";

// A method's.
inline constexpr std::string_view kToken = "token";
inline constexpr std::string_view kCodeSize = "codeSize";
inline constexpr std::string_view kBounds = "bounds";
inline constexpr std::string_view kMap = "map";
inline constexpr std::string_view kRaw = "raw";
inline constexpr std::string_view kLayout = "layout";
inline constexpr std::string_view kInstantiation = "instantiation";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kSignature = "signature";
inline constexpr std::string_view kDocument = "document";
inline constexpr std::string_view kComponent = "component";
inline constexpr std::string_view kCode = "code";
inline constexpr std::string_view kModule = "module";
inline constexpr std::string_view kMethodDesc = "methodDesc";
inline constexpr std::string_view kDynamic = "dynamic";
inline constexpr std::string_view kCodeVersion = "codeVersion";

// A code version's.
inline constexpr std::string_view kKind = "kind";
inline constexpr std::string_view kTier = "tier";
inline constexpr std::string_view kIlVersion = "ilVersion";
inline constexpr std::string_view kActive = "active";

// A code range's.
inline constexpr std::string_view kRva = "rva";
inline constexpr std::string_view kAddress = "address";
inline constexpr std::string_view kSize = "size";

// A layout's.
inline constexpr std::string_view kCount = "count";
inline constexpr std::string_view kNativeBits = "nativeBits";
inline constexpr std::string_view kIlBits = "ilBits";
inline constexpr std::string_view kNibbles = "nibbles";
inline constexpr std::string_view kPadding = "padding";
inline constexpr std::string_view kHeaderPadding = "headerPadding";
inline constexpr std::string_view kVerbatimSource = "verbatimSource";
inline constexpr std::string_view kTrailing = "trailing";
inline constexpr std::string_view kTruncate = "truncate";

// An instantiation's.
inline constexpr std::string_view kType = "type";
inline constexpr std::string_view kMethod = "method";
inline constexpr std::string_view kUnboxingStub = "unboxingStub";
inline constexpr std::string_view kAsyncVariant = "asyncVariant";
inline constexpr std::string_view kResumptionStub = "resumptionStub";

// A bound's (il also an API entry's; document also a bound's).
inline constexpr std::string_view kNative = "native";
inline constexpr std::string_view kIl = "il";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kLine = "line";
inline constexpr std::string_view kColumn = "column";

// An API entry's.
inline constexpr std::string_view kNativeStart = "nativeStart";
inline constexpr std::string_view kNativeEnd = "nativeEnd";

}  // namespace gdmap::description::il_key
