// gdmap il extract: the IL-to-native bounds of every precompiled method body of a ReadyToRun image
// (docs/r2r.md), as an IL-map description: one method per body, with its
// token, code size (body and funclets), bounds and, for a generic
// instantiation, its type and method arguments.
#include "exit_status.hpp"
#include "file_io.hpp"
#include "il_arguments.hpp"
#include "il_commands.hpp"
#include "input_kind.hpp"
#include "r2r_components.hpp"
#include "report.hpp"
#include "type_names_input.hpp"

#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace gdmap::cli {
namespace {

// What the summary says about the bodies: how many of each kind, how many
// share a blob, which were left out and why.
struct ExtractCounts {
  std::size_t bodies = 0;   // in the image (or with --method's token)
  std::size_t methods = 0;  // written
  std::size_t methodDefs = 0;
  std::size_t instantiations = 0;
  std::size_t unboxingStubs = 0;
  std::size_t blobs = 0;           // distinct debug-info blobs of the written methods
  std::size_t sharingMethods = 0;  // written methods whose blob another written method shares
  std::size_t noDebugInfo = 0;     // skipped: no element in the debug-info section
  std::size_t noBounds = 0;        // skipped: a blob whose cbBounds is 0
  std::size_t duplicates = 0;      // skipped: the token and instantiation of an earlier body
  std::size_t nonCanonical = 0;    // written with layout overrides (a canonical build would give other bytes)
};

std::string methodPath(const r2r::MethodBody& body) { return "method " + hex32(body.token); }

std::size_t fileOffsetOf(ByteSpan file, ByteSpan part) { return static_cast<std::size_t>(part.data() - file.data()); }

// The body's code: its entry, its funclets, then its cold part.
std::vector<il::CodeRange> codeRanges(const r2r::MethodBody& body, const r2r::R2RImage& image) {
  std::vector<il::CodeRange> ranges;
  ranges.reserve(body.runtimeFunctionCount + body.coldRuntimeFunctionCount);
  const auto add = [&](std::uint32_t first, std::uint32_t count) {
    for (std::uint32_t f = first; f < first + count; ++f) {
      ranges.push_back({image.runtimeFunctions[f].begin, image.runtimeFunctions[f].size()});
    }
  };
  add(body.firstRuntimeFunction, body.runtimeFunctionCount);
  add(body.firstColdRuntimeFunction, body.coldRuntimeFunctionCount);
  return ranges;
}

// The description's method for one body, or nothing (skipped or invalid;
// an invalid blob is an error in `report`).
std::optional<il::Method> extractMethod(const r2r::MethodBody& body, const r2r::R2RImage& image, il::BoundsForm form,
                                        ByteSpan file, const std::string& name, ExtractCounts& counts, Report& report) {
  if (!body.hasDebugInfo) {
    ++counts.noDebugInfo;
    return std::nullopt;
  }
  if (body.bounds.empty()) {
    ++counts.noBounds;
    return std::nullopt;
  }
  // The reader validated the blob strictly (bytes after the last bound
  // aside); a blob that `il build` would not give back as it is gets the
  // layout overrides that make it exact, as `il dump` writes them.
  il::ExactIlMethod exact = il::describeIlBlob(body.bounds, form);
  if (exact.raw) {
    Diagnostic d;
    d.rule = rules::kR2rBadDebugInfo;
    d.message = methodPath(body) + ": its bounds cannot be described as " + std::string(il::formName(form)) + " bounds";
    d.offset = fileOffsetOf(file, body.bounds);
    d.file = name;
    report.add(std::move(d));
    return std::nullopt;
  }
  if (exact.method.layout) ++counts.nonCanonical;
  il::Method method;
  method.token = body.token;
  method.codeSize = body.codeSize;
  method.bounds = std::move(exact.method.bounds);
  method.layout = std::move(exact.method.layout);
  method.code = codeRanges(body, image);
  if (body.instantiated) {
    il::Instantiation inst;
    inst.typeArguments = body.typeArguments;
    inst.methodArguments = body.methodArguments;
    inst.unboxingStub = (body.signatureFlags & r2r::method_sig::kUnboxingStub) != 0;
    method.instantiation = std::move(inst);
  }
  return method;
}

// Blobs shared by several written methods (the lookback's purpose): counted
// by their file offsets.
void countSharing(std::vector<std::size_t> offsets, ExtractCounts& counts) {
  std::sort(offsets.begin(), offsets.end());
  for (std::size_t i = 0; i < offsets.size();) {
    std::size_t j = i + 1;
    while (j < offsets.size() && offsets[j] == offsets[i]) ++j;
    ++counts.blobs;
    if (j - i > 1) counts.sharingMethods += j - i;
    i = j;
  }
}

// Two bodies the description could not tell apart (one token, one
// instantiation) are never seen in real images, but a hostile image must
// not make a description that `il build` then refuses: the later ones are
// skipped (counted as duplicates). Marks them in `drop`.
std::size_t markDuplicates(const std::vector<il::Method>& methods, std::vector<bool>& drop) {
  static const il::Instantiation kNone;
  // A method's identity in a description: its token and its instantiation.
  const auto identity = [&](std::size_t i) {
    const il::Method& m = methods[i];
    const il::Instantiation& inst = m.instantiation ? *m.instantiation : kNone;
    return std::tuple<std::uint32_t, bool, const std::vector<std::string>&, const std::vector<std::string>&, bool>(
        m.token, m.instantiation.has_value(), inst.typeArguments, inst.methodArguments, inst.unboxingStub);
  };
  std::vector<std::size_t> order(methods.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Stable: of equal identities, the first in the image is kept.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return identity(a) < identity(b); });
  drop.assign(methods.size(), false);
  std::size_t dropped = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (identity(order[i]) != identity(order[i - 1])) continue;
    drop[order[i]] = true;
    ++dropped;
  }
  return dropped;
}

