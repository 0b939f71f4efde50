#include "locate/address_lines.hpp"

#include "app/exit_status.hpp"
#include "il/il_arguments.hpp"

#include <gdmap/schema/rules.hpp>

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>
#include <iostream>
#include <vector>

namespace gdmap::cli {
namespace {

constexpr std::size_t kLongestLine = 4096;

// Calls `line` for each line of `fd` (without its newline), the output
// flushed before each wait for more input, so that a caller feeding
// addresses one at a time gets each answer at once.
template <typename Line>
void forEachLine(int fd, Line&& line) {
  std::vector<char> buffer(1 << 16);
  std::size_t have = 0;
  for (;;) {
    std::cout.flush();
    const ssize_t got = ::read(fd, buffer.data() + have, buffer.size() - have);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    have += static_cast<std::size_t>(got);
    std::size_t start = 0;
    for (std::size_t i = 0; i < have; ++i) {
      if (buffer[i] != '\n') continue;
      line(std::string_view(buffer.data() + start, i - start));
      start = i + 1;
    }
    if (start == 0 && have == buffer.size()) {  // a line longer than the buffer: cut
      line(std::string_view(buffer.data(), kLongestLine));
      have = 0;
      continue;
    }
    std::memmove(buffer.data(), buffer.data() + start, have - start);
    have -= start;
  }
  if (have > 0) line(std::string_view(buffer.data(), have));
}

}  // namespace

bool forEachAddressLine(const std::string& path, Report& report,
                        const std::function<void(std::string_view word, std::size_t line)>& word, std::size_t& lines) {
  const bool fromStdin = path.empty() || path == "-";
  const int fd = fromStdin ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    report.fail(kUsageOrIo, rules::kInputUnreadable, "--input " + path + ": " + std::strerror(errno));
    return false;
  }
  std::size_t number = 0;
  forEachLine(fd, [&](std::string_view line) {
    ++number;
    if (line.size() > kLongestLine) line = line.substr(0, kLongestLine);
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return;
    ++lines;
    word(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first), number);
  });
  if (!fromStdin) ::close(fd);
  return true;
}

std::string addressLineName(const std::string& path, std::size_t line) {
  return (path.empty() || path == "-" ? std::string("stdin") : path) + " line " + std::to_string(line);
}

namespace {

std::optional<std::uint64_t> parseOne(std::string_view text, AddressForm form) {
  if (form == AddressForm::Absolute) return parseAddress(text);
  const std::optional<std::uint32_t> rva = parseU32(text);
  return rva ? std::optional<std::uint64_t>(*rva) : std::nullopt;
}

std::string problemOf(const std::string& text, AddressForm form) {
  return (form == AddressForm::Rva ? "RVA " : "ADDRESS ") + quoteInput(text) + ": " +
         (form == AddressForm::Rva ? u32Problem(text) : addressProblem(text));
}

}  // namespace

bool parseAddresses(const std::vector<std::string>& texts, AddressForm form, std::vector<std::uint64_t>& values,
                    Report& report) {
  values.reserve(texts.size());
  for (const std::string& text : texts) {
    const std::optional<std::uint64_t> value = parseOne(text, form);
    if (!value) {
      report.fail(kUsageOrIo, rules::kUsage, problemOf(text, form));
      return false;
    }
    values.push_back(*value);
  }
  return true;
}

bool parseAddressOperands(const std::vector<std::string>& texts, AddressForm form, std::vector<std::uint64_t>& values,
                          Report& report) {
  if (!parseAddresses(texts, form, values, report)) return false;
  if (values.empty() && report.json()) {
    report.fail(kUsageOrIo, rules::kUsage,
                "--json needs the addresses on the command line (from stdin each answer is a line of text, "
                "written as it comes)");
    return false;
  }
  return true;
}

void writeAnswer(Report& report, const std::string& answer) {
  if (report.json()) {
    report.object().arrayRaw(answer);
  } else {
    std::cout << answer << '\n';
  }
}

int endAnswers(Report& report, std::size_t unknown) {
  if (report.json()) {
    report.object().endArray();
    report.object().number("unknown", unknown);
  }
  return unknown == 0 ? kSuccess : kInvalid;
}

bool answerAddresses(const std::vector<std::uint64_t>& values, AddressForm form, const std::string& input,
                     const std::string& target, Report& report, const std::function<void(std::uint64_t)>& answer,
                     std::size_t& bad, std::size_t& read) {
  for (const std::uint64_t value : values) answer(value);
  if (!values.empty()) return true;
  return forEachAddressLine(
      input, report,
      [&](std::string_view word, std::size_t line) {
        if (const std::optional<std::uint64_t> value = parseOne(word, form)) {
          answer(*value);
          return;
        }
        ++bad;
        const std::string text(word);
        Diagnostic d;
        d.rule = rules::kUsage;
        d.message =
            addressLineName(input, line) + ": " + (form == AddressForm::Rva ? u32Problem(text) : addressProblem(text));
        d.file = target;
        report.add(std::move(d));
      },
      read);
}

}  // namespace gdmap::cli
