#pragma once
// The gdmap commands on dictionary maps and type signatures (il_commands.hpp
// has `gdmap il`). Each is a plain function over its options: it says what
// it found in `report` (text or --json) and returns its exit status
// (exit_status.hpp); the caller finishes the report. cli_app.cpp reads the
// command line into these options. Paths are '-' for stdin/stdout.
#include "common/report.hpp"
#include "map/diff_output.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gdmap::cli {

// gdmap sig encode|decode [ITEM...]: one item per operand or, with none, one
// per stdin line.
struct SigOptions {
  enum class Direction { Encode, Decode };
  Direction direction = Direction::Encode;
  std::vector<std::string> items;
  std::string names;  // --names ASSEMBLY
};
int runSig(const SigOptions& options, Report& report);

// gdmap build DESC.json [-o MAP.gdmap]: the canonical map of a description.
struct BuildOptions {
  std::string description;
  std::string output = "-";
  std::string names;
};
int runBuild(const BuildOptions& options, Report& report);

// gdmap dump MAP [-o OUT.json]: a map's content as a description.
struct DumpOptions {
  std::string map;
  std::string output = "-";
  std::string names;
};
int runDump(const DumpOptions& options, Report& report);

// gdmap check MAP [--strict]: validate a map and say whether it is canonical.
struct CheckCommandOptions {
  std::string map;
  bool strict = false;
  std::size_t maxDiagnostics = 100;
};
int runCheck(const CheckCommandOptions& options, Report& report);

// gdmap verify DESC MAP: is MAP byte for byte the map DESC describes?
struct VerifyOptions {
  std::string description;
  std::string map;
  DiffListing listing;
  std::string names;
};
int runVerify(const VerifyOptions& options, Report& report);

// gdmap lookup MAP RVA: the types of one dictionary, one per line.
struct LookupOptions {
  std::string map;
  std::string rva;  // as typed: checked by the command, not the parser
  std::string names;
};
int runLookup(const LookupOptions& options, Report& report);

// gdmap hexdump MAP: every byte of a map with its field and meaning.
struct HexdumpOptions {
  std::string map;
  std::string names;
};
int runHexdump(const HexdumpOptions& options, Report& report);

// gdmap diff A B: every difference between two maps or descriptions.
struct DiffOptions {
  std::string a;
  std::string b;
  DiffListing listing;
  std::string names;
};
int runDiff(const DiffOptions& options, Report& report);

}  // namespace gdmap::cli
