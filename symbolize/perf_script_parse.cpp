// The lines of `perf script` text, read one at a time (perf_script.hpp):
// mappings, tasks, sample headers and callchain frames. Every parser
// checks each field before it uses it and reads nothing past the line.
#include <gdmap/symbolize/perf_script.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gdmap::symbolize {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Hexadecimal, with or without 0x, at most 64 bits.
std::optional<std::uint64_t> parseHex(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    const int digit = hexDigit(c);
    if (digit < 0) return std::nullopt;
    value = value << 4 | static_cast<std::uint64_t>(digit);
  }
  return value;
}

// Decimal, below 2^32.
std::optional<std::uint32_t> parseDecimal(std::string_view text) {
  if (text.empty() || text.size() > 10) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (value > 0xFFFFFFFFu) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

bool allDigits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// "PID/TID".
std::optional<PerfTask> parsePidTid(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::optional<std::uint32_t> pid = parseDecimal(text.substr(0, slash));
  const std::optional<std::uint32_t> tid = parseDecimal(text.substr(slash + 1));
  if (!pid || !tid) return std::nullopt;
  return PerfTask{*pid, *tid};
}

// Takes the text up to `stop` from `text` (dropping `stop`); nothing when
// `stop` is not there.
std::optional<std::string_view> takeUntil(std::string_view& text, std::string_view stop) {
  const std::size_t at = text.find(stop);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view taken = text.substr(0, at);
  text.remove_prefix(at + stop.size());
  return taken;
}

// "[0xBEGIN(0xLEN) @ OFFSET ...]: PERMS PATH", after the PID/TID.
bool parseMmapRange(std::string_view rest, PerfMmap& out) {
  rest = trimmed(rest);
  if (rest.empty() || rest.front() != '[') return false;
  rest.remove_prefix(1);
  const std::optional<std::string_view> begin = takeUntil(rest, "(");
  const std::optional<std::string_view> length = begin ? takeUntil(rest, ")") : std::nullopt;
  if (!length || !rest.starts_with(" @ ")) return false;
  rest.remove_prefix(3);
  const std::size_t offsetEnd = rest.find_first_of(" ]");
  const std::optional<std::uint64_t> b = parseHex(*begin);
  const std::optional<std::uint64_t> n = parseHex(*length);
  const std::optional<std::uint64_t> o = parseHex(rest.substr(0, offsetEnd));
  if (!b || !n || !o || *n == 0 || *b + *n < *b || !takeUntil(rest, "]: ")) return false;
  const std::size_t permsEnd = rest.find(' ');
  if (permsEnd == std::string_view::npos) return false;
  out.begin = *b;
  out.length = *n;
  out.offset = *o;
  out.path = trimmed(rest.substr(permsEnd + 1));
  return !out.path.empty();
}

}  // namespace

std::optional<PerfMmap> parsePerfMmap(std::string_view line) {
  std::string_view rest = line;
  if (!takeUntil(rest, "PERF_RECORD_MMAP")) return std::nullopt;
  if (rest.starts_with("2")) rest.remove_prefix(1);
  if (!rest.starts_with(" ")) return std::nullopt;
  const std::optional<std::string_view> ids = takeUntil(rest, ":");
  const std::optional<PerfTask> task = ids ? parsePidTid(trimmed(*ids)) : std::nullopt;
  if (!task) return std::nullopt;  // also the kernel's (-1/0)
  PerfMmap out;
  out.pid = task->pid;
  out.tid = task->tid;
  if (!parseMmapRange(rest, out)) return std::nullopt;
  return out;
}

