#pragma once
// The subcommands of `gdmap il`, as plain functions over their options
// (commands.hpp says how). Forms (--format, --from, --to) are form names
// and numbers (--method, --code-size, ...) their command-line text, both
// checked while the command line was read (il_arguments.hpp); empty text
// means not given.
#include "common/report.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace gdmap::cli {

// --method TOKEN and --instantiation TEXT: which method of a description
// (il_description_input.hpp, chooseMethod).
struct IlMethodChoice {
  std::string token;
  std::string instantiation;
  std::string component;  // a composite image's component (`il extract` of every component)
  std::string address;    // the method whose code ranges hold this address (or RVA); empty: any
};

// gdmap il build DESC.json --format F [--method TOKEN]: one method of a
// description in one binary form.
struct IlBuildOptions {
  std::string description;
  std::string format;
  IlMethodChoice method;
  std::string output = "-";
};
int runIlBuild(const IlBuildOptions& options, Report& report);

// gdmap il dump BLOB --format F [--code-size N] [--token T]: any blob as a
// description of one method.
struct IlDumpOptions {
  std::string blob;
  std::string format;
  std::string codeSize;  // written as the method's codeSize
  std::string token;     // empty: kDefaultDumpToken (il_arguments.hpp)
  std::string output = "-";
};
int runIlDump(const IlDumpOptions& options, Report& report);

// gdmap il check BLOB --format F [--strict]: validate a blob and say
// whether it is canonical.
struct IlCheckOptions {
  std::string blob;
  std::string format;
  bool strict = false;
  std::size_t maxDiagnostics = 100;
};
int runIlCheck(const IlCheckOptions& options, Report& report);

// gdmap il verify DESC.json BLOB --format F [--method TOKEN]: is BLOB what
// `gdmap il build` writes for that method?
struct IlVerifyOptions {
  std::string description;
  std::string blob;
  std::string format;
  IlMethodChoice method;
};
int runIlVerify(const IlVerifyOptions& options, Report& report);

// gdmap il convert BLOB --from F --to F [--code-size N]: one binary form to
// another.
struct IlConvertOptions {
  std::string blob;
  std::string from;      // the blob's form
  std::string to;        // the form written
  std::string codeSize;  // where the last api entry ends, for --to api from bounds
  std::string output = "-";
};
int runIlConvert(const IlConvertOptions& options, Report& report);

// gdmap il lookup DESC.json [--method TOKEN] [--capacity N] [--native X |
// --il X]: GetILToNativeMapping's two-call protocol.
struct IlLookupOptions {
  std::string description;
  IlMethodChoice method;
  std::string capacity;  // cMap of the second call; empty: the count
  std::string native;    // keep the entries whose range holds this offset
  std::string il;        // keep the entries of this IL offset
};
int runIlLookup(const IlLookupOptions& options, Report& report);

// gdmap il hexdump BLOB --format F: every bit of a blob with its meaning.
struct IlHexdumpOptions {
  std::string blob;
  std::string format;
};
int runIlHexdump(const IlHexdumpOptions& options, Report& report);

// gdmap il extract IMAGE [--method TOKEN] [--names]: the bounds of every
// method body of a ReadyToRun image as a description.
struct IlExtractOptions {
  std::string image;
  std::string method;  // only the bodies of this token
  std::string output = "-";
  bool names = false;     // the image's own metadata names its methods
  std::string component;  // a composite image's component (name or index); empty: every component's
  std::string composite;  // the composite image of a component assembly (default: the one its header names, beside it)
  bool strict = false;    // an image newer than the newest known is refused, not read with a warning
  // A process: --pid, or `image` naming a core dump (process_extract.hpp).
  std::string pid;
  bool api = false;      // each method's GetILToNativeMapping array ("map") instead of its bounds
  bool jitOnly = false;  // a process's JIT-compiled bodies only, not its ReadyToRun images'
  bool lines = false;    // each bound's source line, from its module's portable PDB
  std::string pdb;       // the image's PDB (implies lines); empty: found as ImagePdb finds it
};
int runIlExtract(const IlExtractOptions& options, Report& report);

struct IlLocateOptions {
  std::string image;              // a ReadyToRun image or a core dump; else (--pid, --maps) the first address
  std::vector<std::string> rvas;  // RVAs (an image) or addresses (--base, --maps, a process, a core dump)
  std::string pid;
  bool names = false;
  bool strict = false;  // an image newer than the newest known is refused, not read with a warning
  std::string base;     // --base ADDR: the image is mapped there, the addresses are absolute
  std::string maps;     // --maps FILE: a process's /proc/PID/maps, the addresses absolute
  std::string pdb;      // --pdb FILE: the image's portable PDB (else found beside it)
  bool noLines = false;
  bool returnAddresses = false;  // every address a return address: looked up one byte before
  std::string input;             // --input FILE: the addresses, one a line, when none is given (else stdin)
  std::string perfScript;        // --perf-script FILE|-: perf script text to annotate (perf_annotate.hpp)
};
int runIlLocate(const IlLocateOptions& options, Report& report);

}  // namespace gdmap::cli
