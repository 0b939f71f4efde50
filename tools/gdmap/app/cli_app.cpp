// The command line: the one file that includes CLI11. It builds the app,
// registers every command with its options (the shared conventions, --json,
// -o, --names and the IL options, each by one helper below) and runs the
// chosen command's plain function (commands.hpp, il_commands.hpp) with a
// Report in the form asked for. Help texts, option names and defaults are
// what docs/cli.md and tests/cli compare byte for byte.
#include "app/cli_app.hpp"

#include "app/commands.hpp"
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "app/suggest.hpp"
#include "common/report.hpp"
#include "il/il_arguments.hpp"
#include "il/method_query.hpp"

#include <gdmap/schema/rules.hpp>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace gdmap::cli {
namespace {

// One command as registered: the options its function reads and its --json
// flag, owned by the callback that runs it.
template <class Options>
struct Invocation {
  Options options;
  bool json = false;
};

template <class Options>
struct Registered {
  CLI::App& command;
  Options& options;
  bool& json;
};

// A command ran out of memory (std::bad_alloc): a diagnostic and exit 2,
// never an abort.
std::string outOfMemoryMessage() {
  return "out of memory: the input needs more memory than the system gives gdmap (ulimit -v, cgroup, swap)";
}

// Adds `name` to `parent`; when chosen, `run` gets the options read into
// Registered::options and a Report that lists at most `maxListed`
// diagnostics, and its exit status goes to `status`.
template <class Options>
Registered<Options> addCommand(CLI::App& parent, const std::string& name, const std::string& help,
                               int (*run)(const Options&, Report&), int& status,
                               std::size_t maxListed = Report::kUnlimited) {
  CLI::App* command = parent.add_subcommand(name, help);
  auto invocation = std::make_shared<Invocation<Options>>();
  command->callback([invocation, run, maxListed, &status] {
    Report report(invocation->json, maxListed);
    int code = kSuccess;
    try {
      code = run(invocation->options, report);
    } catch (const std::bad_alloc&) {
      // What the command held is freed by now: the report has room to say
      // so, in the form asked for (runCommandLine catches what it cannot).
      code = report.fail(kUsageOrIo, rules::kOutOfMemory, outOfMemoryMessage());
    }
    status = report.finish(code);
  });
  return {*command, invocation->options, invocation->json};
}

// The operands' help, as most commands word it.
constexpr const char* kDescriptionOperand = "The JSON description ('-' for stdin)";
constexpr const char* kMapOperand = "The map ('-' for stdin)";
constexpr const char* kBlobOperand = "The binary map ('-' for stdin)";

// The --json help, as most commands word it.
constexpr const char* kJsonOutcome = "Write the outcome and diagnostics as JSON on stdout (needs -o FILE)";
constexpr const char* kJsonVerdict = "Write the verdict and diagnostics as JSON on stdout";
constexpr const char* kJsonAnswer = "Write the answer and diagnostics as JSON on stdout";

// A required operand.
void addOperand(CLI::App& command, const std::string& name, std::string& value, const std::string& help) {
  command.add_option(name, value, help)->required();
}

void addJsonFlag(CLI::App& command, bool& json, const std::string& help) { command.add_flag("--json", json, help); }

// `-o,--output`, shown with `typeName` when one is given (else CLI11's
// TEXT).
void addOutputOption(CLI::App& command, std::string& path, const std::string& help, const char* typeName = nullptr) {
  CLI::Option* option = command.add_option("-o,--output", path, help);
  if (typeName != nullptr) option->type_name(typeName);
}

// `-o,--output FILE` for binary bytes: '-' is stdout, refused on a terminal.
void addBinaryOutputOption(CLI::App& command, std::string& path) {
  addOutputOption(command, path, "Where to write the bytes ('-', the default, for stdout; refused on a terminal)",
                  "FILE");
}

// `-o,--output` for a description.
void addDescriptionOutputOption(CLI::App& command, std::string& path, const char* typeName = nullptr) {
  addOutputOption(command, path, "Where to write the description ('-', the default, for stdout)", typeName);
}

// `--names ASSEMBLY`: type names for the commands that print or read type
// text (type_names_input.hpp).
void addNamesOption(CLI::App& command, std::string& path) {
  command
      .add_option("--names", path,
                  "An assembly (ECMA-335 PE file): its TypeDef and TypeRef names stand for their tokens in type text")
      ->type_name("ASSEMBLY");
}

void addStrictFlag(CLI::App& command, bool& strict, const std::string& help) {
  command.add_flag("--strict", strict, help);
}

// A check of an option's text by one of il_arguments.hpp's problem
// functions: a malformed value is a usage error while parsing.
CLI::Validator checkedBy(std::string (*problem)(const std::string&)) {
  return CLI::Validator([problem](std::string& text) { return problem(text); }, "");
}

// A count, as decimal digits: CLI11 would read "-1" into a std::size_t as
// its largest value.
std::string countProblem(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos) return {};
  return "'" + text + "' is not a count (a decimal number, 0 or more)";
}

