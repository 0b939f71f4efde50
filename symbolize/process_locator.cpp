#include <gdmap/symbolize/process_locator.hpp>

#include <gdmap/symbolize/module_paths.hpp>

#include <algorithm>
#include <iterator>

namespace gdmap::symbolize {

struct ProcessLocator::State {
  std::optional<std::vector<runtime::JitBody>> bodies;  // after the first address in a code heap
  std::vector<JitMethod> methods;                       // by body
  std::vector<bool> read;                               // by body: methods[i] was read
  std::optional<Error> walkError;
  explicit State(const runtime::RuntimeCode& code) : modulePaths(code) {}
  ModulePaths modulePaths;
  std::map<std::uint64_t, ProcessImage> images;  // by the range section's begin
};

std::uint32_t ProcessAnswer::token() const {
  if (jit != nullptr && !jit->error) return jit->method.token;
  return located.method != nullptr ? located.method->token : 0;
}

const std::string& ProcessAnswer::module() const {
  static const std::string none;
  if (jit != nullptr) return jit->module;
  return image != nullptr ? image->path : none;
}

ProcessLocator::ProcessLocator(const runtime::RuntimeCode& code, ProcessLocatorOptions options)
    : code_(&code), options_(options), state_(std::make_unique<State>(code)) {}
ProcessLocator::ProcessLocator(ProcessLocator&&) noexcept = default;
ProcessLocator& ProcessLocator::operator=(ProcessLocator&&) noexcept = default;
ProcessLocator::~ProcessLocator() = default;

std::optional<Error> ProcessLocator::takeWalkError() { return std::exchange(state_->walkError, std::nullopt); }

ProcessAnswer ProcessLocator::locate(std::uint64_t address, AddressKind kind) {
  ProcessAnswer a;
  a.address = address;
  a.kind = kind;
  a.section = code_->sectionAt(address);
  if (!a.section) return a;
  switch (a.section->kind) {
    case runtime::RangeKind::JitCodeHeap: jit(a); break;
    case runtime::RangeKind::ReadyToRun: readyToRun(a); break;
    case runtime::RangeKind::Stubs: a.code = CodeKind::Stub; break;
    default: a.code = CodeKind::Other; break;
  }
  if (options_.lines && a.found() && !a.noBounds) lines(a);
  return a;
}

namespace {

void readMethod(const runtime::RuntimeCode& code, ModulePaths& paths, const runtime::JitBody& body, JitMethod& m) {
  Expected<runtime::MethodIdentity> id = code.method(body.methodDesc);
  if (!id) {
    m.error = id.error();
    return;
  }
  m.method = *id;
  if (Expected<runtime::MethodInstantiation> inst = code.instantiation(body.methodDesc)) m.instantiation = *inst;
  m.module = paths.of(id->module);
  if (body.debugInfo == 0) {
    m.noBounds = true;
    return;
  }
  Expected<runtime::JitDebugInfo> info = code.debugInfo(body);
  if (!info) {
    m.error = info.error();
    return;
  }
  m.noBounds = info->bounds.empty();
  m.map = makeMethodIlMap(info->bounds, body.size);
}

// The entries covering `offset` and the runtime's IL offset for it.
void mapOffset(const MethodIlMap& map, ProcessAnswer& a) {
  for (const il::ApiEntry& e : map.entries) {
    if (e.nativeStartOffset <= a.lookup && a.lookup < e.nativeEndOffset) a.entries.push_back(e);
  }
  a.il = mapNativeOffsetToIl(map, a.lookup);
}

}  // namespace

void ProcessLocator::jit(ProcessAnswer& a) {
  a.code = CodeKind::Jit;
  State& s = *state_;
  if (!s.bodies) {
    Expected<std::vector<runtime::JitBody>> all = code_->jitBodies();
    if (!all) {
      s.walkError = all.error();
      s.bodies.emplace();
    } else {
      s.bodies = std::move(*all);
    }
    s.methods.resize(s.bodies->size());
    s.read.resize(s.bodies->size());
  }
  const std::vector<runtime::JitBody>& b = *s.bodies;
  const auto it = std::upper_bound(b.begin(), b.end(), a.address,
                                   [](std::uint64_t x, const runtime::JitBody& body) { return x < body.start; });
  if (it == b.begin() || a.address >= std::prev(it)->start + std::prev(it)->size) return;
  const auto index = static_cast<std::size_t>(std::prev(it) - b.begin());
  a.body = &b[index];
  JitMethod& m = s.methods[index];
  if (!s.read[index]) {
    s.read[index] = true;
    readMethod(*code_, s.modulePaths, *a.body, m);
  }
  a.jit = &m;
  if (m.error) {
    a.error = m.error->message;
    return;
  }
  a.offset = static_cast<std::uint32_t>(a.address - a.body->start);
  a.lookup = lookupOffset(a.offset, a.kind);
  a.noBounds = m.noBounds;
  mapOffset(m.map, a);
}

void ProcessLocator::readyToRun(ProcessAnswer& a) {
  a.code = CodeKind::ReadyToRun;
  ProcessImage& m = state_->images[a.section->begin];
  if (!m.locator && m.error.empty()) {
    Expected<runtime::ManagedModule> module = code_->module(a.section->module);
    if (!module) {
      m.error = module.error().message;
    } else {
      m.path = module->path;
      Expected<MappedFile> file = MappedFile::open(module->path, FileAccess::Sparse);
      Expected<r2r::R2RImage> image =
          file ? r2r::readR2RImage(file->bytes(), nullptr) : Expected<r2r::R2RImage>(file.error());
      if (!image) {
        m.error = "its image " + module->path + " cannot be read: " + image.error().message;
      } else {
        m.file = std::move(*file);
        m.image = std::move(*image);
        m.locator.emplace(*m.image);
      }
    }
  }
  a.image = &m;
  a.rva = a.address - a.section->begin;
  if (!m.error.empty()) {
    a.error = m.error;
    return;
  }
  a.located = m.locator->locate(static_cast<std::uint32_t>(a.rva), a.kind);
  a.offset = a.located.offset;
  a.lookup = a.located.lookup;
  a.entries = a.located.entries;
  a.noBounds = a.located.noBounds;
  a.il = a.located.il;
}

void ProcessLocator::lines(ProcessAnswer& a) {
  // A method named by another module's token (an instantiation over
  // another version bubble's method) has its lines in that module's PDB.
  if (a.located.method != nullptr && a.located.method->hasModule) return;
  if (a.jit != nullptr && a.jit->method.dynamic) return;
  if (!a.il.entry) return;
  const std::string& path = a.module();
  if (path.empty()) return;
  const ImagePdb* pdb = pdbs_.of(path, a.image != nullptr && a.image->file ? a.image->file->bytes() : ByteSpan());
  if (pdb == nullptr) return;
  if (Expected<std::optional<pdb::SourceLine>> line = sourceLineOf(*pdb, a.token(), a.il.ilOffset)) a.source = *line;
}

}  // namespace gdmap::symbolize
