// The description builder's fast hex decoder (gdmap/internal/plain_hex.hpp)
// against parseHex(), which it stands in for on plain digits: the same bytes
// where it accepts, nothing appended where it declines.
#include <gdmap/internal/plain_hex.hpp>
#include <gdmap/schema/hex.hpp>

#include <doctest/doctest.h>

#include <random>
#include <string>

TEST_CASE("appendPlainHex decodes what parseHex decodes and declines the rest untouched") {
  std::mt19937_64 random(2611);
  static constexpr char kAlphabet[] = "0123456789abcdefABCDEF g-\t";
  std::size_t accepted = 0;
  std::size_t declined = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    const std::size_t length = random() % 12;
    // Mostly digits, sometimes a space or a character no hex string holds.
    const std::size_t alphabet = round % 4 == 0 ? sizeof kAlphabet - 1 : 22;
    for (std::size_t i = 0; i < length; ++i) text += kAlphabet[random() % alphabet];
    gdmap::Bytes out = {0xAA};
    const bool plain = gdmap::detail::appendPlainHex(text, out);
    const gdmap::Expected<gdmap::Bytes> parsed = gdmap::parseHex(text);
    INFO("text '" << text << "'");
    if (plain) {
      ++accepted;
      REQUIRE(parsed.ok());
      gdmap::Bytes expected = {0xAA};
      expected.insert(expected.end(), parsed->begin(), parsed->end());
      CHECK(out == expected);
    } else {
      ++declined;
      CHECK(out == gdmap::Bytes{0xAA});
      // Declined: odd, white space or not hex; parseHex accepts only the
      // white-space case.
      if (parsed.ok()) CHECK(text.find_first_of(" \t") != std::string::npos);
    }
  }
  CHECK(accepted > 5000);
  CHECK(declined > 5000);
}