void addMaxDiagnosticsOption(CLI::App& command, std::size_t& value, const char* typeName = nullptr) {
  CLI::Option* option = command.add_option("--max-diagnostics", value, "Stop listing problems after this many")
                            ->default_val(100)
                            ->check(checkedBy(countProblem));
  if (typeName != nullptr) option->type_name(typeName);
}

// --all and --context of `verify` and `diff`, which place --names between
// them differently.
void addAllFlag(CLI::App& command, DiffListing& listing) {
  command.add_flag("--all", listing.all, "List every difference (default: the first 100, the rest counted)");
}

void addContextFlag(CLI::App& command, DiffListing& listing) {
  command.add_flag("--context", listing.context,
                   "With a changed dictionary, show its whole list of types on each side");
}

// A number option (decimal or 0x hex below 2^32), kept as its text.
CLI::Option* addNumberOption(CLI::App& command, const std::string& name, std::string& value, const std::string& help,
                             const std::string& typeName) {
  return command.add_option(name, value, help)->type_name(typeName)->check(checkedBy(u32Problem));
}

// `--format F` (or --from/--to): required, one of the four form names; the
// help reads "<what>: api, nibble, packed2 or packed3".
void addFormOption(CLI::App& command, const std::string& name, std::string& value, const std::string& what) {
  command.add_option(name, value, what + ": api, nibble, packed2 or packed3")
      ->type_name("FORM")
      ->required()
      ->check(checkedBy(formProblem));
}

// `--method TOKEN`; `help` says what an absent or unknown token means.
void addMethodOption(CLI::App& command, std::string& value, const std::string& help) {
  addNumberOption(command, "--method", value, "The method's token (decimal or 0x hex); " + help, "TOKEN");
}

// --method TOKEN|NAME (il extract, il lookup): a token, or a name as
// --names writes it (method_query.hpp).
void addMethodQueryOption(CLI::App& command, std::string& value, const std::string& help) {
  command
      .add_option("--method", value,
                  "The method: its token (decimal or 0x hex), or its name, `Ns.Type::Name` (every overload) or as SOS "
                  "prints it with its signature, `Ns.Type.Name(System.String, Int32)`; " +
                      help)
      ->type_name("TOKEN|NAME")
      ->check(checkedBy(methodQueryProblem));
}

// --method TOKEN, then --instantiation TEXT: which body of a method whose
// token several bodies share (il::instantiationText, e.g.
// "<int32>::<string>"); --component and --address narrow the choice.
void addMethodChoiceOptions(CLI::App& command, IlMethodChoice& choice, const std::string& help, bool byName = false) {
  if (byName) addMethodQueryOption(command, choice.token, help);
  else addMethodOption(command, choice.token, help);
  command
      .add_option("--instantiation", choice.instantiation,
                  "Which body of a method several instantiations share a token of, as listed when the choice is open: "
                  "'<int32>', '::<string>', '<int32>::<!!0>', 'async', 'async resumption'")
      ->type_name("TEXT");
  command
      .add_option("--component", choice.component,
                  "Which component assembly's method, in the description of a whole composite image (its methods' "
                  "\"component\")")
      ->type_name("NAME");
  command
      .add_option("--address", choice.address,
                  "The method whose code holds this address (0x hex): an absolute address for a process's "
                  "methods (`il extract --pid`), an RVA for an image's (their \"code\" ranges)")
      ->type_name("ADDR")
      ->check(checkedBy(addressProblem));
}

// `--code-size N`, worded for the command.
void addCodeSizeOption(CLI::App& command, std::string& value, const std::string& help) {
  addNumberOption(command, "--code-size", value, help, "N");
}