std::optional<PerfTask> parsePerfTask(std::string_view line) {
  std::string_view rest = line;
  if (takeUntil(rest, "PERF_RECORD_FORK(")) {  // PERF_RECORD_FORK(PID:TID):(PPID:PTID)
    const std::optional<std::string_view> ids = takeUntil(rest, ")");
    const std::size_t colon = ids ? ids->find(':') : std::string_view::npos;
    if (colon == std::string_view::npos) return std::nullopt;
    const std::optional<std::uint32_t> pid = parseDecimal(ids->substr(0, colon));
    const std::optional<std::uint32_t> tid = parseDecimal(ids->substr(colon + 1));
    if (!pid || !tid) return std::nullopt;
    return PerfTask{*pid, *tid};
  }
  rest = line;
  if (!takeUntil(rest, "PERF_RECORD_COMM")) return std::nullopt;  // PERF_RECORD_COMM[ exec]: COMM:PID/TID
  rest = trimmed(rest);
  const std::size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) return std::nullopt;
  return parsePidTid(rest.substr(colon + 1));
}

std::optional<PerfFrame> parsePerfFrame(std::string_view line) {
  line = trimmed(line);
  if (line.empty() || line.back() != ')') return std::nullopt;
  // The DSO: the final parenthesized group, nested parentheses counted
  // ("(/memfd:doublemapper (deleted))").
  std::size_t depth = 0;
  std::size_t open = line.size();
  for (std::size_t i = line.size(); i-- > 0;) {
    if (line[i] == ')') ++depth;
    if (line[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == line.size() || open == 0 || line[open - 1] != ' ') return std::nullopt;
  PerfFrame frame;
  frame.dso = line.substr(open + 1, line.size() - open - 2);
  const std::string_view head = trimmed(line.substr(0, open));
  const std::size_t addressEnd = head.find_first_of(" \t");
  const std::optional<std::uint64_t> address = parseHex(head.substr(0, addressEnd));
  if (!address) return std::nullopt;
  frame.address = *address;
  if (addressEnd != std::string_view::npos) frame.symbol = trimmed(head.substr(addressEnd));
  return frame;
}

namespace {

// The words of a line and where each starts.
struct Word {
  std::string_view text;
  std::size_t at = 0;
};

std::vector<Word> wordsOf(std::string_view line) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !isSpace(line[i])) ++i;
    if (i > start) words.push_back({line.substr(start, i - start), start});
  }
  return words;
}

// "SECONDS.FRACTION:", the time of a sample.
bool isTime(std::string_view word) {
  if (word.size() < 4 || word.back() != ':') return false;
  word.remove_suffix(1);
  const std::size_t dot = word.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == word.size()) return false;
  return allDigits(word.substr(0, dot)) && allDigits(word.substr(dot + 1));
}

bool isCpu(std::string_view word) {
  return word.size() > 2 && word.front() == '[' && word.back() == ']' &&
         parseDecimal(word.substr(1, word.size() - 2)).has_value();
}

}  // namespace

std::optional<PerfSample> parsePerfSample(std::string_view line) {
  // perf pads the command's name on the left; a tab starts a frame.
  const std::size_t first = line.find_first_not_of(' ');
  if (first == std::string_view::npos || line[first] == '\t' || line.find("PERF_RECORD_") != std::string_view::npos)
    return std::nullopt;
  const std::vector<Word> words = wordsOf(line);
  std::size_t time = 1;  // the first word is (part of) the command's name
  while (time < words.size() && !isTime(words[time].text)) ++time;
  if (time >= words.size()) return std::nullopt;
  std::size_t ids = time - 1;
  if (ids > 0 && isCpu(words[ids].text)) --ids;
  if (ids == 0) return std::nullopt;
  PerfSample sample;
  if (const std::optional<PerfTask> both = parsePidTid(words[ids].text)) {
    sample.pid = both->pid;
    sample.tid = both->tid;
  } else if (const std::optional<std::uint32_t> tid = parseDecimal(words[ids].text)) {
    sample.tid = *tid;
  } else {
    return std::nullopt;
  }
  // [PERIOD] EVENT: then, without callchains, the sample's own frame.
  std::size_t next = time + 1;
  if (next < words.size() && allDigits(words[next].text)) ++next;
  if (next < words.size() && words[next].text.back() == ':' && next + 1 < words.size())
    sample.frame = parsePerfFrame(line.substr(words[next + 1].at));
  return sample;
}

}  // namespace gdmap::symbolize
