// gdmap sig encode|decode [--json]: ILAsm type text <-> signature bytes, one
// item per operand or, with no operands, one per stdin line.
#include "commands.hpp"
#include "exit_status.hpp"
#include "report.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type_text.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include "type_names_input.hpp"

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

// At most this many failures are listed; the rest are counted (a file of a
// million bad lines gives a bounded report).
constexpr std::size_t kMaxListed = 100;

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

int convertLines(const Converter& converter, Report& report) {
  std::ios::sync_with_stdio(false);
  Results results(report);
  const std::string stdinName = "stdin";
  std::string line;
  std::size_t lineNumber = 0;
  while (std::getline(std::cin, line)) {
    ++lineNumber;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    results.convert(line, converter, stdinName, lineNumber);
  }
  const int status = results.finish();
  if (std::cin.bad()) return report.fail(kUsageOrIo, rules::kInputUnreadable, "stdin: cannot read");
  return status;
}

struct ConversionOptions {
  std::vector<std::string> items;
  std::string names;
  bool json = false;
};

using ItemConverter = bool (*)(std::string_view item, std::string& out, Error& failure, const TypeNames* names);

void addConversion(CLI::App& sig, const char* name, const char* help, const char* itemName, ItemConverter convert,
                   int& status) {
  auto* command = sig.add_subcommand(name, help);
  auto options = std::make_shared<ConversionOptions>();
  command->add_option(itemName, options->items, "Items to convert; none: read one per line from stdin");
  addNamesOption(*command, options->names);
  command->add_flag("--json", options->json, "Write the results and diagnostics as JSON on stdout");
  command->callback([options, convert, &status] {
    Report report(options->json, kMaxListed);
    std::unique_ptr<TypeNames> names;
    if (!options->names.empty()) {
      names = loadTypeNames(options->names, report);
      if (!names) {
        status = report.finish(kUsageOrIo);
        return;
      }
    }
    const Converter converter = [convert, raw = names.get()](std::string_view item, std::string& out, Error& failure) {
      return convert(item, out, failure, raw);
    };
    const int result =
        options->items.empty() ? convertLines(converter, report) : convertOperands(options->items, converter, report);
    status = report.finish(result);
  });
}

}  // namespace

void addSigCommand(CLI::App& app, int& status) {
  auto* sig = app.add_subcommand("sig", "Convert one ECMA-335 type signature between ILAsm text and bytes");
  sig->require_subcommand(1);
  addConversion(*sig, "encode",
                "ILAsm type text -> lowercase hex bytes, e.g. 'class 0x01000012<int32, !0[]>' -> 15124902081d1300",
                "TYPE", encodeItem, status);
  addConversion(*sig, "decode",
                "Hex bytes (spaces and either case allowed) -> ILAsm type text, e.g. '15 12 49 01 08' -> "
                "class 0x01000012<int32>",
                "HEX", decodeItem, status);
}

}  // namespace gdmap::cli
