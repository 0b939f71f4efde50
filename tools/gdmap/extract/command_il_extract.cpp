// gdmap il extract: the IL-to-native bounds of every precompiled method body of a ReadyToRun image
// (docs/r2r.md), as an IL-map description: one method per body, with its
// token, code size (body and funclets), bounds and, for a generic
// instantiation, its type and method arguments.
#include "app/exit_status.hpp"
#include "app/il_commands.hpp"
#include "common/file_io.hpp"
#include "common/input_kind.hpp"
#include "common/report.hpp"
#include "common/type_names_input.hpp"
#include "extract/bound_lines.hpp"
#include "extract/process_extract.hpp"
#include "il/il_arguments.hpp"
#include "il/il_description_output.hpp"
#include "il/method_query.hpp"
#include "image/r2r_components.hpp"
#include "image/runtime_target.hpp"
#include "locate/locate_image_setup.hpp"

#include <gdmap/description/il_description_exact.hpp>
#include <gdmap/description/il_description_json.hpp>
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <algorithm>
#include <iostream>
#include <map>
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
  std::size_t asyncVariants = 0;    // runtime async (R2R 26)
  std::size_t resumptionStubs = 0;  // runtime async: bodies no entry point lists
  std::size_t sharedBodies = 0;     // methods starting where another one starts (one body, several methods)
  std::size_t blobs = 0;            // distinct debug-info blobs of the written methods
  std::size_t sharingMethods = 0;   // written methods whose blob another written method shares
  std::size_t noDebugInfo = 0;      // skipped: no element in the debug-info section
  std::size_t noBounds = 0;         // skipped: a blob whose cbBounds is 0
  std::size_t duplicates = 0;       // skipped: the token and instantiation of an earlier body
  std::size_t nonCanonical = 0;     // written with layout overrides (a canonical build would give other bytes)
};

std::string methodPath(const r2r::MethodBody& body) {
  return body.resumptionStub ? "the resumption stub of method " + hex32(body.token) : "method " + hex32(body.token);
}

std::size_t fileOffsetOf(ByteSpan file, ByteSpan part) { return static_cast<std::size_t>(part.data() - file.data()); }

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
  method.code = bodyCodeRanges(body, image);
  method.instantiation = bodyInstantiation(body);
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
  // A method's identity in a description: its component, its token and
  // its instantiation. Sorted by token first (integers), each run of one
  // token then by the rest: most runs are one method long.
  static const il::Instantiation kNone;
  const auto rest = [&](std::size_t i) {
    const il::Method& m = methods[i];
    const il::Instantiation& inst = m.instantiation ? *m.instantiation : kNone;
    return std::tie(m.component, inst.typeArguments, inst.methodArguments, inst.unboxingStub, inst.asyncVariant,
                    inst.resumptionStub);
  };
  std::vector<std::pair<std::uint32_t, std::size_t>> order(methods.size());  // (token, index)
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = {methods[i].token, i};
  std::sort(order.begin(), order.end());
  drop.assign(methods.size(), false);
  std::size_t dropped = 0;
  std::vector<std::size_t> run;
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && order[j].first == order[i].first) ++j;
    if (j - i > 1) {
      run.clear();
      for (std::size_t k = i; k < j; ++k) run.push_back(order[k].second);
      // Stable by index: of equal identities, the first in the image is kept.
      std::stable_sort(run.begin(), run.end(), [&](std::size_t a, std::size_t b) { return rest(a) < rest(b); });
      for (std::size_t k = 1; k < run.size(); ++k) {
        if (rest(run[k]) != rest(run[k - 1])) continue;
        drop[run[k]] = true;
        ++dropped;
      }
    }
    i = j;
  }
  return dropped;
}

