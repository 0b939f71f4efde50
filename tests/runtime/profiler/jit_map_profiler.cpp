// A CLR profiler that records what the running runtime itself says about
// every JIT-compiled code version, so that `gdmap il extract --pid PID --api`
// (and the same on an ELF core of the process) can be held to it.
//
// Load it with
//   CORECLR_ENABLE_PROFILING=1
//   CORECLR_PROFILER={3C8E5A71-94D2-4F6B-B1E8-7A20D49C6F35}
//   CORECLR_PROFILER_PATH=/path/to/jit_map_profiler.so
// and ask for a snapshot from inside the process: the .so exports
//   extern "C" int gdmap_jit_snapshot(const char* path)
// (the workload finds it with NativeLibrary.Load(CORECLR_PROFILER_PATH) +
// GetExport and calls it through an unmanaged function pointer). It writes
// the records file and returns the number of records (negative: an error),
// so the file is complete when the call returns. The work runs on a native
// thread of its own: on a managed thread outside a profiler callback the
// runtime refuses GetCodeInfo4 and GetILToNativeMapping3
// (CORPROF_E_UNSUPPORTED_CALL_SEQUENCE), on a thread it does not know it
// allows them. GDMAP_JIT_RECORDS, when
// set, is the default path (a null or empty argument).
//
// What is remembered, as the runtime reports it:
//   JITCompilationFinished(fn)               every JIT compilation of a method
//                                            with metadata (tier 0, tier 1,
//                                            OSR, instrumented, optimized);
//   ReJITCompilationFinished(fn, rejitId)    ReJIT (never here: ReJIT is not
//                                            enabled, so only rejitId 0);
//   DynamicMethodJITCompilationFinished(fn)  methods without metadata: LCG
//                                            (DynamicMethod, RegexOptions.Compiled)
//                                            and the runtime's IL stubs;
//   DynamicMethodUnloaded(fn)                a collected dynamic method: forgotten
//                                            (its FunctionID is dead).
// A snapshot then asks, for every remembered (fn, rejitId):
// GetNativeCodeStartAddresses(fn, rejitId) (ICorProfilerInfo9) for every code
// version's start; per start GetCodeInfo4(start) for the code ranges and
// GetILToNativeMapping3(start) for the array GetILToNativeMapping would
// give for that very version; GetFunctionInfo2 -> module -> GetModuleInfo2
// for the module path and the token; IsFunctionDynamic; GetDynamicFunctionInfo's
// name for dynamic ones. A start inside the method's module's mapped image
// is ReadyToRun code (tier-up of an R2R method reports the JIT-compiled
// version, but the R2R one is among the starts): recorded with "r2r": true
// so the comparison can skip it, as `--jit-only` does. A start already
// written (two FunctionIDs of one shared-generic body) is written once.
//
// One JSON object per line:
//   {"start": "0x..", "ranges": [["0x..", size]...], "codeSize": N,
//    "map": [[il, nativeStart, nativeEnd]...], "module": PATH, "token": "0x06..",
//    "fn": "0x..", "rejitId": N, "version": I, "versions": N, "dynamic": bool,
//    "r2r": bool, "class": {"module": FILE, "typeDef": "0x02..", "args": [...]},
//    "methodArgs": [...], "dynamicName": NAME, "how": "jit"|"dynamic"|"rejit"}
// il is signed: -1 NO_MAPPING, -2 PROLOG, -3 EPILOG. "version" is the
// start's index in GetNativeCodeStartAddresses's answer (the runtime lists
// the synthetic/default version first, then the explicit ones). An API
// that fails gives "<name>Error": "0x8...." instead of its key. A last line
// {"summary": {...}} counts what was remembered and written.
//
// Event mask: COR_PRF_MONITOR_JIT_COMPILATION (the JIT callbacks, dynamic
// methods included; it also makes the runtime call JITInlining, answered
// "yes", which changes nothing) and, in the high word,
// COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS (DynamicMethodUnloaded, so a
// collected method's FunctionID is never used). Deliberately NOT set, so that
// the code is the code that runs without a profiler: COR_PRF_DISABLE_ALL_NGEN_IMAGES
// (would turn ReadyToRun off and JIT everything), COR_PRF_DISABLE_OPTIMIZATIONS
// and COR_PRF_DISABLE_INLINING (would change codegen), COR_PRF_ENABLE_REJIT
// (request-ReJIT support, not needed), COR_PRF_MONITOR_ENTERLEAVE / ELT hooks
// (would add probes to the code), COR_PRF_MONITOR_CODE_TRANSITIONS,
// COR_PRF_HIGH_DISABLE_TIERED_COMPILATION (would turn tiering off), and
// COR_PRF_MONITOR_CACHE_SEARCHES (not needed: R2R code is not the subject).
// The runtime keeps bounds for JIT-compiled code without a profiler (the
// debug-info blobs of docs/runtime-contracts.md section 3 were read from
// profiler-less processes), so nothing more is needed for the mapping.
#include "../../r2r/profiler/profiler_base.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace prof;