void addSigCommand(CLI::App& app, int& status) {
  CLI::App* sig = app.add_subcommand("sig", "Convert one ECMA-335 type signature between ILAsm text and bytes");
  sig->require_subcommand(1);
  // `items` names the operands in the help.
  const auto addConversion = [&](const char* name, const char* help, const char* items,
                                 SigOptions::Direction direction) {
    // A file of a million bad lines gives a bounded report.
    auto [command, options, json] = addCommand(*sig, name, help, runSig, status, Report::kDefaultMaxListed);
    options.direction = direction;
    command.add_option(items, options.items, "Items to convert; none: read one per line from stdin");
    addNamesOption(command, options.names);
    addJsonFlag(command, json, "Write the results and diagnostics as JSON on stdout");
  };
  addConversion("encode",
                "ILAsm type text -> lowercase hex bytes, e.g. 'class 0x01000012<int32, !0[]>' -> 15124902081d1300",
                "TYPE", SigOptions::Direction::Encode);
  addConversion("decode",
                "Hex bytes (spaces and either case allowed) -> ILAsm type text, e.g. '15 12 49 01 08' -> "
                "class 0x01000012<int32>",
                "HEX", SigOptions::Direction::Decode);
}

void addBuildCommand(CLI::App& app, int& status) {
  auto [command, options, json] = addCommand(
      app, "build", "Build the map a JSON description describes (the canonical layout, unless it overrides fields)",
      runBuild, status);
  addOperand(command, "DESCRIPTION", options.description, kDescriptionOperand);
  addOutputOption(command, options.output,
                  "Where to write the map ('-', the default, for stdout; refused on a terminal)");
  addNamesOption(command, options.names);
  addJsonFlag(command, json, kJsonOutcome);
}

void addDumpCommand(CLI::App& app, int& status) {
  auto [command, options, json] =
      addCommand(app, "dump", "Write any map (valid or not) as a JSON description that builds back the same bytes",
                 runDump, status);
  addOperand(command, "MAP", options.map, kMapOperand);
  addDescriptionOutputOption(command, options.output);
  addNamesOption(command, options.names);
  addJsonFlag(command, json, kJsonOutcome);
}

void addCheckCommand(CLI::App& app, int& status) {
  auto [command, options, json] =
      addCommand(app, "check", "Validate a map against every rule of the format; exit 0 when valid", runCheck, status);
  addOperand(command, "MAP", options.map, kMapOperand);
  addStrictFlag(command, options.strict, "Treat warnings as errors");
  addJsonFlag(command, json, kJsonVerdict);
  addMaxDiagnosticsOption(command, options.maxDiagnostics);
}

void addVerifyCommand(CLI::App& app, int& status) {
  auto [command, options, json] =
      addCommand(app, "verify", "Compare a map byte for byte with the map a description describes", runVerify, status);
  addOperand(command, "DESCRIPTION", options.description, kDescriptionOperand);
  addOperand(command, "MAP", options.map, "The map to verify ('-' for stdin)");
  addJsonFlag(command, json, kJsonVerdict);
  addAllFlag(command, options.listing);
  addNamesOption(command, options.names);
  addContextFlag(command, options.listing);
}

void addLookupCommand(CLI::App& app, int& status) {
  auto [command, options, json] = addCommand(app, "lookup",
                                             "Print the types of the dictionary at an RVA, one per line; exit 1 when "
                                             "absent or when the map's order cannot be trusted",
                                             runLookup, status);
  addOperand(command, "MAP", options.map, kMapOperand);
  addOperand(command, "RVA", options.rva, "The dictionary's RVA (decimal or 0x hex)");
  addNamesOption(command, options.names);
  addJsonFlag(command, json, kJsonAnswer);
}

void addHexdumpCommand(CLI::App& app, int& status) {
  auto [command, options, json] =
      addCommand(app, "hexdump",
                 "Show every byte of a map with its field and meaning, marking bytes that break a rule (!, ~) or "
                 "belong to nothing (?); exit 0 when the map is valid",
                 runHexdump, status, Report::kDefaultMaxListed);
  addOperand(command, "MAP", options.map, kMapOperand);
  addNamesOption(command, options.names);
  addJsonFlag(command, json, "Write the ranges that tile the file, and the diagnostics, as JSON");
}

void addDiffCommand(CLI::App& app, int& status) {
  auto [command, options, json] = addCommand(
      app, "diff", "Every difference between two maps or descriptions (any mix), by dictionary; exit 0 when identical",
      runDiff, status, Report::kDefaultMaxListed);
  addOperand(command, "A", options.a, "A map or a JSON description ('-' for stdin)");
  addOperand(command, "B", options.b, "A map or a JSON description ('-' for stdin)");
  addJsonFlag(command, json, "Write the differences as JSON on stdout");
  addNamesOption(command, options.names);
  addAllFlag(command, options.listing);
  addContextFlag(command, options.listing);
}

