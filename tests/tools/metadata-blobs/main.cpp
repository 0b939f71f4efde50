// gdmap-metadata-blobs: prints the signature blobs of .NET assemblies, one
// lowercase hex blob per line, or a gdmap description built from them. The
// real-world corpus tests (tests/cli/) feed its output to gdmap.
#include "description_writer.hpp"
#include "signature_skipper.hpp"

#include <gdmap/schema/hex.hpp>

#include <gdmap/internal/metadata_heaps.hpp>
#include <gdmap/internal/metadata_streams.hpp>
#include <gdmap/internal/metadata_tables.hpp>
#include "reader/metadata/metadata_root.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using namespace gdmap;
using namespace gdmap::metadata;

constexpr const char* kUsage =
    "usage: gdmap-metadata-blobs MODE [--shuffle SEED] [--dictionaries N] [--text] [--keep-going] ASSEMBLY...\n"
    "Prints signature blobs of ECMA-335 assemblies as lowercase hex, one per line.\n"
    "MODE is one of:\n"
    "  --typespec        TypeSpec.Signature blobs (each one Type)\n"
    "  --methodspec      MethodSpec.Instantiation blobs (0a, count, types)\n"
    "  --methodspec-args each argument Type of each MethodSpec, one per line\n"
    "  --field           Field.Signature blobs (06, then a Type), in row order\n"
    "  --typedefs        each TypeDef as its token and name: 0x02000002 Ns.Name\n"
    "  --typerefs        each TypeRef as its token and name: 0x01000001 Ns.Name\n"
    "  --description     a gdmap JSON description: one dictionary per MethodSpec\n"
    "                    instantiation and per GENERICINST TypeSpec's arguments\n"
    "Options:\n"
    "  --shuffle SEED    with --description: permute the dictionaries, rename and\n"
    "                    re-share the instantiations (the map must not change)\n"
    "  --dictionaries N  with --description: exactly N dictionaries, the assemblies'\n"
    "                    repeated as copies with their TypeDef, TypeRef and TypeSpec\n"
    "                    rows moved (as if built against another build of them), so\n"
    "                    the share of distinct types stays the assemblies' at any N\n"
    "  --text            with --description: types as ILAsm text, not hex\n"
    "  --keep-going      report an unreadable assembly on stderr and go on\n"
    "                    (exit 1 still, unless at least one assembly was read)\n"
    "Exit status: 0 success, 1 malformed input, 2 usage or I/O error.\n";

enum class Mode { None, TypeSpec, MethodSpec, MethodSpecArgs, Field, TypeDefs, TypeRefs, Description };

struct Options {
  Mode mode = Mode::None;
  DescriptionOptions description;
  bool keepGoing = false;
  std::vector<std::string> files;
};

struct UsageError {
  std::string message;
};

std::uint64_t parseNumber(const char* text, const char* what) {
  try {
    std::size_t used = 0;
    const std::uint64_t value = std::stoull(text, &used, 0);
    if (text[used] != '\0' || text[0] == '-') throw std::invalid_argument("not a number");
    return value;
  } catch (const std::exception&) {
    throw UsageError{std::string("bad ") + what + ": " + text};
  }
}

Options parseOptions(int argc, char** argv) {
  Options options;
  const auto setMode = [&options](Mode m) {
    if (options.mode != Mode::None) throw UsageError{"give exactly one mode"};
    options.mode = m;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--typespec") {
      setMode(Mode::TypeSpec);
    } else if (arg == "--methodspec") {
      setMode(Mode::MethodSpec);
    } else if (arg == "--methodspec-args") {
      setMode(Mode::MethodSpecArgs);
    } else if (arg == "--field") {
      setMode(Mode::Field);
    } else if (arg == "--typedefs") {
      setMode(Mode::TypeDefs);
    } else if (arg == "--typerefs") {
      setMode(Mode::TypeRefs);
    } else if (arg == "--description") {
      setMode(Mode::Description);
    } else if (arg == "--keep-going") {
      options.keepGoing = true;
    } else if (arg == "--shuffle") {
      if (++i == argc) throw UsageError{"--shuffle needs a seed"};
      options.description.shuffleSeed = parseNumber(argv[i], "seed");
    } else if (arg == "--dictionaries") {
      if (++i == argc) throw UsageError{"--dictionaries needs a count"};
      options.description.dictionaries = parseNumber(argv[i], "count");
    } else if (arg == "--text") {
      options.description.text = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError{"unknown option " + std::string(arg)};
    } else {
      options.files.emplace_back(arg);
    }
  }
  if (options.mode == Mode::None) throw UsageError{"no mode given"};
  if (options.files.empty()) throw UsageError{"no assembly given"};
  const DescriptionOptions& d = options.description;
  if ((d.shuffleSeed || d.dictionaries || d.text) && options.mode != Mode::Description) {
    throw UsageError{"--shuffle, --dictionaries and --text only apply to --description"};
  }
  return options;
}

struct IoError {
  std::string message;
};

Bytes readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError{"cannot open " + path};
  try {
    // libstdc++ reports reading a directory by throwing from the iterator.
    Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw IoError{"cannot read " + path};
    return bytes;
  } catch (const std::ios_base::failure& e) {
    throw IoError{"cannot read " + path + ": " + e.what()};
  }
}