// "1 method", "2 methods".
std::string counted(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

void summarize(const r2r::R2RImage& image, const ExtractCounts& c, const std::string& name,
               const std::string& component, Report& report) {
  if (report.json()) {
    JsonObject& o = report.object();
    if (!component.empty()) o.string("component", component);
    o.string("boundsForm", il::formName(image.profile.bounds));
    o.string("machine", r2r::describeMachine(image));
    o.string("peMachine", hex32(image.peMachine));
    o.number("majorVersion", image.majorVersion);
    o.number("minorVersion", image.minorVersion);
    o.number("bodies", c.bodies);
    o.number("methods", c.methods);
    o.number("methodDefs", c.methodDefs);
    o.number("instantiations", c.instantiations);
    o.number("unboxingStubs", c.unboxingStubs);
    o.number("blobs", c.blobs);
    o.number("methodsSharingBlobs", c.sharingMethods);
    o.number("nonCanonical", c.nonCanonical);
    o.number("splitMethods", image.summary.splitMethods);
    o.number("fatDebugInfo", image.summary.fatDebugInfo);
    o.number("boundsWithTrailingBytes", image.summary.boundsWithTrailingBytes);
    o.raw("skipped", "{\"noDebugInfo\": " + std::to_string(c.noDebugInfo) + ", \"noBounds\": " +
                         std::to_string(c.noBounds) + ", \"duplicates\": " + std::to_string(c.duplicates) + "}");
    return;
  }
  std::string line = name + (component.empty() ? "" : " (component " + component + ")") + ": " +
                     r2r::describeMachine(image) + ", ReadyToRun " + std::to_string(image.majorVersion) + "." +
                     std::to_string(image.minorVersion) + " (" + std::string(il::formName(image.profile.bounds)) +
                     " bounds): " + counted(c.methods, "method", "methods") + " (" + std::to_string(c.methodDefs) +
                     " MethodDef, " + counted(c.instantiations, "instantiation", "instantiations") + ", " +
                     counted(c.unboxingStubs, "unboxing stub", "unboxing stubs") + "), " +
                     counted(c.blobs, "bounds blob", "bounds blobs") + " (" +
                     counted(c.sharingMethods, "method shares", "methods share") + " one)";
  const std::size_t skipped = c.noDebugInfo + c.noBounds + c.duplicates;
  line += "; skipped " + std::to_string(skipped);
  if (skipped != 0) {
    line += " (" + std::to_string(c.noDebugInfo) + " without debug info, " + std::to_string(c.noBounds) +
            " with no bounds, " + std::to_string(c.duplicates) +
            " repeating an earlier body's token and instantiation)";
  }
  if (c.nonCanonical != 0) line += "; " + std::to_string(c.nonCanonical) + " with layout overrides (not canonical)";
  std::cerr << line << '\n';
}

// A file beside `path` (same folder), for a composite image's component
// files and a component's composite image.
std::string besides(const std::string& path, const std::string& name) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? name : path.substr(0, slash + 1) + name;
}

