#pragma once
// The fields every range of `hexdump --json` and `il hexdump --json` ends
// with, written alike: meaning, the bytes in hex, status, and the rule and
// message of a problem there, when there is one.
#include <gdmap/schema/bytes.hpp>

#include <string>
#include <string_view>

namespace gdmap::cli {

void appendRangeTail(std::string_view meaning, ByteSpan bytes, std::string_view status, std::string_view rule,
                     std::string_view message, std::string& out);

}  // namespace gdmap::cli
