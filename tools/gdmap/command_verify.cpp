// gdmap verify DESC MAP [--json]: is MAP byte for byte the map DESC describes?
#include "commands.hpp"
#include "description_input.hpp"
#include "diagnostic_output.hpp"
#include "exit_status.hpp"
#include "file_io.hpp"

#include <gdmap/reader/map_compare.hpp>
#include <gdmap/schema/hex.hpp>

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

namespace gdmap::cli {
namespace {

struct VerifyOptions {
  std::string description;
  std::string map;
  bool json = false;
};

int runVerify(const VerifyOptions& options) {
  if (options.description == "-" && options.map == "-") {
    printError("only one of DESCRIPTION and MAP can be '-'");
    return kUsageOrIo;
  }
  int status = kSuccess;
  auto loaded = loadDescription(options.description, status);
  if (!loaded) return status;
  auto input = InputBytes::open(options.map);
  if (!input) {
    printError(input.error().message);
    return kUsageOrIo;
  }
  const MapDifference d = compareMaps(loaded->map, input->bytes());
  if (options.json) {
    nlohmann::ordered_json out;
    out["identical"] = d.identical;
    out["expectedSize"] = d.expectedSize;
    out["actualSize"] = d.actualSize;
    if (!d.identical) {
      out["firstOffset"] = d.firstOffset;
      out["field"] = d.field;
      out["expected"] = d.expected;
      out["found"] = d.found;
      out["differingBytes"] = d.differingBytes;
    }
    std::cout << out.dump(2) << '\n';
  } else if (d.identical) {
    std::cout << input->displayName() << ": identical to the map the description describes (" << d.actualSize
              << " bytes)\n";
  } else {
    std::cerr << input->displayName() << ": differs at byte " << hex32(static_cast<std::uint32_t>(d.firstOffset))
              << ", " << d.field << ": expected " << d.expected << ", found " << d.found << " ("
              << d.differingBytes << " differing byte" << (d.differingBytes == 1 ? "" : "s") << "; expected "
              << d.expectedSize << " bytes, found " << d.actualSize << ")\n";
  }
  return d.identical ? kSuccess : kInvalid;
}

}  // namespace

void addVerifyCommand(CLI::App& app, int& status) {
  auto options = std::make_shared<VerifyOptions>();
  auto* verify = app.add_subcommand("verify", "Compare a map byte for byte with the map a description describes");
  verify->add_option("DESCRIPTION", options->description, "The JSON description ('-' for stdin)")->required();
  verify->add_option("MAP", options->map, "The map to verify ('-' for stdin)")->required();
  verify->add_flag("--json", options->json, "Write the verdict as JSON on stdout");
  verify->callback([options, &status] { status = runVerify(*options); });
}

}  // namespace gdmap::cli
