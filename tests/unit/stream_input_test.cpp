// Reading what cannot be mapped (issue #20, item 5): gdmap::StreamInput
// holds a pipe's bytes up to a cap and no further, and checkJsonSyntax()
// stops asking for a description's pieces at its first invalid byte. The
// CLI side (GDMAP_MAX_INPUT_SIZE, `yes | gdmap build -`) is
// tests/cli/input_bounded.sh.
#include <gdmap/description/json_syntax.hpp>
#include <gdmap/io/stream_input.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace {

// A pipe holding `text`, its write end closed: read to its end, it ends.
struct FilledPipe {
  int read = -1;
  explicit FilledPipe(const std::string& text) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    // Room for more than one chunk, so that the write does not wait for a
    // reader (Linux; 1 MiB is what an unprivileged process may ask).
    ::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
    REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    ::close(fds[1]);
    read = fds[0];
  }
};

std::string held(const gdmap::StreamInput& input) {
  return {reinterpret_cast<const char*>(input.bytes().data()), input.bytes().size()};
}

// checkJsonSyntax over `pieces`, counting how many it asked for.
bool checkPieces(const std::vector<std::string>& pieces, std::size_t& asked) {
  asked = 0;
  return gdmap::checkJsonSyntax([&]() -> std::string_view {
    if (asked == pieces.size()) return {};
    return pieces[asked++];
  });
}

}  // namespace

TEST_CASE("stream input: a stream of exactly the cap is whole, one byte more is input-too-large at the cap") {
  const std::string text(1000, 'x');
  {
    gdmap::StreamInput exact(FilledPipe(text).read, "pipe", 1000, true);
    exact.readAll();
    CHECK_FALSE(exact.error());
    CHECK(held(exact) == text);
  }
  gdmap::StreamInput over(FilledPipe(text).read, "pipe", 999, true);
  over.readAll();
  REQUIRE(over.error());
  CHECK(over.error()->rule == gdmap::rules::kInputTooLarge);
  CHECK(over.error()->offset == 999);
  CHECK(over.error()->message.rfind("pipe: more than 999 bytes", 0) == 0);
  CHECK(over.bytes().size() == 999);  // never more than the cap held
  CHECK(over.bytes().capacity() <= 999);
  // A cap of 0: only the empty stream fits.
  gdmap::StreamInput none(FilledPipe("").read, "empty", 0, true);
  none.readAll();
  CHECK_FALSE(none.error());
  gdmap::StreamInput one(FilledPipe("{").read, "one", 0, true);
  one.readAll();
  CHECK(one.error());
}

TEST_CASE("stream input: chunks come in order and stop at the end") {
  const std::string text(gdmap::StreamInput::kChunk + 10, 'y');
  gdmap::StreamInput input(FilledPipe(text).read, "pipe", gdmap::kDefaultMaxStreamInput, true);
  std::size_t total = 0;
  for (gdmap::ByteSpan piece = input.next(); !piece.empty(); piece = input.next()) {
    CHECK(piece.size() <= gdmap::StreamInput::kChunk);
    total += piece.size();
  }
  CHECK(total == text.size());
  CHECK(input.next().empty());
  CHECK_FALSE(input.error());
}

TEST_CASE("stream input: a read error names the input") {
  gdmap::StreamInput closed(-1, "stdin", 100, false);
  closed.readAll();
  REQUIRE(closed.error());
  CHECK(closed.error()->rule == gdmap::rules::kInputUnreadable);
  CHECK(closed.error()->message.rfind("stdin: cannot read: ", 0) == 0);
}

TEST_CASE("stream input: sizes as the user writes them") {
  CHECK(gdmap::parseByteSize("0") == 0u);
  CHECK(gdmap::parseByteSize("1000") == 1000u);
  CHECK(gdmap::parseByteSize("64K") == 65536u);
  CHECK(gdmap::parseByteSize("2M") == 2u << 20);
  CHECK(gdmap::parseByteSize("1G") == std::size_t{1} << 30);
  CHECK(gdmap::parseByteSize("3T") == std::size_t{3} << 40);
  for (const char* bad : {"", "K", "1KB", "1k", "-1", " 1", "1 ", "0x10", "99999999999999999999", "99999999999T"})
    CHECK_MESSAGE(!gdmap::parseByteSize(bad), bad);
}

TEST_CASE("json syntax: pieces stop being asked for after the first invalid byte") {
  std::size_t asked = 0;
  // 'y' at the first byte: the first piece is the last asked for.
  CHECK_FALSE(checkPieces({"y\ny\n", "y\ny\n", "y\n"}, asked));
  CHECK(asked == 1);
  CHECK_FALSE(checkPieces({"{\"a\"", ": 1,", " ]", "{}", "{}"}, asked));
  CHECK(asked == 3);
  // Tokens split across pieces, comments (as descriptions allow): valid,
  // every piece read.
  CHECK(checkPieces({"{\"dictio", "naries\": [tr", "ue, 1.5e", "3, \"\\u00e9\"] // note", "\n}"}, asked));
  CHECK(asked == 5);
  CHECK(checkPieces({"[1, /* two */ 2]", "", "  "}, asked));  // an empty piece is the end
  CHECK(asked == 2);
  // A valid value then more: invalid, at what follows.
  CHECK_FALSE(checkPieces({"{}", " {}", "{}"}, asked));
  CHECK(asked == 2);
  CHECK_FALSE(checkPieces({}, asked));  // no text is no JSON value
}