// The value, or the reader's located error thrown as MalformedAssembly.
template <typename T>
T unwrap(Expected<T> result) {
  if (!result) {
    const Error& e = result.error();
    throw MalformedAssembly("at offset " + std::to_string(e.offset) + (e.path.empty() ? "" : ": " + e.path) + ": " +
                            e.message);
  }
  return std::move(result).value();
}

// Calls visit(blob) for the blob column of every row of `table`.
template <typename Visit>
void forEachBlob(const MetadataTables& tables, const Stream& heap, std::uint8_t table, std::size_t column,
                 Visit visit) {
  for (std::uint32_t row = 1; row <= tables.rowCount(table); ++row) {
    visit(unwrap(blobAt(heap, tables.cell(table, row, column))));
  }
}

constexpr std::size_t kTypeSpecSignature = 0;
constexpr std::size_t kFieldSignature = 2;
constexpr std::size_t kMethodSpecInstantiation = 1;
// TypeDef and TypeRef both have TypeName, TypeNamespace as columns 1 and 2.
constexpr std::size_t kTypeName = 1;
constexpr std::size_t kTypeNamespace = 2;

// "0x02000005 Namespace.Name" for every row of TypeDef or TypeRef: what
// the ilasm test needs to learn which token ilasm gave each class.
void appendTypeNames(const MetadataTables& tables, const Stream& strings, std::uint8_t table, std::string& lines) {
  for (std::uint32_t row = 1; row <= tables.rowCount(table); ++row) {
    const std::string name = unwrap(stringAt(strings, tables.cell(table, row, kTypeName)));
    const std::string space = unwrap(stringAt(strings, tables.cell(table, row, kTypeNamespace)));
    lines += hex32((std::uint32_t{table} << 24) | row);
    lines += ' ';
    lines += space.empty() ? name : space + "." + name;
    lines += '\n';
  }
}

std::vector<std::string> hexList(const std::vector<ByteSpan>& spans) {
  std::vector<std::string> out;
  out.reserve(spans.size());
  for (ByteSpan s : spans) out.push_back(toHex(s));
  return out;
}

// Reads one assembly and appends what the mode asks for to `lines` (or the
// description). Everything goes to a buffer first so that a malformed file
// adds nothing to the output.
void processAssembly(const Options& options, const Bytes& file, std::string& lines, DescriptionWriter& description) {
  const ByteSpan root = unwrap(findMetadataRoot(file));
  const MetadataStreams streams = unwrap(readStreams(root, static_cast<std::size_t>(root.data() - file.data())));
  const MetadataTables tables = unwrap(MetadataTables::open(streams.tables));
  const Stream& heap = streams.blobs;
  const auto line = [&lines](ByteSpan blob) {
    lines += toHex(blob);
    lines += '\n';
  };
  std::vector<std::vector<std::string>> found;
  switch (options.mode) {
    case Mode::TypeSpec: forEachBlob(tables, heap, table::kTypeSpec, kTypeSpecSignature, line); break;
    case Mode::MethodSpec: forEachBlob(tables, heap, table::kMethodSpec, kMethodSpecInstantiation, line); break;
    case Mode::MethodSpecArgs:
      forEachBlob(tables, heap, table::kMethodSpec, kMethodSpecInstantiation, [&](ByteSpan blob) {
        for (ByteSpan argument : methodSpecArguments(blob)) line(argument);
      });
      break;
    case Mode::Field:
      forEachBlob(tables, heap, table::kField, kFieldSignature, [&](ByteSpan blob) {
        if (blob.empty() || blob[0] != 0x06) throw MalformedAssembly("field signature without 0x06");
        line(blob);
      });
      break;
    case Mode::TypeDefs: appendTypeNames(tables, streams.strings, table::kTypeDef, lines); break;
    case Mode::TypeRefs: appendTypeNames(tables, streams.strings, table::kTypeRef, lines); break;
    case Mode::Description:
      forEachBlob(tables, heap, table::kMethodSpec, kMethodSpecInstantiation,
                  [&](ByteSpan blob) { found.push_back(hexList(methodSpecArguments(blob))); });
      forEachBlob(tables, heap, table::kTypeSpec, kTypeSpecSignature, [&](ByteSpan blob) {
        if (auto arguments = genericInstanceArguments(blob)) found.push_back(hexList(*arguments));
      });
      for (auto& dictionary : found) description.add(std::move(dictionary));
      break;
    case Mode::None: break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  try {
    options = parseOptions(argc, argv);
  } catch (const UsageError& e) {
    std::cerr << "gdmap-metadata-blobs: " << e.message << " (see --help)\n";
    return 2;
  }

  DescriptionWriter description;
  std::string lines;
  std::size_t failures = 0;
  for (const std::string& path : options.files) {
    try {
      const Bytes file = readFile(path);
      std::string fileLines;
      processAssembly(options, file, fileLines, description);
      std::cout << fileLines;
    } catch (const IoError& e) {
      std::cerr << "gdmap-metadata-blobs: " << e.message << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "gdmap-metadata-blobs: " << path << ": " << e.what() << "\n";
      if (!options.keepGoing) return 1;
      ++failures;
    }
  }
  if (options.mode == Mode::Description) {
    try {
      description.write(std::cout, options.description);
    } catch (const std::logic_error& e) {
      std::cerr << "gdmap-metadata-blobs: " << e.what() << "\n";
      return 2;
    }
  }
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "gdmap-metadata-blobs: write error\n";
    return 2;
  }
  return failures == options.files.size() ? 1 : 0;
}