// "Sample.A" of ".../Sample.A.dll".
std::string simpleName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base;
}

void addError(Report& report, const std::string& file, const char* rule, std::string message) {
  Diagnostic d;
  d.rule = rule;
  d.message = std::move(message);
  d.file = file;
  report.add(std::move(d));
}

// What is extracted: the image holding the code, and (composite images)
// the component whose methods are written, with the names to use.
struct Source {
  std::optional<InputBytes> input;      // the image given
  std::optional<InputBytes> composite;  // the composite image a component points at
  std::string name;                     // the file the code is read from, as diagnostics call it
  ByteSpan file;
  std::optional<std::uint32_t> component;
  std::string componentName;
  std::unique_ptr<metadata::AssemblyTypeNames> names;
};

int extract(const IlExtractOptions& options, Report& report) {
  std::optional<Output> output;
  Source src;
  src.input = openInputAndOutput(options.image, options.output, OutputKind::Text, output, report);
  if (!src.input) return kUsageOrIo;
  src.name = src.input->displayName();
  src.file = src.input->bytes();
  // --names: the image is an assembly; its own metadata names its methods
  // and the types of its instantiations.
  if (options.names &&
      !(src.names = assemblyNames(src.file, src.name, "--names: its metadata cannot be read: ", report))) {
    noteJsonNotPeImage(*src.input, report);
    return kInvalid;
  }
  Expected<r2r::R2RImage> image = r2r::readR2RImage(src.file, src.names.get());
  // A component assembly of a composite image: its code is in the
  // composite image (--composite, or the file its header names, beside it).
  std::string wanted = options.component;
  if (image && !image->ownerComposite.empty()) {
    const std::string path = options.composite.empty() ? besides(src.name, image->ownerComposite) : options.composite;
    if (wanted.empty()) wanted = simpleName(src.name);
    if (report.json()) {
      report.object().string("composite", path);
    } else {
      std::cerr << src.name << ": a component of the composite image " << image->ownerComposite << "; reading " << path
                << '\n';
    }
    src.composite = openInput(path, report);
    if (!src.composite) return kUsageOrIo;
    src.name = src.composite->displayName();
    src.file = src.composite->bytes();
    image = r2r::readR2RImage(src.file, nullptr);
    if (image && image->components.empty()) {
      addError(report, src.name, rules::kR2rBadComposite,
               "the component " + src.input->displayName() +
                   " names it as its composite image, but it has no "
                   "component assemblies");
      return kInvalid;
    }
  }
  if (!image) {
    Diagnostic d = binaryDiagnostic(image.error());
    d.file = src.name;
    report.add(std::move(d));
    noteJsonNotPeImage(*src.input, report);
    return kInvalid;
  }
  if (image->components.empty() && !options.component.empty()) {
    addError(report, src.name, rules::kIlMethodNotFound,
             "--component " + quoteInput(options.component) + ": the image is not a composite image");
    return kInvalid;
  }
  if (!image->components.empty()) {
    const std::vector<std::string> components = componentNames(*image, src.file);
    if (wanted.empty() && components.size() == 1) wanted = components.front();
    for (std::uint32_t i = 0; i < components.size(); ++i) {
      if (components[i] == wanted || (std::to_string(i) == wanted)) src.component = i;
    }
    if (!src.component) {
      std::vector<std::size_t> counts(components.size());
      for (const r2r::MethodBody& m : image->methods) ++counts[m.component];
      std::string list;
      for (std::size_t i = 0; i < components.size(); ++i) {
        list += (i ? ", " : "") + components[i] + " (" + std::to_string(counts[i]) + " bodies)";
      }
      addError(report, src.name, rules::kIlMethodNotFound,
               (wanted.empty() ? std::string("a composite image of ") + std::to_string(components.size()) +
                                     " component assemblies: choose one with --component NAME: "
                               : "no component " + quoteInput(wanted) + " in this composite image: ") +
                   list);
      return kInvalid;
    }
    src.componentName = components[*src.component];
    // The component's own metadata names its methods: the component file
    // given, or the one beside the composite image.
    if (options.names && !src.composite) {
      const std::string path = besides(src.name, src.componentName + ".dll");
      std::optional<InputBytes> component = openInput(path, report);
      if (!component) return kUsageOrIo;
      if (!(src.names = assemblyNames(component->bytes(), path, "--names: its metadata cannot be read: ", report)))
        return kInvalid;
    }
  }
  const std::string& name = src.name;
  const ByteSpan file = src.file;
  const std::unique_ptr<metadata::AssemblyTypeNames>& names = src.names;
  const std::optional<std::uint32_t> only = optionalU32(options.method);
  ExtractCounts counts;
  std::vector<il::Method> methods;
  std::vector<std::size_t> blobOffsets;
  methods.reserve(image->methods.size());
  blobOffsets.reserve(image->methods.size());
  const std::size_t errorsBefore = report.errors();
  for (const r2r::MethodBody& body : image->methods) {
    if (src.component && body.component != *src.component) continue;
    if (only && body.token != *only) continue;
    ++counts.bodies;
    std::optional<il::Method> method = extractMethod(body, *image, image->profile.bounds, file, name, counts, report);
    if (!method) continue;
    // An instantiation of another module's method (its owner type's module
    // override) is not named by this module's metadata.
    if (names && !(body.hasModule && !src.component)) method->name = names->methodName(method->token);
    methods.push_back(std::move(*method));
    blobOffsets.push_back(body.debugInfoOffset);
  }
  std::vector<bool> drop;
  counts.duplicates = markDuplicates(methods, drop);
  if (counts.duplicates != 0) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < methods.size(); ++i) {
      if (drop[i]) continue;
      methods[kept] = std::move(methods[i]);
      blobOffsets[kept] = blobOffsets[i];
      ++kept;
    }
    methods.resize(kept);
    blobOffsets.resize(kept);
  }
  counts.methods = methods.size();
  for (const il::Method& m : methods) {
    if (!m.instantiation) {
      ++counts.methodDefs;
      continue;
    }
    ++counts.instantiations;
    if (m.instantiation->unboxingStub) ++counts.unboxingStubs;
  }
  countSharing(std::move(blobOffsets), counts);
  if (only && counts.bodies == 0) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.message = "the image has no precompiled body of method " + tokenText(*only) + " (" +
                std::to_string(image->methods.size()) + " bodies)";
    d.file = name;
    report.add(std::move(d));
    summarize(*image, counts, name, src.componentName, report);
    return kInvalid;
  }
  summarize(*image, counts, name, src.componentName, report);
  if (report.errors() != errorsBefore) return kInvalid;
  if (!output->write(il::writeIlDescription(methods), report)) return kUsageOrIo;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

}  // namespace

int runIlExtract(const IlExtractOptions& options, Report& report) {
  report.nameInput(options.image);
  return runToOutput(extract, options, report,
                     {"boundsForm", "machine", "peMachine", "majorVersion", "minorVersion", "bodies", "methods",
                      "methodDefs", "instantiations", "unboxingStubs", "blobs", "methodsSharingBlobs", "nonCanonical",
                      "splitMethods", "fatDebugInfo", "boundsWithTrailingBytes", "skipped", "output"});
}

}  // namespace gdmap::cli
