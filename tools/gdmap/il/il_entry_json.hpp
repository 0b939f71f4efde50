#pragma once
// One GetILToNativeMapping entry as the `gdmap il` commands print it in
// JSON: {"il": 5 | "prolog", "nativeStart": 10, "nativeEnd": 17}.
#include <gdmap/description/json_writer.hpp>

#include <cstdint>

namespace gdmap::cli {

void writeEntryJson(JsonWriter& w, std::uint32_t ilOffset, std::uint32_t nativeStart, std::uint32_t nativeEnd);

}  // namespace gdmap::cli