namespace {

// {3C8E5A71-94D2-4F6B-B1E8-7A20D49C6F35}: this profiler's own CLSID.
constexpr GUID CLSID_JitMapProfiler = {0x3C8E5A71, 0x94D2, 0x4F6B, {0xB1, 0xE8, 0x7A, 0x20, 0xD4, 0x9C, 0x6F, 0x35}};

std::string hr_json(HRESULT hr) { return hex8(static_cast<std::uint32_t>(hr)); }

struct ModuleFacts {
  std::string path;
  std::uintptr_t base = 0;
  std::uint32_t imageSize = 0;  // SizeOfImage from the PE header in memory (mapped layout only)
  HRESULT hr = S_OK;
};

// How a (FunctionID, ReJITID) came to be remembered.
enum How : unsigned { kJit = 1, kRejit = 2, kDynamic = 4 };

class Profiler;
std::atomic<Profiler*> g_profiler{nullptr};

class Profiler final : public CallbackBase {
 public:
  Profiler() : CallbackBase(9) {}

  HRESULT Initialize(IUnknown* unk) override {
    if (unk->QueryInterface(IID_ICorProfilerInfo9, reinterpret_cast<void**>(&info_)) != S_OK) {
      std::fprintf(stderr, "jit_map_profiler: the runtime has no ICorProfilerInfo9\n");
      return E_FAIL;
    }
    // See the header comment for the bits set and those left out on purpose.
    HRESULT hr = info_->SetEventMask2(COR_PRF_MONITOR_JIT_COMPILATION, COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS);
    if (hr != S_OK) {
      std::fprintf(stderr, "jit_map_profiler: SetEventMask2 failed: 0x%08x\n", static_cast<unsigned>(hr));
      return hr;
    }
    AddRef();  // g_profiler's reference
    g_profiler.store(this);
    return S_OK;
  }

