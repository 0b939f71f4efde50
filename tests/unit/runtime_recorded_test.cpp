// reader/runtime on real runtimes without them: tests/data/runtime/ holds
// what it read of a live .NET 10.0.12 and a live .NET 11.0.0 process (the
// research program of tests/runtime/research/, after tier-up and OSR; made
// by tests/support/record_runtime, which checked that these bytes alone
// give the live process's answers), and its summary of each. The summary
// read again from the recording must be the same, body for body; every
// record cut short must give located errors, never a crash.
#include "tests/support/runtime_summary.hpp"
#include "tests/support/target_records.hpp"

#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/rules.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace gdmap::testing {
namespace {

std::string fileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TargetRecords recording(const std::string& name) {
  const std::string bytes = fileText(std::string(GDMAP_SOURCE_DIR) + "/tests/data/runtime/" + name + ".target");
  const std::optional<TargetRecords> records =
      TargetRecords::parse(ByteSpan(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  REQUIRE(records);
  return *records;
}

std::string summaryOf(const TargetRecords& records) {
  const CallbackMemory target = records.target("recording");
  Expected<runtime::ContractDescriptor> d = runtime::readContractDescriptorAt(target, records.descriptor);
  REQUIRE_MESSAGE(d, (d ? "" : d.error().message));
  Expected<runtime::RuntimeCode> code = runtime::RuntimeCode::open(target, std::move(*d));
  REQUIRE_MESSAGE(code, (code ? "" : code.error().message));
  return runtimeSummary(*code);
}

void checkRecording(const std::string& name, std::size_t bodies, std::size_t explicitVersions) {
  const TargetRecords records = recording(name);
  const std::string summary = summaryOf(records);
  CHECK(summary == fileText(std::string(GDMAP_SOURCE_DIR) + "/tests/data/runtime/" + name + ".expected"));
  std::size_t lines = 0, explicitCount = 0, ownMethods = 0;
  std::istringstream in(summary);
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    ++lines;
    if (line.find(" explicit ") != std::string::npos) ++explicitCount;
    if (line.find("/work/research/sleeper/out/sleeper.dll") != std::string::npos) ++ownMethods;
    CHECK_MESSAGE(line.find("error") == std::string::npos, line);
  }
  CHECK(lines == bodies);
  CHECK(explicitCount == explicitVersions);
  CHECK(ownMethods >= 5);  // the program's own methods: Hot (tier 0, instrumented, OSR), Osr, Generic<T> x3
  // Generic<T> at int32, int64 and __Canon: three bodies of one token, each
  // with its one method argument (a value type twice, then a class: __Canon).
  std::istringstream again(summary);
  std::size_t generic = 0;
  while (std::getline(again, line)) {
    if (line.find(" 0x06000003 ") == std::string::npos) continue;
    ++generic;
    CHECK_MESSAGE((line.find(" inst:::V0x") != std::string::npos || line.find(" inst:::C0x") != std::string::npos ||
                   line.find(" inst:::!") != std::string::npos),
                  line);
  }
  CHECK(generic == 3);
}

TEST_CASE("runtime recorded: .NET 10.0.12, every body as the live process gave it") {
  checkRecording("net10.0.12-sleeper", 58, 15);
}

TEST_CASE("runtime recorded: .NET 11.0.0, every body as the live process gave it") {
  checkRecording("net11.0.0-sleeper", 65, 23);
}

TEST_CASE("runtime recorded: each record cut in half gives located errors, never a crash") {
  for (const char* name : {"net10.0.12-sleeper", "net11.0.0-sleeper"}) {
    const TargetRecords whole = recording(name);
    std::size_t failures = 0;
    for (const auto& [address, bytes] : whole.ranges) {
      TargetRecords cut = whole;
      cut.ranges[address].resize(bytes.size() / 2);
      const CallbackMemory target = cut.target("cut");
      Expected<runtime::ContractDescriptor> d = runtime::readContractDescriptorAt(target, cut.descriptor);
      Expected<runtime::RuntimeCode> code =
          d ? runtime::RuntimeCode::open(target, std::move(*d)) : Expected<runtime::RuntimeCode>(d.error());
      if (!code) {
        ++failures;
        CHECK_MESSAGE(code.error().rule == rules::kTargetUnreadable, code.error().message);
        continue;
      }
      const std::string summary = runtimeSummary(*code);
      if (summary.find("error") != std::string::npos) ++failures;
    }
    CHECK(failures > whole.ranges.size() / 2);  // most bytes matter to some answer
  }
}

}  // namespace
}  // namespace gdmap::testing