void addIlBuildCommand(CLI::App& il, int& status) {
  auto [command, options, json] = addCommand(
      il, "build", "Write one method of a description as api, nibble, packed2 or packed3 bytes", runIlBuild, status);
  command.footer(
      "--format api derives the GetILToNativeMapping array from `bounds` as the runtime does (merge, ends, sort, "
      "trim; needs the method's codeSize) or writes a verbatim `map` as is. The compressed forms are written from "
      "`bounds` exactly as the runtime writes them (shortest varints, minimal widths); a `map` cannot be "
      "compressed. A method's `layout` overrides fields of the bytes (count, widths, varint lengths, padding, "
      "trailing, truncate; a layout-override note each) and a `raw` method is its bytes verbatim, for broken "
      "fixtures (docs/il-map.md, Overrides). The whole description is validated, whichever method is built.");
  addOperand(command, "DESCRIPTION", options.description, kDescriptionOperand);
  addFormOption(command, "--format", options.format, "The form to write");
  addMethodChoiceOptions(command, options.method, "may be left out when the description has one method");
  addBinaryOutputOption(command, options.output);
  addJsonFlag(command, json, kJsonOutcome);
}

void addIlDumpCommand(CLI::App& il, int& status) {
  auto [command, options, json] =
      addCommand(il, "dump", "Write any blob as a JSON description of one method", runIlDump, status);
  command.footer(
      "The method holds `bounds` (compressed forms) or `map` (api), plus a `layout` of overrides when the bytes "
      "are not canonical (or `raw` when not even the header can be read): `gdmap il build --format` of the same "
      "form gives back the identical bytes, valid or not. The check's findings go to stderr as warnings. Exit 0 "
      "for a valid blob, 1 for an invalid one (its description is written all the same), 2 when nothing could be "
      "written.");
  addOperand(command, "BLOB", options.blob, kBlobOperand);
  addFormOption(command, "--format", options.format, "The blob's form");
  addCodeSizeOption(command, options.codeSize,
                    "The method's code size in bytes, written as `codeSize` (needed to build the api form from "
                    "bounds)");
  addNumberOption(command, "--token", options.token, "The method's token to write (default 0x06000001)", "TOKEN");
  addDescriptionOutputOption(command, options.output, "FILE");
  addJsonFlag(command, json, kJsonOutcome);
}

void addIlCheckCommand(CLI::App& il, int& status) {
  auto [command, options, json] = addCommand(
      il, "check", "Validate a blob and say whether its bytes are canonical; exit 0 when valid", runIlCheck, status);
  command.footer(
      "Every rule of the form's strict reader (docs/il-map.md, \"Valid and canonical\") is checked; a problem is "
      "located by byte, nibble or bit and field (header.count, bounds[3].native, entries[2]). Non-minimal varints and "
      "wider-than-needed widths are valid but not canonical: warnings, errors with --strict.");
  addOperand(command, "BLOB", options.blob, kBlobOperand);
  addFormOption(command, "--format", options.format, "The blob's form");
  addStrictFlag(command, options.strict,
                "Also require the canonical bytes (shortest varints, minimal widths), as gdmap writes them");
  addJsonFlag(command, json, kJsonVerdict);
  addMaxDiagnosticsOption(command, options.maxDiagnostics, "N");
}

void addIlVerifyCommand(CLI::App& il, int& status) {
  auto [command, options, json] = addCommand(
      il, "verify", "Compare a blob byte for byte with what `gdmap il build` writes for a method", runIlVerify, status);
  command.footer(
      "Exit 0 when identical. Otherwise exit 1 with map-differs at the first differing byte, naming the field "
      "(entries[i].nativeEndOffset; for the compressed forms the first bound that differs, bounds[i].il, or "
      "header.count) with both values; a blob that only differs in being not canonical says so.");
  addOperand(command, "DESCRIPTION", options.description, kDescriptionOperand);
  addOperand(command, "BLOB", options.blob, "The binary map to verify ('-' for stdin)");
  addFormOption(command, "--format", options.format, "The blob's form");
  addMethodChoiceOptions(command, options.method, "may be left out when the description has one method");
  addJsonFlag(command, json, kJsonVerdict);
}