// "1 method", "2 methods".
std::string counted(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

// `component`: the one component written (a composite image), or empty;
// `components`: how many were written (0: not a composite image).
void summarize(const r2r::R2RImage& image, const ExtractCounts& c, const std::string& name,
               const std::string& component, std::size_t components, Report& report) {
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
    o.number("asyncVariants", c.asyncVariants);
    o.number("resumptionStubs", c.resumptionStubs);
    o.number("sharedBodies", c.sharedBodies);
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
  const std::string which = !component.empty() ? " (component " + component + ")"
                            : components > 1   ? " (" + std::to_string(components) + " components)"
                                               : std::string();
  std::string line =
      name + which + ": " + r2r::describeMachine(image) + ", ReadyToRun " + std::to_string(image.majorVersion) + "." +
      std::to_string(image.minorVersion) +
      (image.readAsMajorVersion != image.majorVersion ? " read as " + std::to_string(image.readAsMajorVersion)
                                                      : std::string()) +
      " (" + std::string(il::formName(image.profile.bounds)) + " bounds): " + counted(c.methods, "method", "methods") +
      " (" + std::to_string(c.methodDefs) + " MethodDef, " +
      counted(c.instantiations, "instantiation", "instantiations") + ", " +
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
  if (c.asyncVariants + c.resumptionStubs != 0) {
    line += "; runtime async: " + counted(c.asyncVariants, "async variant", "async variants") + ", " +
            counted(c.resumptionStubs, "resumption stub", "resumption stubs");
  }
  if (c.sharedBodies != 0) {
    line += "; " + counted(c.sharedBodies, "method starts", "methods start") + " where another does (one body)";
  }
  if (c.nonCanonical != 0) line += "; " + std::to_string(c.nonCanonical) + " with layout overrides (not canonical)";
  std::cerr << line << '\n';
}

void addError(Report& report, const std::string& file, const char* rule, std::string message) {
  Diagnostic d;
  d.rule = rule;
  d.message = std::move(message);
  d.file = file;
  report.add(std::move(d));
}

// What is extracted: the image holding the code, and (composite images)
// the component whose methods are written, or every component's.
struct Source {
  std::optional<InputBytes> input;                   // the image given
  std::optional<symbolize::AssemblyFile> composite;  // the composite image a component points at
  std::string name;                                  // the file the code is read from, as diagnostics call it
  ByteSpan file;
  std::optional<std::uint32_t> component;  // a composite image's one component; none: every one
  std::string componentName;
  std::vector<std::string> componentNames;  // a composite image's, by index
  // The metadata that names methods: the image's own, or (composite
  // images) each component's, by component index.
  // Their IL sizes check the bounds' IL offsets.
  AssemblyMetadata own;
  std::vector<AssemblyMetadata> components;
};

// Opens the image (and, for a component assembly, its composite image) and
// reads it; the failure is in `report`.
std::optional<r2r::R2RImage> readSource(const IlExtractOptions& options, Source& src, std::string& wanted,
                                        Report& report, int& status) {
  status = kInvalid;
  // --names: an assembly's own metadata names its methods and the types of
  // its instantiations (a composite image's: its components' files).
  // (A composite image has no metadata of its own; anything else without
  // it is no assembly, which --names says first.)
  const bool ownMetadata = hasOwnMetadata(src.file);
  if (options.names && ownMetadata && !(src.own = assemblyMetadata(src.file, src.name, report)).names) {
    noteJsonNotPeImage(*src.input, report);
    return std::nullopt;
  }
  Expected<r2r::R2RImage> image = r2r::readR2RImage(src.file, src.own.names.get());
  if (options.names && !ownMetadata && !(image && !image->components.empty())) {
    assemblyNames(src.file, src.name, "--names: its metadata cannot be read: ", report);
    noteJsonNotPeImage(*src.input, report);
    return std::nullopt;
  }
  // Without --names the IL sizes are still read: the self-check needs them.
  if (image && image->components.empty() && image->ownerComposite.empty() && !src.own.names) {
    if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(src.file)) {
      src.own.ilBodies = std::move(*il);
    }
  }
  // A component assembly of a composite image: its code is in the
  // composite image (--composite, or the file its header names, beside it).
  if (image && !image->ownerComposite.empty()) {
    const InputResolver resolver;
    const std::string path =
        options.composite.empty() ? resolver.find(image->ownerComposite, src.name) : options.composite;
    if (wanted.empty()) wanted = symbolize::assemblySimpleName(src.name);
    if (report.json()) {
      report.object().string("composite", path);
    } else {
      std::cerr << src.name << ": a component of the composite image " << image->ownerComposite << "; reading " << path
                << '\n';
    }
    Expected<symbolize::AssemblyFile> composite = resolver.open(path);
    if (!composite) {
      reportInputError(path, composite.error(), report);
      status = kUsageOrIo;
      return std::nullopt;
    }
    src.composite = std::move(*composite);
    src.name = src.composite->path;
    src.file = src.composite->bytes;
    image = r2r::readR2RImage(src.file, nullptr);
    if (image && image->components.empty()) {
      addError(report, src.name, rules::kR2rBadComposite,
               "the component " + src.input->displayName() +
                   " names it as its composite image, but it has no component assemblies");
      return std::nullopt;
    }
  }
  if (!image) {
    Diagnostic d = binaryDiagnostic(image.error());
    d.file = src.name;
    report.add(std::move(d));
    noteJsonNotPeImage(*src.input, report);
    return std::nullopt;
  }
  if (!reportImageWarnings(*image, src.name, options.strict, report)) return std::nullopt;
  return std::move(*image);
}

