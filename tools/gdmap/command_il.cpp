// gdmap il ...: IL-to-native maps (FORMAT.md §3, docs/il-map.md), the
// array ICorProfilerInfo::GetILToNativeMapping returns and the compressed
// bounds the runtime keeps beside the code.
#include "commands.hpp"
#include "il_commands.hpp"

namespace gdmap::cli {

void addIlCommand(CLI::App& app, int& status) {
  auto* il = app.add_subcommand(
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
}

}  // namespace gdmap::cli