  HRESULT JITCompilationFinished(FunctionID fn, HRESULT hr, BOOL) override {
    remember(fn, 0, kJit, hr);
    return S_OK;
  }
  HRESULT ReJITCompilationFinished(FunctionID fn, ReJITID rejit, HRESULT hr, BOOL) override {
    remember(fn, rejit, kRejit, hr);
    return S_OK;
  }
  HRESULT DynamicMethodJITCompilationFinished(FunctionID fn, HRESULT hr, BOOL) override {
    remember(fn, 0, kDynamic, hr);
    return S_OK;
  }
  HRESULT DynamicMethodUnloaded(FunctionID fn) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = seen_.lower_bound({fn, 0}); it != seen_.end() && it->first.first == fn;) it = seen_.erase(it);
    ++unloaded_;
    return S_OK;
  }

  // The snapshot: every remembered code version, one JSON line each.
  int snapshot(const char* path) {
    std::string out = path && *path ? path : "";
    if (out.empty()) {
      const char* env = std::getenv("GDMAP_JIT_RECORDS");
      out = env && *env ? env : "jit_maps.jsonl";
    }
    std::map<std::pair<FunctionID, ReJITID>, unsigned> fns;
    std::size_t compilations = 0, failed = 0, unloaded = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fns = seen_;
      compilations = compilations_;
      failed = failedCompilations_;
      unloaded = unloaded_;
    }
    std::string tmp = out + ".part";
    FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "jit_map_profiler: cannot write %s\n", tmp.c_str());
      return -1;
    }
    std::set<UINT_PTR> written;
    std::size_t records = 0, r2r = 0, dynamic = 0, duplicates = 0, noStarts = 0, errors = 0;
    std::map<std::size_t, std::size_t> versionsHistogram;  // versions per (fn, rejit) -> how many
    for (const auto& [key, how] : fns) {
      auto [fn, rejit] = key;
      ULONG32 n = 0;
      HRESULT hr = info_->GetNativeCodeStartAddresses(fn, rejit, 0, &n, nullptr);
      std::vector<UINT_PTR> starts(n);
      if (hr == S_OK && n) hr = info_->GetNativeCodeStartAddresses(fn, rejit, n, &n, starts.data());
      if (hr != S_OK) {
        starts.clear();
        ++errors;
        std::string line = "{\"fn\":" + hex(fn) + ",\"rejitId\":" + std::to_string(rejit) +
                           ",\"how\":" + how_json(how) + ",\"codeStartsError\":" + hr_json(hr) + "}\n";
        std::fputs(line.c_str(), f);
        continue;
      }
      starts.resize(n);
      ++versionsHistogram[starts.size()];
      if (starts.empty()) ++noStarts;
      Identity id = identity(fn);
      for (std::size_t i = 0; i < starts.size(); ++i) {
        UINT_PTR s = starts[i];
        if (!s) continue;
        if (!written.insert(s).second) {
          ++duplicates;
          continue;
        }
        bool inImage = id.module.imageSize && s >= id.module.base && s < id.module.base + id.module.imageSize;
        std::string line = "{\"start\":" + hex(s);
        line += codeInfo4(s);
        line += mapping3(s);
        line += id.json;
        line += ",\"fn\":" + hex(fn) + ",\"rejitId\":" + std::to_string(rejit) + ",\"version\":" + std::to_string(i) +
                ",\"versions\":" + std::to_string(starts.size()) + ",\"how\":" + how_json(how);
        line += std::string(",\"r2r\":") + (inImage ? "true" : "false") + "}\n";
        std::fputs(line.c_str(), f);
        ++records;
        if (inImage) ++r2r;
        if (id.dynamic) ++dynamic;
      }
    }
    std::string hist = "{";
    for (const auto& [k, v] : versionsHistogram)
      hist += (hist.size() > 1 ? "," : "") + std::string("\"") + std::to_string(k) + "\":" + std::to_string(v);
    hist += "}";
    std::fprintf(f,
                 "{\"summary\":{\"remembered\":%zu,\"compilations\":%zu,\"failedCompilations\":%zu,"
                 "\"dynamicUnloaded\":%zu,\"records\":%zu,\"r2r\":%zu,\"jit\":%zu,\"dynamic\":%zu,"
                 "\"sharedStarts\":%zu,\"noStarts\":%zu,\"codeStartsErrors\":%zu,\"versionsPerFunction\":%s}}\n",
                 fns.size(), compilations, failed, unloaded, records, r2r, records - r2r, dynamic, duplicates, noStarts,
                 errors, hist.c_str());
    if (std::fclose(f) != 0 || std::rename(tmp.c_str(), out.c_str()) != 0) {
      std::fprintf(stderr, "jit_map_profiler: cannot write %s\n", out.c_str());
      return -1;
    }
    std::fprintf(stderr,
                 "jit_map_profiler: %zu functions remembered (%zu compilations), %zu code versions written to %s "
                 "(%zu ReadyToRun, %zu JIT-compiled, %zu of them dynamic; %zu shared starts)\n",
                 fns.size(), compilations, records, out.c_str(), r2r, records - r2r, dynamic, duplicates);
    return static_cast<int>(records);
  }

 private:
  struct Identity {
    std::string json;  // ,"module":...,"token":...,"dynamic":... (leading comma)
    ModuleFacts module;
    bool dynamic = false;
  };

  void remember(FunctionID fn, ReJITID rejit, How how, HRESULT hr) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++compilations_;
    if (hr != S_OK) ++failedCompilations_;
    seen_[{fn, rejit}] |= how;
  }

  static std::string how_json(unsigned how) {
    std::string out = "\"";
    if (how & kJit) out += "jit";
    if (how & kRejit) out += std::string(out.size() > 1 ? "+" : "") + "rejit";
    if (how & kDynamic) out += std::string(out.size() > 1 ? "+" : "") + "dynamic";
    return out + "\"";
  }

  ModuleFacts module(ModuleID mod) {
    ModuleFacts m;
    WCHAR name[4096];
    ULONG n = 0;
    AssemblyID assembly = 0;
    DWORD flags = 0;
    const std::uint8_t* base = nullptr;
    m.hr = info_->GetModuleInfo2(mod, &base, 4096, &n, name, &assembly, &flags);
    if (m.hr != S_OK) return m;
    m.path = utf8(name, n);
    m.base = reinterpret_cast<std::uintptr_t>(base);
    // A mapped (not flat) image: its PE header gives the extent R2R code can
    // have. Dynamic modules (Reflection.Emit) have no base.
    if (base && !(flags & COR_PRF_MODULE_FLAT_LAYOUT) && base[0] == 'M' && base[1] == 'Z') {
      std::uint32_t pe;
      std::memcpy(&pe, base + 0x3C, 4);
      if (pe < 0x1000 && std::memcmp(base + pe, "PE\0\0", 4) == 0)
        std::memcpy(&m.imageSize, base + pe + 24 + 56, 4);  // OptionalHeader.SizeOfImage
    }
    return m;
  }

  Identity identity(FunctionID fn) {
    Identity id;
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken token = 0;
    ULONG32 nArgs = 0;
    HRESULT hr = info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, 0, &nArgs, nullptr);
    if (hr != S_OK) {
      id.json += ",\"functionInfoError\":" + hr_json(hr);
    } else {
      std::vector<ClassID> args(nArgs);
      if (nArgs) info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, nArgs, &nArgs, args.data());
      id.module = module(mod);
      if (id.module.hr == S_OK) id.json += ",\"module\":" + quoted(id.module.path);
      else id.json += ",\"moduleError\":" + hr_json(id.module.hr);
      id.json += ",\"token\":" + hex8(token);
      if (cls) id.json += ",\"class\":" + typeJson(info_, cls);
      if (nArgs) {
        id.json += ",\"methodArgs\":[";
        for (ULONG32 i = 0; i < nArgs; ++i) id.json += (i ? "," : "") + typeJson(info_, args[i]);
        id.json += "]";
      }
    }
    BOOL dynamic = 0;
    hr = info_->IsFunctionDynamic(fn, &dynamic);
    if (hr == S_OK) {
      id.dynamic = dynamic != 0;
      id.json += std::string(",\"dynamic\":") + (dynamic ? "true" : "false");
    } else {
      id.json += ",\"dynamicError\":" + hr_json(hr);
    }
    if (id.dynamic) {
      ModuleID dmod = 0;
      const std::uint8_t* sig = nullptr;
      ULONG cbSig = 0, nName = 0;
      WCHAR name[1024];
      hr = info_->GetDynamicFunctionInfo(fn, &dmod, &sig, &cbSig, 1024, &nName, name);
      if (hr == S_OK) id.json += ",\"dynamicName\":" + quoted(utf8(name, nName));
      else id.json += ",\"dynamicInfoError\":" + hr_json(hr);
    }
    return id;
  }

  // ,"ranges":[[start,size]...],"codeSize":N  or ,"rangesError":HR
  std::string codeInfo4(UINT_PTR start) {
    ULONG32 n = 0;
    HRESULT hr = info_->GetCodeInfo4(start, 0, &n, nullptr);
    std::vector<COR_PRF_CODE_INFO> infos(n);
    if (hr == S_OK && n) hr = info_->GetCodeInfo4(start, n, &n, infos.data());
    if (hr != S_OK) return ",\"rangesError\":" + hr_json(hr);
    infos.resize(std::min<std::size_t>(n, infos.size()));
    std::string out = ",\"ranges\":[";
    std::size_t total = 0;
    for (std::size_t i = 0; i < infos.size(); ++i) {
      out += std::string(i ? "," : "") + "[" + hex(infos[i].startAddress) + "," + std::to_string(infos[i].size) + "]";
      total += infos[i].size;
    }
    return out + "],\"codeSize\":" + std::to_string(total);
  }

  // ,"map":[[il,start,end]...]  or ,"mapError":HR
  std::string mapping3(UINT_PTR start) {
    ULONG32 n = 0;
    HRESULT hr = info_->GetILToNativeMapping3(start, 0, &n, nullptr);
    std::vector<COR_DEBUG_IL_TO_NATIVE_MAP> map(n);
    if (hr == S_OK && n) hr = info_->GetILToNativeMapping3(start, n, &n, map.data());
    if (hr != S_OK) return ",\"mapError\":" + hr_json(hr);
    map.resize(std::min<std::size_t>(n, map.size()));
    std::string out = ",\"map\":[";
    for (std::size_t i = 0; i < map.size(); ++i)
      out += std::string(i ? "," : "") + "[" + std::to_string(static_cast<std::int32_t>(map[i].ilOffset)) + "," +
             std::to_string(map[i].nativeStartOffset) + "," + std::to_string(map[i].nativeEndOffset) + "]";
    return out + "]";
  }

  ICorProfilerInfo9* info_ = nullptr;
  std::mutex mutex_;  // guards everything below
  std::map<std::pair<FunctionID, ReJITID>, unsigned> seen_;
  std::size_t compilations_ = 0, failedCompilations_ = 0, unloaded_ = 0;
};