// A composite image: the component chosen (--component, the component
// assembly given, the only one) or, with none chosen, every one; and the
// components' own metadata for --names. False (the error in `report`) when
// the choice names no component.
bool chooseComponents(const IlExtractOptions& options, const r2r::R2RImage& image, const std::string& wanted,
                      Source& src, Report& report, int& status) {
  status = kInvalid;
  if (image.components.empty()) {
    if (options.component.empty()) return true;
    addError(report, src.name, rules::kIlMethodNotFound,
             "--component " + quoteInput(options.component) + ": the image is not a composite image");
    return false;
  }
  src.componentNames = componentNames(image, src.file);
  const std::vector<std::string>& components = src.componentNames;
  if (wanted.empty() && components.size() == 1) src.component = 0;
  for (std::uint32_t i = 0; i < components.size() && !wanted.empty(); ++i) {
    if (components[i] == wanted || std::to_string(i) == wanted) src.component = i;
  }
  if (!wanted.empty() && !src.component) {
    addError(report, src.name, rules::kIlMethodNotFound,
             "no component " + quoteInput(wanted) + " in this composite image of " + std::to_string(components.size()) +
                 " component assemblies (listed below; none chosen: every one)");
    listComponents(image, components, src.name, report);
    return false;
  }
  if (src.component) src.componentName = components[*src.component];
  if (report.json()) listComponents(image, components, src.name, report);
  // The components' own metadata names their methods: the component file
  // given, or the ones beside the composite image.
  if (src.composite) {
    // The component assembly given: its own metadata, IL sizes always (the
    // self-check), names with --names.
    src.components.resize(components.size());
    AssemblyMetadata& own = src.components[*src.component];
    own.bytes = src.input->bytes();
    if (options.names) {
      own = assemblyMetadata(src.input->bytes(), src.input->displayName(), report);
      if (!own.names) return false;
    } else if (Expected<std::vector<metadata::MethodIl>> il = metadata::methodIlBodies(src.input->bytes())) {
      own.ilBodies = std::move(*il);
    }
  } else if (options.names) {
    std::vector<std::string> wantedNames = components;
    for (std::size_t i = 0; i < wantedNames.size(); ++i) {
      if (src.component && i != *src.component) wantedNames[i].clear();
    }
    src.components = componentMetadata(wantedNames, src.name, report, status);
    if (src.components.empty()) return false;
  }
  return true;
}

// A body's names, from its assembly's metadata when --names (or --method
// NAME) read it: an instantiation of another module's method (its owner
// type's module override) is not named by this module's metadata.
struct BodyNames {
  std::string name;
  std::string signature;
  std::string typical;  // the signature without the instantiation: every body of the method
};

const AssemblyMetadata* metadataOf(const r2r::MethodBody& body, const r2r::R2RImage& image, const Source& src) {
  if (image.components.empty()) return body.hasModule ? nullptr : &src.own;
  return body.component < src.components.size() ? &src.components[body.component] : nullptr;
}

BodyNames bodyNames(const r2r::MethodBody& body, const r2r::R2RImage& image, const Source& src, bool typical) {
  BodyNames out;
  const AssemblyMetadata* own = metadataOf(body, image, src);
  if (!own || !own->names) return out;
  out.name = own->names->methodName(body.token);
  if (own->signatures) {
    const std::optional<il::Instantiation> inst = bodyInstantiation(body);
    out.signature = own->signatures->signatureOf(body.token, inst ? &*inst : nullptr);
    if (typical) out.typical = inst ? own->signatures->signatureOf(body.token) : out.signature;
  }
  return out;
}

