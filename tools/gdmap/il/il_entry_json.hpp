#pragma once
// One GetILToNativeMapping entry as the `gdmap il` commands print it in
// JSON: {"il": 5 | "prolog", "nativeStart": 10, "nativeEnd": 17}.
#include <cstdint>
#include <string>

namespace gdmap::cli {

void appendEntryJson(std::uint32_t ilOffset, std::uint32_t nativeStart, std::uint32_t nativeEnd, std::string& out);

}  // namespace gdmap::cli