Factory<Profiler> g_factory;

}  // namespace

extern "C" __attribute__((visibility("default"))) HRESULT DllGetClassObject(REFIID clsid, REFIID riid, void** ppv) {
  if (!(clsid == CLSID_JitMapProfiler)) return CLASS_E_CLASSNOTAVAILABLE;
  return g_factory.QueryInterface(riid, ppv);
}

extern "C" __attribute__((visibility("default"))) HRESULT DllCanUnloadNow() { return 1; /* S_FALSE */ }

// The snapshot request (see the header comment): the records file is written
// and closed when this returns. Returns the number of code versions written,
// -1 when it could not write, -2 when the profiler was not loaded.
extern "C" __attribute__((visibility("default"))) int gdmap_jit_snapshot(const char* path) {
  Profiler* p = g_profiler.load();
  if (!p) {
    std::fprintf(stderr, "jit_map_profiler: gdmap_jit_snapshot called but the runtime did not load the profiler\n");
    return -2;
  }
  // The runtime refuses GetCodeInfo4 and GetILToNativeMapping3 on a managed
  // thread outside a callback (CORPROF_E_UNSUPPORTED_CALL_SEQUENCE,
  // 0x80131363): they are "synchronous" calls. On a thread the runtime does
  // not know they are allowed, so the work is done on one, and joined.
  std::string copy = path ? path : "";
  int result = -1;
  std::thread worker([&] { result = p->snapshot(copy.c_str()); });
  worker.join();
  return result;
}
