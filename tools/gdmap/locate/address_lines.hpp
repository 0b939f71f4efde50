#pragma once
// The addresses `il locate` reads when none is on its command line: one per
// line of --input FILE or stdin, each answered as it comes (a profiler's
// symbolizer keeps gdmap running and feeds it samples), the answers flushed
// before each wait for more input.
#include "common/report.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

// Calls `word` for each line's word (blank lines skipped, spaces and a CR
// trimmed), with its line number; a line longer than 4 KiB is cut. Reads
// `path` (empty or "-": stdin). False, the failure in `report`, when the
// file cannot be opened. `lines` counts the words given.
bool forEachAddressLine(const std::string& path, Report& report,
                        const std::function<void(std::string_view word, std::size_t line)>& word, std::size_t& lines);

// "stdin line 3" or "addresses.txt line 3": where a bad address was.
std::string addressLineName(const std::string& path, std::size_t line);

// How `il locate` reads its addresses: RVAs (below 2^32) or absolute.
enum class AddressForm { Rva, Absolute };

// The command line's addresses, checked: false (a usage error in
// `report`) at the first that is not one.
bool parseAddresses(const std::vector<std::string>& texts, AddressForm form, std::vector<std::uint64_t>& values,
                    Report& report);
// The same for `il locate`'s operands, which --json needs (its one object
// is written at the end, and stdin may never end): false, a usage error in
// `report`, when --json is given none.
bool parseAddressOperands(const std::vector<std::string>& texts, AddressForm form, std::vector<std::uint64_t>& values,
                          Report& report);

// Calls `answer` for each of `values`; when there are none, for each line
// of `input` (empty: stdin) as it comes, a line that holds no address being
// a usage error at its line (on `target`), counted in `bad`. False when the
// input cannot be read. `read` counts the lines that held a word.
// One answer: an element of the "addresses" array with --json, else a line
// of text (flushed with the others before each wait for input).
void writeAnswer(Report& report, const std::string& answer);
// Ends the "addresses" array (--json) with the count of addresses no code
// holds; the command's status: 0 when every address was found, else 1.
int endAnswers(Report& report, std::size_t unknown);

bool answerAddresses(const std::vector<std::uint64_t>& values, AddressForm form, const std::string& input,
                     const std::string& target, Report& report, const std::function<void(std::uint64_t)>& answer,
                     std::size_t& bad, std::size_t& read);

}  // namespace gdmap::cli