void addIlConvertCommand(CLI::App& il, int& status) {
  auto [command, options, json] =
      addCommand(il, "convert", "Re-encode a valid blob in another form", runIlConvert, status);
  command.footer(
      "Compressed bounds go to another compressed form (a source flag the target cannot store is an error naming "
      "the bound, never dropped) or to the api array (needs --code-size). The api array cannot be turned back "
      "into bounds. The same form again gives the canonical bytes.");
  addOperand(command, "BLOB", options.blob, kBlobOperand);
  addFormOption(command, "--from", options.from, "The blob's form");
  addFormOption(command, "--to", options.to, "The form to write");
  addCodeSizeOption(command, options.codeSize,
                    "The method's code size in bytes, where the last api entry ends (for --to api from bounds)");
  addBinaryOutputOption(command, options.output);
  addJsonFlag(command, json, kJsonOutcome);
}

void addIlLookupCommand(CLI::App& il, int& status) {
  auto [command, options, json] =
      addCommand(il, "lookup", "Answer GetILToNativeMapping for a method of a description: HRESULT, count and entries",
                 runIlLookup, status);
  command.footer(
      "Plays the two-call protocol on the table of the whole description: first cMap = 0 for the count, then "
      "cMap = --capacity. Prints the HRESULT, the full count (*pcMap, greater than the capacity when truncated) "
      "and the copied entries, filtered by --native or --il. Exit 0 for S_OK, 1 for E_FAIL (no such token).");
  addOperand(command, "DESCRIPTION", options.description, kDescriptionOperand);
  addMethodChoiceOptions(command, options.method,
                         "a token not in the description gives E_FAIL; a name needs the description's names (il "
                         "extract --names). Without it: every method's array",
                         true);
  addNumberOption(command, "--capacity", options.capacity,
                  "cMap of the second call, in entries (default: the count the first call returned)", "N");
  CLI::Option* native = addNumberOption(command, "--native", options.native,
                                        "Keep the copied entries whose range holds this native offset (start <= X < "
                                        "end): which IL an instruction pointer came from",
                                        "X");
  CLI::Option* ilOption =
      command
          .add_option("--il", options.il,
                      "Keep the copied entries of this IL offset (decimal, 0x hex, prolog, epilog or no_mapping)")
          ->type_name("X")
          ->check(checkedBy(ilOffsetProblem));
  native->excludes(ilOption);
  addJsonFlag(command, json, kJsonAnswer);
}

void addIlHexdumpCommand(CLI::App& il, int& status) {
  auto [command, options, json] = addCommand(il, "hexdump",
                                             "Show every field of a blob (bytes, nibbles and bits) with its meaning, "
                                             "marking problems; exit 0 when valid",
                                             runIlHexdump, status, Report::kDefaultMaxListed);
  addOperand(command, "BLOB", options.blob, kBlobOperand);
  addFormOption(command, "--format", options.format, "The blob's form");
  addJsonFlag(command, json, "Write the bit ranges that tile the blob, and the diagnostics, as JSON");
}

void addIlExtractCommand(CLI::App& il, int& status) {
  auto [command, options, json] =
      addCommand(il, "extract",
                 "Write the IL-to-native bounds of every method of a ReadyToRun image, or of a .NET process (live or "
                 "a core dump), as JSON",
                 runIlExtract, status, Report::kDefaultMaxListed);
  command.footer(
      "One method per precompiled body (MethodDef entry points and generic instantiations): its token, codeSize "
      "(body and funclets), code ranges, bounds and, for an instantiation, its type and method arguments. `gdmap "
      "il build --format FORM` (the image's form: nibble before R2R 16, packed2 in 16, packed3 from 17) of a "
      "method gives the image's bytes; `gdmap il lookup` answers what GetILToNativeMapping would. A summary goes "
      "to stderr. Supported: ReadyToRun major versions 2 (.NET Core 2.0) to 26 (.NET 11), and newer ones read "
      "as 26 with a warning; x64, x86, ARM64 and ARM; composite images (every component's methods, each with its "
      "`component`, unless --component chooses one). See docs/r2r.md.\n\n"
      "A process (--pid PID, or IMAGE an ELF core dump as createdump writes it; .NET 10 and 11, read through the "
      "runtime's contract descriptor): every native code version of every JIT-compiled method (its module, "
      "token, methodDesc, codeVersion: tier, IL version, active; dynamic methods marked), and every body of the "
      "ReadyToRun images it mapped (unless --jit-only), with `code` at absolute addresses. See "
      "docs/runtime-contracts.md.");
  command.add_option("IMAGE", options.image,
                     "The ReadyToRun image (a .dll; '-' for stdin), or a core dump of a .NET process");
  command.add_option("--pid", options.pid, "A live .NET process to read (needs the right to ptrace it)")
      ->type_name("PID");
  command.add_flag("--api", options.api,
                   "Write each method's GetILToNativeMapping array (\"map\") instead of its bounds");
  command.add_flag("--jit-only", options.jitOnly, "A process: only the JIT-compiled bodies, not the ReadyToRun ones");
  command.add_flag("--lines", options.lines,
                   "Give each bound its source line (\"line\", \"column\"; the method's \"document\") from the "
                   "portable PDB of its method's assembly: embedded, or beside the image (a process: beside each "
                   "module's file; a module without one gets none)");
  command.add_option("--pdb", options.pdb, "IMAGE's portable PDB (implies --lines)")->type_name("FILE");
  addMethodQueryOption(command, options.method,
                       "only the bodies of this method (every instantiation of it, unless the signature names one; a "
                       "name implies --names)");
  addDescriptionOutputOption(command, options.output, "FILE");
  // Unlike --names elsewhere, a flag: the image names itself.
  command.add_flag("--names", options.names,
                   "Name each method (`\"name\": \"Ns.Type::Method\"`) and the instantiations' types from the "
                   "image's own metadata (a composite image's component: from the component's file beside it; a "
                   "process's method: from its module's file, a dynamic method by the name the runtime keeps)");
  command
      .add_option("--component", options.component,
                  "A composite image's component assembly whose methods to write (its name or index); without "
                  "it, every component's, grouped by component")
      ->type_name("NAME");
  addStrictFlag(command, options.strict,
                "Refuse an image whose ReadyToRun version is newer than the newest gdmap knows (by default it is "
                "read with the newest rules and a warning)");
  command
      .add_option("--composite", options.composite,
                  "For a component assembly: its composite image (default: the file its header names, beside it)")
      ->type_name("FILE");
  addJsonFlag(command, json, "Write the summary and diagnostics as JSON on stdout (needs -o FILE)");
}

