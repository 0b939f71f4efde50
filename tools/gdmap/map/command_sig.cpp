// gdmap sig encode|decode: ILAsm type text <-> signature bytes, one
// item per operand or, with no operands, one per stdin line.
#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "common/file_io.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {

// Converts one item, appending the result to `out`; on failure fills
// `failure` (offset: a byte index in the item's text) and returns false.
using Converter = std::function<bool(std::string_view item, std::string& out, Error& failure)>;

Error withRule(Error error, const char* fallback) {
  if (error.rule.empty()) error.rule = fallback;
  return error;
}

bool encodeItem(std::string_view text, std::string& out, Error& failure, const TypeNames* names) {
  auto type = names != nullptr ? parseType(text, *names) : parseType(text);
  if (!type) {
    failure = withRule(type.error(), rules::kInvalidType);
    return false;
  }
  auto bytes = encodeType(*type);
  if (!bytes) {
    // The text is fine; the type cannot be written: no column to blame.
    failure = withRule(bytes.error(), rules::kInvalidType);
    failure.offset = 0;
    return false;
  }
  appendHex(*bytes, out);
  return true;
}

// Where the digits of byte `index` start in hex text with white space.
std::size_t textIndexOfByte(std::string_view text, std::size_t index) {
  std::size_t digits = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n') continue;
    if (digits == 2 * index) return i;
    ++digits;
  }
  return text.size();
}

bool decodeItem(std::string_view text, std::string& out, Error& failure, const TypeNames* names) {
  auto bytes = parseHex(text);
  if (!bytes) {
    failure = withRule(bytes.error(), rules::kInvalidHex);
    return false;
  }
  auto type = decodeTypeBlob(*bytes);
  if (!type) {
    const std::size_t at = type.error().offset;
    failure = withRule(type.error(), rules::kInvalidType);
    failure.offset = textIndexOfByte(text, at);
    failure.message = "byte " + std::to_string(at) + ": " + failure.message;
    return false;
  }
  if (names != nullptr) {
    formatType(*type, out, *names);
  } else {
    formatType(*type, out);
  }
  return true;
}

// Results as they come: lines on stdout (a failed item gives an empty line,
// so results stay aligned with their inputs), or the "results" array of the
// JSON object (null for a failed item). Buffered; never the whole output
// in memory.
class Results {
 public:
  explicit Results(Report& report) : report_(report) {
    if (report_.json()) report_.object().beginArray("results");
  }

  void convert(std::string_view item, const Converter& converter, const std::string& file, std::size_t line) {
    ++items_;
    const std::size_t start = text_.size();
    Error failure;
    if (converter(item, text_, failure)) {
      if (report_.json()) {
        report_.object().arrayString(std::string_view(text_).substr(start));
        text_.resize(start);
      } else {
        text_ += '\n';
      }
    } else {
      ++failed_;
      text_.resize(start);
      if (report_.json()) {
        report_.object().arrayNull();
      } else {
        text_ += '\n';
      }
      Diagnostic d = textDiagnostic(failure, item, line);
      d.file = file;
      report_.add(std::move(d));
    }
    if (text_.size() >= (std::size_t{1} << 16)) flush();
  }

  // The closing fields; the exit status.
  int finish() {
    flush();
    if (report_.json()) {
      report_.object().endArray();
      report_.object().number("items", items_);
      report_.object().number("failed", failed_);
    }
    return failed_ == 0 ? kSuccess : kInvalid;
  }

 private:
  void flush() {
    std::cout.write(text_.data(), static_cast<std::streamsize>(text_.size()));
    text_.clear();
  }

  Report& report_;
  std::string text_;
  std::size_t items_ = 0;
  std::size_t failed_ = 0;
};

int convertOperands(const std::vector<std::string>& items, const Converter& converter, Report& report) {
  Results results(report);
  for (std::size_t i = 0; i < items.size(); ++i)
    results.convert(items[i], converter, "argument " + std::to_string(i + 1), 1);
  return results.finish();
}

enum class LineRead { Line, End, TooLong };

// The next line of `in` into `line`, its '\n' dropped, as std::getline
// reads it, but never more than `cap` bytes: an endless line stops at the
// cap. A read error throws std::ios_base::failure (libstdc++'s filebuf).
LineRead readLine(std::streambuf& in, std::string& line, std::size_t cap) {
  line.clear();
  for (;;) {
    const int c = in.sbumpc();
    if (c == std::char_traits<char>::eof()) return line.empty() ? LineRead::End : LineRead::Line;
    if (c == '\n') return LineRead::Line;
    if (line.size() == cap) return LineRead::TooLong;
    line.push_back(static_cast<char>(c));
  }
}

// Lines stream through: one is held at a time, at most maxStreamInput()
// bytes; with --json every result is held until the object is written, so
// the whole input is held to that cap too.
int convertLines(const Converter& converter, Report& report) {
  const auto cap = maxStreamInput();
  if (!cap) return report.fail(kUsageOrIo, rules::kUsage, cap.error().message);
  std::ios::sync_with_stdio(false);
  Results results(report);
  const std::string stdinName = "stdin";
  std::string line;
  std::size_t lineNumber = 0;
  std::size_t read = 0;  // bytes before the line
  for (;;) {
    const std::size_t room = report.json() ? *cap - std::min(read, *cap) : *cap;
    LineRead got = LineRead::End;
    try {
      got = readLine(*std::cin.rdbuf(), line, room);
    } catch (const std::ios_base::failure&) {
      results.finish();
      return report.fail(kUsageOrIo, rules::kInputUnreadable, "cannot read", stdinName);
    }
    if (got == LineRead::End) break;
    ++lineNumber;
    if (got == LineRead::TooLong) {
      results.finish();
      Diagnostic d;
      d.rule = rules::kInputTooLarge;
      d.file = stdinName;
      d.offset = read + room;
      d.message = report.json() ? "more than " + std::to_string(*cap) +
                                      " bytes, the most gdmap holds with --json (GDMAP_MAX_INPUT_SIZE raises it)"
                                : "line " + std::to_string(lineNumber) + " is longer than " + std::to_string(*cap) +
                                      " bytes, the most gdmap holds (GDMAP_MAX_INPUT_SIZE raises it)";
      report.add(std::move(d));
      return kUsageOrIo;
    }
    read += line.size() + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    results.convert(line, converter, stdinName, lineNumber);
  }
  return results.finish();
}

int sig(const SigOptions& options, Report& report) {
  std::unique_ptr<TypeNames> names;
  if (!options.names.empty() && !(names = loadTypeNames(options.names, report))) return kUsageOrIo;
  const auto convert = options.direction == SigOptions::Direction::Encode ? encodeItem : decodeItem;
  const Converter converter = [convert, raw = names.get()](std::string_view item, std::string& out, Error& failure) {
    return convert(item, out, failure, raw);
  };
  return options.items.empty() ? convertLines(converter, report) : convertOperands(options.items, converter, report);
}

}  // namespace

int runSig(const SigOptions& options, Report& report) {
  return runToVerdict(sig, options, report, {"results", "items", "failed"});
}

}  // namespace gdmap::cli
