// Records what reader/runtime reads of a live .NET process (every byte it
// asks the process for) as a target-records file (target_records.hpp), and
// writes its summary of the process (runtime_summary.hpp) beside it: the
// in-tree recorded runtimes of tests/data/runtime/ are made with it, so
// that CI reads real .NET 10 and 11 runtimes without one.
//
//   gdmap_record_runtime PID OUT.target OUT.expected
//
// Not part of the test suite (it needs a running .NET process).
#include "tests/support/runtime_summary.hpp"
#include "tests/support/target_records.hpp"

#include <gdmap/process/process_memory.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/schema/rules.hpp>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

// A target that keeps every byte it answers.
class Recording final : public gdmap::TargetMemory {
 public:
  Recording(const gdmap::TargetMemory& inner, gdmap::testing::TargetRecords& records)
      : inner_(inner), records_(records) {}
  gdmap::Status read(std::uint64_t address, gdmap::MutableByteSpan out) const override {
    gdmap::Status s = inner_.read(address, out);
    if (s) records_.add(address, out);
    return s;
  }
  const std::vector<gdmap::TargetRegion>& regions() const override { return inner_.regions(); }
  std::string describe() const override { return inner_.describe(); }

 private:
  const gdmap::TargetMemory& inner_;
  gdmap::testing::TargetRecords& records_;
};

// Stage two: the recorded pages served only as the reader asks for its
// fields. reader/runtime reads whole pages through its cache and, when a
// page is refused, exactly the bytes it needs; refusing every whole page
// keeps the recording to those bytes (a tenth of the pages' size).
class Exact final : public gdmap::TargetMemory {
 public:
  Exact(const gdmap::testing::TargetRecords& pages, gdmap::testing::TargetRecords& used)
      : used_(used), target_(pages.target("pages")) {}
  gdmap::Status read(std::uint64_t address, gdmap::MutableByteSpan out) const override {
    if (out.size() == 4096 && address % 4096 == 0) {
      return gdmap::Error(static_cast<std::size_t>(address), "whole pages are refused",
                          gdmap::rules::kTargetUnreadable);
    }
    gdmap::Status s = target_.read(address, out);
    if (s) used_.add(address, out);
    return s;
  }
  const std::vector<gdmap::TargetRegion>& regions() const override { return target_.regions(); }
  std::string describe() const override { return "recording"; }

 private:
  gdmap::testing::TargetRecords& used_;
  gdmap::CallbackMemory target_;
};

// The summary of the runtime the descriptor at `address` of `target` describes.
std::optional<std::string> summarize(const gdmap::TargetMemory& target, std::uint64_t address) {
  gdmap::Expected<gdmap::runtime::ContractDescriptor> d = gdmap::runtime::readContractDescriptorAt(target, address);
  if (!d) return std::nullopt;
  gdmap::Expected<gdmap::runtime::RuntimeCode> code = gdmap::runtime::RuntimeCode::open(target, std::move(*d));
  if (!code) return std::nullopt;
  return gdmap::testing::runtimeSummary(*code);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: gdmap_record_runtime PID OUT.target OUT.expected\n");
    return 2;
  }
  gdmap::Expected<gdmap::process::ProcessMemory> process = gdmap::process::ProcessMemory::open(std::stoi(argv[1]));
  if (!process) {
    std::fprintf(stderr, "%s\n", process.error().message.c_str());
    return 1;
  }
  gdmap::testing::TargetRecords records;
  const Recording recording(*process, records);
  gdmap::Expected<gdmap::runtime::ContractDescriptor> descriptor = gdmap::runtime::readContractDescriptor(recording);
  if (!descriptor) {
    std::fprintf(stderr, "%s\n", descriptor.error().message.c_str());
    return 1;
  }
  // The module search read the ELF modules too; only the runtime's own
  // reads from the descriptor on are kept.
  records = {};
  records.descriptor = descriptor->address;
  const std::optional<std::string> summary = summarize(recording, descriptor->address);
  if (!summary) {
    std::fprintf(stderr, "the runtime cannot be read\n");
    return 1;
  }
  gdmap::testing::TargetRecords used;
  used.descriptor = records.descriptor;
  const Exact exact(records, used);
  const std::optional<std::string> again = summarize(exact, records.descriptor);
  if (again != summary) {
    std::fprintf(stderr, "the exact bytes do not give the same answers\n");
    return 1;
  }
  records = std::move(used);
  const gdmap::Bytes bytes = records.serialize();
  std::ofstream(argv[2], std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  std::ofstream(argv[3], std::ios::binary) << *summary;
  std::fprintf(stderr, "%zu bytes in %zu records; %s", bytes.size(), records.ranges.size(),
               summary->substr(0, summary->find('\n') + 1).c_str());
  return 0;
}