void addIlLocateCommand(CLI::App& il, int& status) {
  auto [command, options, json] =
      addCommand(il, "locate",
                 "A symbolizer for .NET code: the method, IL offset and source line of each code address of a "
                 "ReadyToRun image (an RVA, or absolute with --base or --maps), or of a process (live or a core dump)",
                 runIlLocate, status);
  command.footer(
      "For each RVA: the runtime function holding it, its method (token, instantiation, or 'async' and "
      "'async resumption' for runtime async's bodies; --names: its name; every method when several share the "
      "body), the part (body, funclet, cold), the offset in the method's code, and the IL offset(s) whose "
      "GetILToNativeMapping entries cover that offset; then the source line of the IL offset the runtime reports "
      "(the first entry covering it), from the image's portable PDB (embedded, or beside it; --pdb names it). "
      "Exit 0 when every RVA is in a method's code, 1 when one is not (or the image is invalid). See docs/r2r.md.\n\n"
      "Absolute addresses, as a profiler records them: --base ADDR (where the image is mapped), or --maps FILE "
      "(the process's /proc/PID/maps: each address's file and file offset, made an RVA by that file's sections; "
      "without IMAGE, every .NET image the maps name). --return-addresses: each address is a caller's return "
      "address, looked up one byte before as the runtime does for a stack trace. No address given: one per line "
      "of --input FILE or stdin, each answered as it comes.\n\n"
      "A process (--pid PID ADDRESS..., or CORE ADDRESS... for a core dump): each address, JIT-compiled code "
      "(its method, code version and IL offsets) or a ReadyToRun image's (the image's answer), or a stub.\n\n"
      "Linux perf's samples (--perf-script FILE|-): a filter for `perf script --show-mmap-events` text; each "
      "sample's leaf looked up exactly, its callers as return addresses. See docs/cli.md.");
  command.add_option("IMAGE", options.image,
                     "The ReadyToRun image (a .dll; '-' for stdin) or a core dump; with --pid, or --maps without an "
                     "image, the first address");
  command
      .add_option("RVA", options.rvas,
                  "Code addresses: RVAs in an image, absolute with --base, --maps or a process (decimal or 0x "
                  "hex); none: from --input FILE or stdin, one per line, each answered as it comes")
      ->type_name("RVA");
  command.add_option("--pid", options.pid, "A live .NET process to read (needs the right to ptrace it)")
      ->type_name("PID");
  command
      .add_option("--base", options.base, "Where IMAGE is mapped: the addresses are absolute, address - ADDR the RVA")
      ->type_name("ADDR")
      ->check(checkedBy(addressProblem));
  command
      .add_option("--maps", options.maps,
                  "The process's memory map (/proc/PID/maps as saved): an address in a mapping of a file is that "
                  "file's RVA through its sections; without IMAGE, each file is opened when an address is in it")
      ->type_name("FILE");
  command
      .add_option("--pdb", options.pdb, "IMAGE's portable PDB (by default the embedded one, or the one beside IMAGE)")
      ->type_name("FILE");
  command.add_flag("--no-lines", options.noLines, "Look for no PDB: no source lines");
  command.add_flag("--return-addresses", options.returnAddresses,
                   "Every address is a return address (a caller's frame): looked up at address - 1, as the runtime "
                   "does, unless it is its method's first byte");
  command.add_option("--input", options.input, "The addresses, one per line, when none is given ('-': stdin)")
      ->type_name("FILE");
  command
      .add_option("--perf-script", options.perfScript,
                  "Annotate `perf script --show-mmap-events` text (FILE, '-': stdin): every line written as read, each "
                  "frame in a ReadyToRun image's code followed by its method, IL offset and source line")
      ->type_name("FILE|-");
  command.add_flag("--names", options.names,
                   "Name each method as SOS does, with its parameters and instantiation, from the image's own "
                   "metadata (a composite image's component: from the component's file beside it; a process's "
                   "method: from its module's file)");
  addStrictFlag(command, options.strict,
                "Refuse an image whose ReadyToRun version is newer than the newest gdmap knows (by default it is "
                "read with the newest rules and a warning)");
  addJsonFlag(command, json, "Write the addresses as JSON: method, part, offset, IL entries and source line each");
}