// A method --method NAME answers, listed by its own signature (not one
// instantiation's) when the name answers several.
MethodCandidate candidateOf(const r2r::MethodBody& body, const BodyNames& named, const Source& src, bool components) {
  MethodCandidate c;
  c.token = body.token;
  if (components && body.component < src.componentNames.size()) c.where = src.componentNames[body.component];
  c.signature = !named.typical.empty() ? named.typical : !named.signature.empty() ? named.signature : named.name;
  return c;
}

// --lines: the portable PDBs whose lines the written methods get, by
// component name ("" for a single assembly's methods). Empty without
// --lines; nullopt (the error in `report`) when the PDB of the one
// assembly asked for cannot be had.
using ImagePdbs = std::map<std::string, symbolize::ImagePdb>;

std::optional<ImagePdbs> openPdbs(const IlExtractOptions& options, const Source& src, const r2r::R2RImage& image,
                                  Report& report) {
  ImagePdbs pdbs;
  if (!options.lines) return pdbs;
  const bool every = !image.components.empty() && !src.component;
  if (!every) {
    // The assembly's own file: the image, or the component assembly given.
    const InputBytes& assembly = *src.input;
    Expected<symbolize::ImagePdb> pdb =
        symbolize::ImagePdb::open(assembly.bytes(), assembly.displayName(), options.pdb);
    if (!pdb) {
      Diagnostic d;
      d.rule = pdb.error().rule;
      d.file = assembly.displayName();
      d.message = "--lines: " + pdb.error().message;
      report.add(std::move(d));
      return std::nullopt;
    }
    pdbs.emplace(std::string(), std::move(*pdb));  // the methods name no component
    return pdbs;
  }
  // Every component: each one's PDB beside its file, beside the composite image.
  symbolize::PdbCache cache;
  const InputResolver resolver;
  for (const std::string& component : src.componentNames) {
    if (const symbolize::ImagePdb* pdb = cache.of(resolver.find(component + ".dll", src.name)))
      pdbs.emplace(component, *pdb);
  }
  for (const symbolize::PdbNote& note : cache.takeNotes())
    addPdbNote(report, note, Severity::Warning, "--lines: no lines for its methods");
  return pdbs;
}

// Each method's lines, from its assembly's PDB, as it is written.
MethodFinish linesFinish(const ImagePdbs& pdbs) {
  if (pdbs.empty()) return {};
  return [&pdbs](il::Method& m) -> Status {
    const auto pdb = pdbs.find(m.component);
    return pdb == pdbs.end() ? Status(Success{}) : addBoundLines(m, pdb->second);
  };
}

// The self-check the metadata allows: IL offsets inside their method's IL.
bool ilOffsetsInside(const r2r::R2RImage& image, const Source& src, Report& report) {
  if (image.components.empty())
    return checkIlOffsets(image, src.file, src.file, src.own.ilBodies, std::nullopt, src.name, report);
  bool inside = true;
  for (std::uint32_t c = 0; c < src.components.size(); ++c) {
    if (!src.components[c].ilBodies.empty()) {
      inside &=
          checkIlOffsets(image, src.file, src.components[c].bytes, src.components[c].ilBodies, c, src.name, report);
    }
  }
  return inside;
}

// The methods of the bodies asked for, in the image's order, with what
// the summary and the checks after them need.
struct Extracted {
  std::map<std::pair<std::uint32_t, std::uint32_t>, MethodCandidate> candidates;  // (component, token): a name's
  ExtractCounts counts;
  std::vector<il::Method> methods;
  std::vector<std::size_t> blobOffsets;
  std::vector<std::uint32_t> componentOf;  // of each method (every component's: grouped by it)
};

// Whether --method NAME (if given) answers the body (a candidate then).
bool answersName(const r2r::MethodBody& body, const MethodQuery& query, const Source& src, const BodyNames& named,
                 bool everyComponent, Extracted& out) {
  if (query.byName()) {
    // The body's own signature, or its method's (every instantiation).
    if (!answersQuery(query, named.name, named.signature) && !answersQuery(query, named.name, named.typical))
      return false;
    out.candidates.try_emplace({body.component, body.token}, candidateOf(body, named, src, everyComponent));
  }
  return true;
}

