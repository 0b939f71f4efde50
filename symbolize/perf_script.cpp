// `perf script` text annotated (perf_script.hpp): each process's mappings
// kept from its MMAP lines, each ReadyToRun image opened once, and each
// frame of a sample symbolized as the runtime would (the leaf exact, the
// callers as return addresses).
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/metadata/assembly_type_names.hpp>
#include <gdmap/metadata/method_signature.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/symbolize/image_symbolizer.hpp>
#include <gdmap/symbolize/perf_script.hpp>

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace gdmap::symbolize {
namespace {

// Kernel addresses (x86-64, arm64): the top of the address space.
constexpr std::uint64_t kKernelStart = 0xFFFF800000000000u;
constexpr std::size_t kMaxThreads = std::size_t{1} << 20;

struct Mapping {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t offset = 0;
  std::uint32_t path = 0;  // index into State::paths
};

// An image perf named: symbolized when it is a ReadyToRun image.
struct Image {
  std::unique_ptr<ImageSymbolizer> symbolizer;           // null: not one
  std::optional<MappedFile> file;                        // for the names, mapped the first time one is needed
  std::optional<metadata::MethodSignatures> signatures;  // over `file` (declared after it: destroyed first)
  std::optional<metadata::AssemblyTypeNames> names;
  bool namesTried = false;

  void openNames();
  std::string nameOf(const r2r::MethodBody& m) const;
};

void Image::openNames() {
  namesTried = true;
  Expected<MappedFile> mapped = MappedFile::open(symbolizer->path(), FileAccess::Sparse);
  if (!mapped) return;
  file = std::move(*mapped);
  if (Expected<metadata::MethodSignatures> s = metadata::MethodSignatures::open(file->bytes()))
    signatures = std::move(*s);
  if (Expected<metadata::AssemblyTypeNames> n = metadata::AssemblyTypeNames::open(file->bytes())) names = std::move(*n);
}

// The method as `il locate --names` names it, SOS's text
// (`Ns.Type.Method(Int32)`, an instantiation's arguments included); where
// that cannot be made, `Ns.Type<A>::Method<B>` from the metadata's names;
// the token always.
std::string Image::nameOf(const r2r::MethodBody& m) const {
  std::string text = hex32(m.token);
  if (m.hasModule) return text;  // another module's method (a composite image's component)
  il::Instantiation inst;
  inst.typeArguments = m.typeArguments;
  inst.methodArguments = m.methodArguments;
  const bool instantiated = !inst.typeArguments.empty() || !inst.methodArguments.empty();
  std::string name = signatures ? signatures->signatureOf(m.token, instantiated ? &inst : nullptr) : "";
  if (name.empty() && names) {
    auto arguments = [](const std::vector<std::string>& list) {
      std::string out = "<";
      for (std::size_t i = 0; i < list.size(); ++i) out += (i ? "," : "") + list[i];
      return out + ">";
    };
    name = names->methodName(m.token);
    const std::size_t owner = name.rfind("::");
    if (!m.typeArguments.empty() && owner != std::string::npos) name.insert(owner, arguments(m.typeArguments));
    if (!m.methodArguments.empty() && !name.empty()) name += arguments(m.methodArguments);
  }
  return name.empty() ? text : text + " " + name;
}

std::string ilText(const Located& l) {
  if (l.noBounds || !l.il.entry) return "no IL offset";
  std::string out = "IL " + shortHex(l.il.ilOffset);
  switch (l.il.mapping) {
    case IlMapping::Prolog: return out + " prolog";
    case IlMapping::Epilog: return out + " epilog";
    case IlMapping::Unmapped: return out + " no_mapping";
    default: return out;
  }
}

}  // namespace

struct PerfScriptAnnotator::State {
  explicit State(PerfScriptOptions o) : options(std::move(o)) {}
  PerfScriptOptions options;
  PerfScriptCounts counts;
  std::vector<std::string> paths;
  std::unordered_map<std::string, std::uint32_t> pathIndex;
  std::unordered_map<std::uint32_t, std::vector<Mapping>> byPid;  // sorted by begin, disjoint
  std::size_t mappings = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> pidOfThread;
  std::unordered_map<std::string, Image> images;
  std::vector<PdbNote> notes;
  // The sample being read.
  bool inSample = false;
  std::optional<std::uint32_t> pid;
  std::uint32_t tid = 0;
  std::size_t frameIndex = 0;
  bool afterKernel = false;

  std::uint32_t internPath(std::string_view path);
  void addMapping(const PerfMmap& m);
  void addThread(std::uint32_t pid, std::uint32_t tid);
  std::optional<std::uint32_t> samplePid() const;
  std::optional<std::uint64_t> fileOffsetOf(std::uint64_t address, std::string_view dso) const;
  Image* imageOf(std::string_view dso);
  std::string frameText(const PerfFrame& frame);
  std::string annotate(std::string_view line);
};

std::uint32_t PerfScriptAnnotator::State::internPath(std::string_view path) {
  const auto [it, added] = pathIndex.try_emplace(std::string(path), static_cast<std::uint32_t>(paths.size()));
  if (added) paths.emplace_back(path);
  return it->second;
}

void PerfScriptAnnotator::State::addMapping(const PerfMmap& m) {
  ++counts.mappings;
  addThread(m.pid, m.tid);
  if (m.path.empty() || m.path.front() != '/') return;  // anonymous, [vdso], //anon...
  // Bounded: the mappings, files and processes kept count together.
  const auto found = byPid.find(m.pid);
  if (mappings + paths.size() + byPid.size() >= options.maxMappings) {
    ++counts.droppedMappings;
    return;
  }
  std::vector<Mapping>& list = found != byPid.end() ? found->second : byPid[m.pid];
  const std::uint64_t end = m.begin + m.length;
  // A new mapping replaces what it overlaps, as mmap does.
  auto first = std::partition_point(list.begin(), list.end(), [&](const Mapping& x) { return x.end <= m.begin; });
  auto last = first;
  while (last != list.end() && last->begin < end) ++last;
  mappings -= static_cast<std::size_t>(last - first);
  first = list.erase(first, last);
  list.insert(first, Mapping{m.begin, end, m.offset, internPath(m.path)});
  ++mappings;
}

void PerfScriptAnnotator::State::addThread(std::uint32_t p, std::uint32_t t) {
  if (pidOfThread.size() < kMaxThreads || pidOfThread.count(t)) pidOfThread[t] = p;
}

std::optional<std::uint32_t> PerfScriptAnnotator::State::samplePid() const {
  if (pid) return pid;
  if (const auto it = pidOfThread.find(tid); it != pidOfThread.end()) return it->second;
  if (byPid.count(tid)) return tid;  // a process's main thread
  return std::nullopt;
}

// The file offset of a frame's address: through the mapping of `dso` that
// holds it in the sample's process (or, that process unknown, in any), else
// the address itself, which perf writes as the file offset already.
std::optional<std::uint64_t> PerfScriptAnnotator::State::fileOffsetOf(std::uint64_t address,
                                                                      std::string_view dso) const {
  const auto path = pathIndex.find(std::string(dso));
  if (path == pathIndex.end()) return address;
  auto inList = [&](const std::vector<Mapping>& list) -> std::optional<std::uint64_t> {
    auto at = std::partition_point(list.begin(), list.end(), [&](const Mapping& x) { return x.end <= address; });
    if (at == list.end() || at->begin > address || at->path != path->second) return std::nullopt;
    return at->offset + (address - at->begin);
  };
  if (const std::optional<std::uint32_t> p = samplePid()) {
    const auto list = byPid.find(*p);
    if (list != byPid.end()) return inList(list->second).value_or(address);
  }
  for (const auto& [p, list] : byPid) {
    if (const std::optional<std::uint64_t> offset = inList(list)) return offset;
  }
  return address;
}

Image* PerfScriptAnnotator::State::imageOf(std::string_view dso) {
  const std::string key(dso);
  if (auto it = images.find(key); it != images.end()) return it->second.symbolizer ? &it->second : nullptr;
  if (images.size() >= options.maxImages) return nullptr;
  Image& image = images[key];
  const std::string path = options.imagePath ? options.imagePath(dso) : key;
  ImageSymbolizerOptions open;
  open.lines = options.lines;
  Expected<ImageSymbolizer> symbolizer = ImageSymbolizer::open(path, open);
  if (!symbolizer) return nullptr;
  image.symbolizer = std::make_unique<ImageSymbolizer>(std::move(*symbolizer));
  if (image.symbolizer->pdbNote()) notes.push_back(PdbNote{path, *image.symbolizer->pdbNote()});
  return &image;
}

std::string PerfScriptAnnotator::State::frameText(const PerfFrame& frame) {
  ++counts.frames;
  const AddressKind kind = frameIndex == 0 || afterKernel ? AddressKind::Exact : AddressKind::Return;
  ++frameIndex;
  afterKernel = frame.address >= kKernelStart || frame.dso.starts_with("[kernel");
  if (afterKernel || frame.dso.empty() || frame.dso.front() != '/' || frame.dso.ends_with(" (deleted)")) return {};
  Image* image = imageOf(frame.dso);
  const std::optional<std::uint64_t> offset = image ? fileOffsetOf(frame.address, frame.dso) : std::nullopt;
  const std::optional<std::uint32_t> rva = offset ? image->symbolizer->rvaOfFileOffset(*offset) : std::nullopt;
  if (!rva) return {};
  const Located l = image->symbolizer->locate(*rva, kind);
  if (l.method == nullptr) {
    ++counts.inNoMethod;
    return " => in no method's code";
  }
  ++counts.annotated;
  if (!image->namesTried) image->openNames();
  std::string out = " => " + image->nameOf(*l.method) + " +" + shortHex(l.offset) + ", " + ilText(l);
  if (const std::optional<pdb::SourceLine> line = image->symbolizer->sourceLine(l))
    out += " at " + line->document + ":" + std::to_string(line->line) + ":" + std::to_string(line->column);
  return out;
}

std::string PerfScriptAnnotator::State::annotate(std::string_view line) {
  ++counts.lines;
  if (line.find_first_not_of(" \t\r") == std::string_view::npos) {
    inSample = false;  // a blank line ends a sample
    return {};
  }
  if (line[line.find_first_not_of(' ')] == '\t') {  // a callchain's frame (perf indents with a tab)
    const std::optional<PerfFrame> frame = inSample ? parsePerfFrame(line) : std::nullopt;
    return frame ? frameText(*frame) : std::string();
  }
  inSample = false;
  if (const std::optional<PerfMmap> m = parsePerfMmap(line)) {
    addMapping(*m);
    return {};
  }
  if (const std::optional<PerfTask> t = parsePerfTask(line)) {
    addThread(t->pid, t->tid);
    return {};
  }
  const std::optional<PerfSample> sample = parsePerfSample(line);
  if (!sample) return {};
  ++counts.samples;
  inSample = true;
  pid = sample->pid;
  tid = sample->tid;
  if (pid) addThread(*pid, tid);
  frameIndex = 0;
  afterKernel = false;
  return sample->frame ? frameText(*sample->frame) : std::string();
}

PerfScriptAnnotator::PerfScriptAnnotator(PerfScriptOptions options)
    : state_(std::make_unique<State>(std::move(options))) {}
PerfScriptAnnotator::PerfScriptAnnotator(PerfScriptAnnotator&&) noexcept = default;
PerfScriptAnnotator& PerfScriptAnnotator::operator=(PerfScriptAnnotator&&) noexcept = default;
PerfScriptAnnotator::~PerfScriptAnnotator() = default;

std::string PerfScriptAnnotator::annotate(std::string_view line) { return state_->annotate(line); }
const PerfScriptCounts& PerfScriptAnnotator::counts() const { return state_->counts; }
std::vector<PdbNote> PerfScriptAnnotator::takePdbNotes() { return std::exchange(state_->notes, {}); }

}  // namespace gdmap::symbolize