// gdmap il ...: IL-to-native maps (FORMAT.md §3, docs/il-map.md), the
// array ICorProfilerInfo::GetILToNativeMapping returns and the compressed
// bounds the runtime keeps beside the code.
void addIlCommand(CLI::App& app, int& status) {
  CLI::App* il = app.add_subcommand(
      "il",
      "IL-to-native maps (GetILToNativeMapping): build, dump, check, verify and convert the api array "
      "(COR_DEBUG_IL_TO_NATIVE_MAP[]) and the runtime's compressed bounds (nibble, packed2, packed3), and "
      "answer the two-call protocol from a JSON description; extract every method's bounds from a ReadyToRun image");
  il->require_subcommand(1);
  il->footer(
      "Forms (--format, --from, --to):\n"
      "  api      the API array: entries of three little-endian u32 (ilOffset, nativeStart, nativeEnd)\n"
      "  nibble   classic nibble-stream bounds (runtimes before the bit-packed form, ReadyToRun debug info)\n"
      "  packed2  bit-packed bounds, 2 source bits (call_instruction, stack_empty)\n"
      "  packed3  bit-packed bounds, 3 source bits (adds async)\n"
      "Tokens, sizes and offsets are decimal or 0x hex. A description (JSON) holds methods, each with a token, "
      "`bounds` or a verbatim `map`, and an optional codeSize (docs/il-map.md).\n"
      "Exit status: 0 success/valid/identical/S_OK, 1 invalid input, a difference, a method not found or an "
      "HRESULT other than S_OK, 2 usage or I/O error.");
  addIlBuildCommand(*il, status);
  addIlDumpCommand(*il, status);
  addIlCheckCommand(*il, status);
  addIlVerifyCommand(*il, status);
  addIlConvertCommand(*il, status);
  addIlLookupCommand(*il, status);
  addIlHexdumpCommand(*il, status);
  addIlExtractCommand(*il, status);
  addIlLocateCommand(*il, status);
}

// The names suggest.hpp compares a mistyped word with, read off the app.
CommandSyntax syntaxOf(const CLI::App& app) {
  CommandSyntax syntax;
  syntax.name = app.get_name();
  for (const CLI::Option* opt : app.get_options()) {
    OptionSyntax option;
    for (const std::string& l : opt->get_lnames()) option.names.push_back("--" + l);
    for (const std::string& s : opt->get_snames()) option.names.push_back("-" + s);
    option.takesValue = opt->get_items_expected_min() > 0;
    syntax.options.push_back(std::move(option));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    syntax.subcommands.push_back(syntaxOf(*sub));
  return syntax;
}

// Whether the command line asks for --json, looked for before parsing so
// that a usage error is reported in the form asked for.
bool wantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) return false;  // operands from here on
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

// The command the parser had entered when it stopped ("gdmap il build"):
// the one whose --help says what it takes.
const CLI::App& levelReached(const CLI::App& app) {
  const CLI::App* level = &app;
  for (std::vector<CLI::App*> parsed = level->get_subcommands(); !parsed.empty(); parsed = level->get_subcommands())
    level = parsed.front();
  return *level;
}

