#include <gdmap/io/stream_input.hpp>

#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

#include <fcntl.h>
#include <unistd.h>

namespace gdmap {

StreamInput::StreamInput(int fd, std::string name, std::size_t cap, bool owned)
    : fd_(fd), owned_(owned), name_(std::move(name)), cap_(cap) {}

Expected<StreamInput> StreamInput::open(const std::string& path, std::size_t cap) {
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return Error{0, path + ": cannot open: " + std::strerror(errno), rules::kInputUnreadable};
  return StreamInput(fd, path, cap, true);
}

StreamInput::StreamInput(StreamInput&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      owned_(std::exchange(other.owned_, false)),
      ended_(other.ended_),
      name_(std::move(other.name_)),
      cap_(other.cap_),
      bytes_(std::move(other.bytes_)),
      error_(std::move(other.error_)) {}

StreamInput::~StreamInput() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

namespace {

// read(2), again when a signal interrupts it.
ssize_t readSome(int fd, void* into, std::size_t size) {
  ssize_t n = 0;
  do {
    n = ::read(fd, into, size);
  } while (n < 0 && errno == EINTR);
  return n;
}

}  // namespace

ByteSpan StreamInput::next() {
  if (ended_) return {};
  const std::size_t held = bytes_.size();
  if (held == cap_) {
    // Full: one more byte, read aside (the buffer never grows past the
    // cap), says whether the stream was exactly that long.
    std::uint8_t probe = 0;
    end(readSome(fd_, &probe, 1), held);
    return {};
  }
  const std::size_t want = std::min(cap_ - held, kChunk);
  // Doubling, as a vector grows, but never past the cap: a stream of the
  // cap's size is held in the cap's memory.
  if (held + want > bytes_.capacity()) bytes_.reserve(std::min(cap_, std::max(2 * bytes_.capacity(), held + want)));
  bytes_.resize(held + want);
  const ssize_t n = readSome(fd_, bytes_.data() + held, want);
  const int readErrno = errno;
  bytes_.resize(held + (n > 0 ? static_cast<std::size_t>(n) : 0));
  if (n > 0) return ByteSpan(bytes_).subspan(held);
  errno = readErrno;
  end(n, held);
  return {};
}

void StreamInput::end(long lastRead, std::size_t held) {
  ended_ = true;
  if (lastRead < 0) {
    error_ = Error{held, name_ + ": cannot read: " + std::strerror(errno), rules::kInputUnreadable};
  } else if (lastRead > 0) {  // a byte past the cap
    error_ = Error{cap_,
                   name_ + ": more than " + std::to_string(cap_) +
                       " bytes from a pipe or device, the most gdmap holds (GDMAP_MAX_INPUT_SIZE raises it; a "
                       "regular file is mapped, not held)",
                   rules::kInputTooLarge};
  }
}

void StreamInput::readAll() {
  while (!next().empty()) {}
}

std::optional<std::size_t> parseByteSize(const std::string& text) {
  std::size_t value = 0;
  std::size_t i = 0;
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const auto digit = static_cast<std::size_t>(text[i] - '0');
    if (value > (kMax - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0) return std::nullopt;
  if (i == text.size()) return value;
  if (i + 1 != text.size()) return std::nullopt;
  unsigned shift = 0;
  switch (text[i]) {
    case 'K': shift = 10; break;
    case 'M': shift = 20; break;
    case 'G': shift = 30; break;
    case 'T': shift = 40; break;
    default: return std::nullopt;
  }
  if (value > (kMax >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace gdmap