void extractMethods(const r2r::R2RImage& image, const Source& src, const MethodQuery& query, Extracted& out,
                    Report& report) {
  const bool everyComponent = !image.components.empty() && !src.component;
  out.methods.reserve(image.methods.size());
  out.blobOffsets.reserve(image.methods.size());
  for (const r2r::MethodBody& body : image.methods) {
    if (src.component && body.component != *src.component) continue;
    if (query.token && body.token != *query.token) continue;
    const BodyNames named = bodyNames(body, image, src, query.byName());
    if (!answersName(body, query, src, named, everyComponent, out)) continue;
    ++out.counts.bodies;
    std::optional<il::Method> method =
        extractMethod(body, image, image.profile.bounds, src.file, src.name, out.counts, report);
    if (!method) continue;
    if (everyComponent) method->component = src.componentNames[body.component];
    method->name = named.name;
    method->signature = named.signature;
    out.methods.push_back(std::move(*method));
    out.blobOffsets.push_back(body.debugInfoOffset);
    out.componentOf.push_back(body.component);
  }
}

// The methods written, without duplicates, every component's grouped by
// component (each group in the image's order); their blobs' offsets.
std::vector<il::Method> writtenMethods(Extracted& x, bool everyComponent, std::vector<std::size_t>& writtenBlobs) {
  std::vector<bool> drop;
  x.counts.duplicates = markDuplicates(x.methods, drop);
  // In place when nothing moves (the usual case: one image, no repeats).
  if (!everyComponent && x.counts.duplicates == 0) {
    writtenBlobs = std::move(x.blobOffsets);
    return std::move(x.methods);
  }
  std::vector<std::size_t> order(x.methods.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (everyComponent) {
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return x.componentOf[a] < x.componentOf[b]; });
  }
  std::vector<il::Method> written;
  written.reserve(x.methods.size());
  writtenBlobs.reserve(x.methods.size());
  for (const std::size_t i : order) {
    if (drop[i]) continue;
    written.push_back(std::move(x.methods[i]));
    writtenBlobs.push_back(x.blobOffsets[i]);
  }
  return written;
}

// The written methods by kind.
void countKinds(const std::vector<il::Method>& written, ExtractCounts& counts) {
  counts.methods = written.size();
  for (const il::Method& m : written) {
    if (!m.instantiation) {
      ++counts.methodDefs;
      continue;
    }
    if (m.instantiation->resumptionStub) {
      ++counts.resumptionStubs;
      continue;
    }
    if (m.instantiation->asyncVariant) ++counts.asyncVariants;
    if (m.instantiation->typeArguments.empty() && m.instantiation->methodArguments.empty() &&
        !m.instantiation->unboxingStub) {
      ++counts.methodDefs;
      continue;
    }
    ++counts.instantiations;
    if (m.instantiation->unboxingStub) ++counts.unboxingStubs;
  }
}

// The bodies asked for that start where another body does.
std::size_t sharedBodies(const r2r::R2RImage& image, const Source& src, const MethodQuery& query, const Extracted& x) {
  std::size_t shared = 0;
  for (const r2r::MethodBody& body : image.methods) {
    if (body.sharedBody && (!src.component || body.component == *src.component) &&
        (!query.token || body.token == *query.token) &&
        (!query.byName() || x.candidates.count({body.component, body.token}) != 0))
      ++shared;
  }
  return shared;
}

// --method that answers several methods or none: the error (and the
// summary), its exit status; nothing when the bodies asked for were found.
std::optional<int> unansweredQuery(const r2r::R2RImage& image, const Source& src, const MethodQuery& query,
                                   Extracted& x, Report& report) {
  const std::size_t components = src.component ? 1 : src.componentNames.size();
  if (x.candidates.size() > 1) {
    std::vector<MethodCandidate> listed;
    listed.reserve(x.candidates.size());
    for (auto& [key, candidate] : x.candidates) listed.push_back(std::move(candidate));
    return ambiguousMethod(query, listed, src.name, report);
  }
  if (query.byName() && x.counts.bodies == 0) {
    addError(report, src.name, rules::kIlMethodNotFound,
             "no precompiled body of the image's methods is named " + quoteInput(query.name, 400) + " (" +
                 std::to_string(image.methods.size()) + " bodies)");
    summarize(image, x.counts, src.name, src.componentName, components, report);
    return kInvalid;
  }
  if (query.token && x.counts.bodies == 0) {
    Diagnostic d;
    d.rule = rules::kIlMethodNotFound;
    d.message = "the image has no precompiled body of method " + tokenText(*query.token) + " (" +
                std::to_string(image.methods.size()) + " bodies)";
    d.file = src.name;
    report.add(std::move(d));
    summarize(image, x.counts, src.name, src.componentName, components, report);
    return kInvalid;
  }
  return std::nullopt;
}