std::string commandPath(const CLI::App& level) {
  std::string path = level.get_name();
  for (const CLI::App* up = level.get_parent(); up != nullptr; up = up->get_parent())
    path.insert(0, up->get_name() + " ");
  return path;
}

// A command line the parser refused, as every diagnostic is said: "gdmap:
// error: MESSAGE [usage]" (or the JSON object with it), with the nearest
// name to a mistyped one when there is one, then where help is; status 2.
int usageError(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  const bool json = wantsJson(argc, argv);
  const auto suggestion = suggestForArguments(syntaxOf(app), argc, argv);
  Report report(json);
  const int code = report.fail(kUsageOrIo, rules::kUsage, suggestion ? suggestion->message() : e.what());
  if (!json)
    std::cerr << "Run `" << (suggestion ? suggestion->command : commandPath(levelReached(app)))
              << " --help` for more information.\n";
  return report.finish(code);
}

// `gdmap` or `gdmap il` alone: what there is to run, as git lists it, and
// where help is; status 2 (nothing was done).
int commandList(const CLI::App& level) {
  const std::string path = commandPath(level);
  std::string text = "usage: " + path + " <command> [<args>]\n\nCommands:\n";
  for (const CLI::App* sub : level.get_subcommands([](const CLI::App*) { return true; })) {
    // The first clause of its help: a line each.
    std::string help = sub->get_description();
    const std::size_t end = help.find_first_of(":;\n");
    if (end != std::string::npos) help.resize(help.find_last_not_of(' ', end - 1) + 1);
    std::string name = sub->get_name();
    name.resize(std::max<std::size_t>(name.size(), 10), ' ');
    text.append("  ").append(name).append(help).append("\n");
  }
  text +=
      "\nRun `" + path + " <command> --help` for a command's options and operands, `" + path + " --help` for more.\n";
  std::cerr << text;
  return kUsageOrIo;
}

// Builds the app and runs the command the arguments choose.
int runApp(int argc, char** argv) {
  CLI::App app{
      "gdmap: build, check, dump and verify .NET Native generic dictionary maps and IL-to-native maps "
      "(GetILToNativeMapping arrays and the runtime's compressed bounds: `gdmap il`), and convert "
      "ECMA-335 type signatures.\nExit status: 0 success/valid/identical, 1 invalid input, a "
      "difference or an RVA or method not found, 2 usage, I/O or internal error.",
      "gdmap"};
  app.require_subcommand(1);
  app.footer(
      "Environment:\n"
      "  GDMAP_MAX_INPUT_SIZE  the most bytes held of an input read from a pipe or device ('-', <(...), "
      "/dev/stdin): default 1G; bytes or K, M, G, T (64M). Regular files are mapped, not held. Beyond it: "
      "input-too-large.");
  app.set_version_flag("--version", "gdmap " GDMAP_VERSION);
  int status = kSuccess;
  addSigCommand(app, status);
  addBuildCommand(app, status);
  addDumpCommand(app, status);
  addCheckCommand(app, status);
  addVerifyCommand(app, status);
  addLookupCommand(app, status);
  addIlCommand(app, status);
  addHexdumpCommand(app, status);
  addDiffCommand(app, status);
  // Nothing asked: the list of commands (the `il` level's after `il`).
  if (argc == 1) return commandList(app);
  if (argc == 2 && std::strcmp(argv[1], "il") == 0) return commandList(*app.get_subcommand("il"));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that succeed: printed as CLI11 does.
    if (e.get_exit_code() == 0) return app.exit(e) == 0 ? kSuccess : kUsageOrIo;
    return usageError(app, e, argc, argv);
  }
  return status;
}

}  // namespace

int runCommandLine(int argc, char** argv) {
  try {
    return runApp(argc, argv);
  } catch (const std::bad_alloc&) {
    // Out of memory where no Report can be had (parsing the command line,
    // or the report itself): the line a report would print, made without
    // allocating.
    const bool json = wantsJson(argc, argv);
    std::FILE* out = json ? stdout : stderr;
    std::fputs(json ? "{\"errors\": 1, \"warnings\": 0, \"diagnostics\": [{\"severity\": \"error\", \"rule\": \""
                    : "gdmap: error: out of memory [",
               out);
    std::fputs(rules::kOutOfMemory, out);
    std::fputs(json ? "\", \"message\": \"out of memory\", \"path\": \"\", \"offset\": null}]}\n" : "]\n", out);
    return kUsageOrIo;
  }
}

}  // namespace gdmap::cli
