#pragma once
// An input that cannot be mapped (a pipe, a FIFO, a device, a socket:
// stdin, `<(...)`, /dev/zero) read into memory chunk by chunk, never more
// than a cap: an endless or huge stream ends in a located error, not in
// exhausted memory, and a caller that can tell the input is bad early (a
// JSON syntax check) stops reading it there.
// POSIX only, like MappedFile.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace gdmap {

// What a stream may hold unless the user says otherwise (1 GiB).
inline constexpr std::size_t kDefaultMaxStreamInput = std::size_t{1} << 30;

class StreamInput {
 public:
  // Reads the descriptor `fd` (not closed here unless `owned`), called
  // `name` in messages, holding at most `cap` bytes.
  StreamInput(int fd, std::string name, std::size_t cap, bool owned);
  // Opens `path` for reading (rule input-unreadable, naming the path).
  static Expected<StreamInput> open(const std::string& path, std::size_t cap);

  StreamInput(StreamInput&& other) noexcept;
  StreamInput& operator=(StreamInput&&) = delete;
  StreamInput(const StreamInput&) = delete;
  StreamInput& operator=(const StreamInput&) = delete;
  ~StreamInput();

  // Reads the next chunk (at most kChunk bytes) onto the end of bytes() and
  // returns it; empty at the end of the stream, after a read error or when
  // more than `cap` bytes come (error() says which). The span is valid
  // until the next call.
  ByteSpan next();
  // Reads to the end (or the error).
  void readAll();

  // What was read so far.
  const Bytes& bytes() const { return bytes_; }
  Bytes take() && { return std::move(bytes_); }
  // Why reading stopped early: input-unreadable (the system's reason), or
  // input-too-large at byte offset `cap`; each message names the input.
  const std::optional<Error>& error() const { return error_; }

  static constexpr std::size_t kChunk = std::size_t{1} << 16;

 private:
  // Reading has ended: `lastRead` is what read(2) returned last (0: the
  // stream's end; negative: errno's error; positive: a byte past the cap).
  void end(long lastRead, std::size_t held);

  int fd_ = -1;
  bool owned_ = false;
  bool ended_ = false;
  std::string name_;
  std::size_t cap_ = 0;
  Bytes bytes_;
  std::optional<Error> error_;
};

// A size as the user writes one: decimal bytes, or with a binary suffix K,
// M, G or T (64M is 64 MiB); nullopt when it is none.
std::optional<std::size_t> parseByteSize(const std::string& text);

}  // namespace gdmap