// The image read, its methods extracted and written.
int extractImage(const IlExtractOptions& options, Source& src, const Output& output, Report& report) {
  std::string wanted = options.component;
  int status = kInvalid;
  std::optional<r2r::R2RImage> image = readSource(options, src, wanted, report, status);
  if (!image) return status;
  if (!chooseComponents(options, *image, wanted, src, report, status)) return status;
  if (!ilOffsetsInside(*image, src, report)) return kInvalid;
  const MethodQuery query = parseMethodQuery(options.method);
  const std::size_t errorsBefore = report.errors();
  Extracted x;
  extractMethods(*image, src, query, x, report);
  std::vector<std::size_t> writtenBlobs;
  std::vector<il::Method> written = writtenMethods(x, !image->components.empty() && !src.component, writtenBlobs);
  countKinds(written, x.counts);
  x.counts.sharedBodies = sharedBodies(*image, src, query, x);
  countSharing(std::move(writtenBlobs), x.counts);
  if (const std::optional<int> failed = unansweredQuery(*image, src, query, x, report)) return *failed;
  summarize(*image, x.counts, src.name, src.componentName, src.component ? 1 : src.componentNames.size(), report);
  if (report.errors() != errorsBefore) return kInvalid;
  const std::optional<ImagePdbs> pdbs = openPdbs(options, src, *image, report);
  if (!pdbs) return kInvalid;
  status = writeIlDescription(output, written, options.api, report, linesFinish(*pdbs));
  if (status != kSuccess) return status;
  if (report.json()) report.object().string("output", options.output);
  return kSuccess;
}

int extract(const IlExtractOptions& given, Report& report) {
  // --method NAME needs the names: it implies --names.
  IlExtractOptions options = given;
  options.names |= parseMethodQuery(options.method).byName();
  options.lines |= !options.pdb.empty();
  if (options.lines && options.api)
    return report.fail(kUsageOrIo, rules::kUsage,
                       "--lines gives each bound its source line: an API array (--api) has no bounds to give them to");
  std::optional<Output> output;
  if (!options.pid.empty()) {
    if (!options.image.empty())
      return report.fail(kUsageOrIo, rules::kUsage, "--pid reads a process: give no IMAGE with it");
    if (!checkProcessOptions(options, report)) return kUsageOrIo;
    output = Output::resolve(options.output, OutputKind::Text, {}, report);
    if (!output) return kUsageOrIo;
    return extractProcess(options, std::nullopt, *output, report);
  }
  if (options.image.empty())
    return report.fail(kUsageOrIo, rules::kUsage, "an IMAGE (a ReadyToRun image or a core dump) or --pid is needed");
  Source src;
  // A pipe that starts neither a PE image nor a core dump is refused from
  // its first bytes, not read to the input cap.
  src.input = openInputAndOutput(options.image, options.output, OutputKind::Text, output, report, InputContent::Image);
  if (!src.input) return kUsageOrIo;
  // A core dump is a process.
  if (isCoreDump(src.input->bytes())) {
    if (!checkProcessOptions(options, report)) return kUsageOrIo;
    return extractProcess(options, std::move(src.input), *output, report);
  }
  if (options.jitOnly)
    return report.fail(kUsageOrIo, rules::kUsage, "--jit-only is for a process (--pid or a core dump)");
  src.name = src.input->displayName();
  src.file = src.input->bytes();
  return extractImage(options, src, *output, report);
}

}  // namespace

int runIlExtract(const IlExtractOptions& options, Report& report) {
  report.nameInput(options.pid.empty() ? options.image : "process " + options.pid);
  return runToOutput(extract, options, report,
                     {"boundsForm",
                      "machine",
                      "peMachine",
                      "majorVersion",
                      "minorVersion",
                      "bodies",
                      "methods",
                      "methodDefs",
                      "instantiations",
                      "unboxingStubs",
                      "asyncVariants",
                      "resumptionStubs",
                      "sharedBodies",
                      "blobs",
                      "methodsSharingBlobs",
                      "nonCanonical",
                      "splitMethods",
                      "fatDebugInfo",
                      "boundsWithTrailingBytes",
                      "skipped",
                      "output"});
}

}  // namespace gdmap::cli
