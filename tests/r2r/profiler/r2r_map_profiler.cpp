// A CLR profiler that records what the running runtime itself answers to
// ICorProfilerInfo::GetILToNativeMapping for every method whose code came
// from a ReadyToRun image, so that `gdmap il lookup` can be held to it.
//
// Load it with
//   CORECLR_ENABLE_PROFILING=1
//   CORECLR_PROFILER={6D1B2F3A-8C4E-4E2B-9A7D-1F0C5E3B2A91}
//   CORECLR_PROFILER_PATH=/path/to/r2r_map_profiler.so
//   GDMAP_PROF_OUT=/path/to/records.jsonl   (default ./r2r_maps.jsonl)
//
// How: the runtime calls JITCachedFunctionSearchStarted/Finished when it
// looks for a method's precompiled code (COR_PRF_MONITOR_CACHE_SEARCHES);
// "found" means the R2R body will run. The code is not published yet at that
// moment, so the FunctionID is only remembered; at Shutdown every remembered
// method is asked for all its code versions (GetNativeCodeStartAddresses:
// the R2R body, and a tier-1 body if tiering replaced it), and the version
// whose start lies inside the module's image is the R2R one: its mapping
// comes from GetILToNativeMapping3(start), which names that version exactly
// (plain GetILToNativeMapping answers for whichever version the runtime
// picks, after tier-up not the R2R one). Nothing is written until Shutdown.
//
// One JSON object per line:
//   {"image": PATH, "token": "0x06...", "class": TYPE, "methodArgs": [TYPE...],
//    "codeVersions": N, "r2r": true, "rva": "0x...", "codeSize": N,
//    "codeRanges": [[rva, size]...], "map": [[il, start, end]...],
//    "mapPlain": [...], "otherVersionsMappedDifferently": N}
// mapPlain is plain GetILToNativeMapping(functionId), for contrast; the last
// key counts the method's other code versions (tier 1) whose mapping is not
// the R2R one (present when there are other versions).
// TYPE: {"module": FILE, "typeDef": "0x02...", "args": [TYPE...]} or
//   {"array": ELEMENT_TYPE, "rank": N, "of": TYPE}; "?" when unknown.
// ilOffset is printed as a signed number so -1/-2/-3 read as NO_MAPPING,
// PROLOG, EPILOG. Also "fn" (the FunctionID, to match ask answers) and
// "tokenFunction": "self" when GetFunctionFromToken(module, token) names
// this very FunctionID, "other" when it names another one (.NET 11 runtime
// async: a Task-returning method and its async variant share the token, and
// the token names the Task-returning one), or the HRESULT it failed with
// (methods of generic types, not loaded).
//
// Opt-in "who owns this code address" mode: GDMAP_PROF_ASK=FILE, lines
//   IMAGE RVA [LABEL...]        (IMAGE: a file name or path; RVA hex; # comments)
// At Shutdown, for each line whose image is loaded, the profiler asks
// GetFunctionFromIP, GetFunctionFromIP2 and GetFunctionFromIP3 for the
// address base + RVA, GetCodeInfo4 and GetILToNativeMapping3 with the
// address itself, and describes the FunctionID it got: token, types,
// IsFunctionDynamic, GetDynamicFunctionInfo's name, tokenFunction, whether a
// cache search found it precompiled or it was JIT-compiled, every code
// version (GetNativeCodeStartAddresses) with its GetCodeInfo4 ranges and
// GetILToNativeMapping3 array, GetCodeInfo2 and plain GetILToNativeMapping.
// One JSON line per asked address, to GDMAP_PROF_ASK_OUT (default: the
// records' file name + ".ask"). RVAs are relative to the asked image's base.
// An address below every recorded R2R code start of its image is not asked
// ("skipped"): the runtime finds an address's method by walking back to the
// nearest method whose code it prepared, and with none before it
// GetFunctionFromIP crashed the process (.NET 11.0.0). For the same reason an
// address in code that never ran is answered with an earlier method.
#include "profiler_base.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace prof;

namespace {

// {6D1B2F3A-8C4E-4E2B-9A7D-1F0C5E3B2A91}: this profiler's own CLSID.
constexpr GUID CLSID_R2RMapProfiler = {0x6D1B2F3A, 0x8C4E, 0x4E2B, {0x9A, 0x7D, 0x1F, 0x0C, 0x5E, 0x3B, 0x2A, 0x91}};

std::string map_json(const std::vector<COR_DEBUG_IL_TO_NATIVE_MAP>& map) {
  std::string out = "[";
  for (std::size_t i = 0; i < map.size(); ++i) {
    if (i) out += ",";
    out += "[" + std::to_string(static_cast<std::int32_t>(map[i].ilOffset)) + "," +
           std::to_string(map[i].nativeStartOffset) + "," + std::to_string(map[i].nativeEndOffset) + "]";
  }
  return out + "]";
}

struct ModuleFacts {
  std::string path;
  const std::uint8_t* base = nullptr;
  std::uint32_t imageSize = 0;  // SizeOfImage from the PE header in memory
  bool flat = false;
  HRESULT hr = S_OK;
};

class Profiler final : public CallbackBase {
 public:
  Profiler() : CallbackBase(3) {}

  HRESULT Initialize(IUnknown* unk) override {
    if (unk->QueryInterface(IID_ICorProfilerInfo9, reinterpret_cast<void**>(&info_)) != S_OK) {
      std::fprintf(stderr, "r2r_map_profiler: the runtime has no ICorProfilerInfo9\n");
      return E_FAIL;
    }
    const char* out = std::getenv("GDMAP_PROF_OUT");
    out_ = out && *out ? out : "r2r_maps.jsonl";
    const char* ask = std::getenv("GDMAP_PROF_ASK");
    ask_ = ask ? ask : "";
    const char* askOut = std::getenv("GDMAP_PROF_ASK_OUT");
    askOut_ = askOut && *askOut ? askOut : out_ + ".ask";
    // Cache searches tell us which methods run precompiled code; JIT events
    // only count what was compiled instead. Never COR_PRF_DISABLE_ALL_NGEN_IMAGES
    // (it would turn R2R code off) nor COR_PRF_ENABLE_REJIT (which requires it).
    // Module loads only for the ask mode (to find the asked images).
    DWORD mask = COR_PRF_MONITOR_CACHE_SEARCHES | COR_PRF_MONITOR_JIT_COMPILATION;
    if (!ask_.empty()) mask |= COR_PRF_MONITOR_MODULE_LOADS;
    return info_->SetEventMask(mask);
  }

  HRESULT JITCachedFunctionSearchFinished(FunctionID fn, int result) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++searches_;
    searched_[fn] = result;
    if (result == COR_PRF_CACHED_FUNCTION_FOUND) found_.insert(fn);
    return S_OK;
  }
  HRESULT JITCompilationFinished(FunctionID fn, HRESULT, BOOL) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ++jitted_;
    jittedSet_.insert(fn);
    return S_OK;
  }
  HRESULT ModuleLoadFinished(ModuleID mod, HRESULT) override {
    std::lock_guard<std::mutex> lock(mutex_);
    modules_.insert(mod);
    return S_OK;
  }

  HRESULT Shutdown() override {
    std::vector<FunctionID> fns;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      fns.assign(found_.begin(), found_.end());
    }
    FILE* f = std::fopen(out_.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "r2r_map_profiler: cannot write %s\n", out_.c_str());
      return S_OK;
    }
    std::size_t written = 0, notInImage = 0;
    for (FunctionID fn : fns) {
      std::string line = record(fn, notInImage);
      if (!line.empty()) {
        std::fputs(line.c_str(), f);
        std::fputc('\n', f);
        ++written;
      }
    }
    std::fclose(f);
    std::fprintf(stderr,
                 "r2r_map_profiler: %zu cache searches, %zu found precompiled, %zu records written to %s "
                 "(%zu with no code version inside their image), %zu JIT compilations\n",
                 static_cast<std::size_t>(searches_), fns.size(), written, out_.c_str(), notInImage,
                 static_cast<std::size_t>(jitted_));
    if (!ask_.empty()) answerAsks();
    return S_OK;
  }

 private:
  ModuleFacts module(ModuleID mod) {
    ModuleFacts m;
    WCHAR name[4096];
    ULONG n = 0;
    AssemblyID assembly = 0;
    DWORD flags = 0;
    m.hr = info_->GetModuleInfo2(mod, &m.base, 4096, &n, name, &assembly, &flags);
    if (m.hr != S_OK) return m;
    m.path = utf8(name, n);
    m.flat = (flags & COR_PRF_MODULE_FLAT_LAYOUT) != 0;
    // The image is mapped section by section at its RVAs (not flat), so the
    // PE header at the base gives the extent an RVA can have.
    if (m.base && !m.flat && m.base[0] == 'M' && m.base[1] == 'Z') {
      std::uint32_t pe;
      std::memcpy(&pe, m.base + 0x3C, 4);
      if (std::memcmp(m.base + pe, "PE\0\0", 4) == 0)
        std::memcpy(&m.imageSize, m.base + pe + 24 + 56, 4);  // OptionalHeader.SizeOfImage
    }
    return m;
  }

  std::vector<COR_DEBUG_IL_TO_NATIVE_MAP> mapping3(UINT_PTR start, HRESULT& hr) {
    ULONG32 n = 0;
    hr = info_->GetILToNativeMapping3(start, 0, &n, nullptr);
    std::vector<COR_DEBUG_IL_TO_NATIVE_MAP> map(n);
    if (n) hr = info_->GetILToNativeMapping3(start, n, &n, map.data());
    map.resize(hr == S_OK ? n : 0);
    return map;
  }

  std::vector<COR_DEBUG_IL_TO_NATIVE_MAP> mappingPlain(FunctionID fn, HRESULT& hr) {
    ULONG32 n = 0;
    hr = info_->GetILToNativeMapping(fn, 0, &n, nullptr);
    std::vector<COR_DEBUG_IL_TO_NATIVE_MAP> map(n);
    if (n) hr = info_->GetILToNativeMapping(fn, n, &n, map.data());
    map.resize(hr == S_OK ? n : 0);
    return map;
  }

  // "self", "other" or the HRESULT of GetFunctionFromToken(mod, token).
  std::string tokenFunction(FunctionID fn, ModuleID mod, mdToken token) {
    FunctionID byToken = 0;
    HRESULT hr = info_->GetFunctionFromToken(mod, token, &byToken);
    if (hr != S_OK) return hex(static_cast<std::uint32_t>(hr));
    return byToken == fn ? "\"self\"" : "\"other\"";
  }

  // GetCodeInfo4(start): the ranges as [[rva, size]...] relative to base
  // (absolute addresses when base is null), or the HRESULT.
  std::string codeInfo4(UINT_PTR start, UINT_PTR base) {
    ULONG32 n = 0;
    HRESULT hr = info_->GetCodeInfo4(start, 0, &n, nullptr);
    std::vector<COR_PRF_CODE_INFO> infos(n);
    if (n) hr = info_->GetCodeInfo4(start, n, &n, infos.data());
    if (hr != S_OK) return hex(static_cast<std::uint32_t>(hr));
    return ranges_json(infos, n, base);
  }

  static std::string ranges_json(const std::vector<COR_PRF_CODE_INFO>& infos, ULONG32 n, UINT_PTR base) {
    std::string out = "[";
    // A start of 0 (GetCodeInfo4 asked for an address that starts no code
    // answers S_OK with one empty range {0, 0}) is printed as 0, not as an RVA.
    for (ULONG32 i = 0; i < n && i < infos.size(); ++i)
      out += std::string(i ? "," : "") + "[" + hex(infos[i].startAddress ? infos[i].startAddress - base : 0) + "," +
             std::to_string(infos[i].size) + "]";
    return out + "]";
  }

  // A FunctionID as the runtime describes it (the ask mode).
  std::string describe(FunctionID fn, const ModuleFacts& m) {
    auto base = reinterpret_cast<UINT_PTR>(m.base);
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken token = 0;
    ULONG32 nArgs = 0;
    std::string out = "{\"fn\":" + hex(fn);
    HRESULT hr = info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, 0, &nArgs, nullptr);
    if (hr != S_OK) {
      out += ",\"functionInfo2Error\":" + hex(static_cast<std::uint32_t>(hr));
    } else {
      std::vector<ClassID> args(nArgs);
      if (nArgs) info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, nArgs, &nArgs, args.data());
      out +=
          ",\"image\":" + quoted(module(mod).path) + ",\"token\":" + hex8(token) + ",\"class\":" + typeJson(info_, cls);
      if (nArgs) {
        out += ",\"methodArgs\":[";
        for (ULONG32 i = 0; i < nArgs; ++i) out += (i ? "," : "") + typeJson(info_, args[i]);
        out += "]";
      }
      out += ",\"tokenFunction\":" + tokenFunction(fn, mod, token);
    }
    BOOL dynamic = 0;
    hr = info_->IsFunctionDynamic(fn, &dynamic);
    out +=
        ",\"dynamic\":" + (hr == S_OK ? std::string(dynamic ? "true" : "false") : hex(static_cast<std::uint32_t>(hr)));
    {
      ModuleID dmod = 0;
      const std::uint8_t* sig = nullptr;
      ULONG cbSig = 0, nName = 0;
      WCHAR name[1024];
      hr = info_->GetDynamicFunctionInfo(fn, &dmod, &sig, &cbSig, 1024, &nName, name);
      if (hr == S_OK)
        out += ",\"dynamicName\":" + quoted(utf8(name, nName)) + ",\"dynamicSigBytes\":" + std::to_string(cbSig);
      else out += ",\"dynamicInfoError\":" + hex(static_cast<std::uint32_t>(hr));
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = searched_.find(fn);
      out += ",\"cacheSearch\":";
      out += it == searched_.end()                         ? "\"none\""
             : it->second == COR_PRF_CACHED_FUNCTION_FOUND ? "\"found\""
                                                           : "\"not-found\"";
      out += std::string(",\"jitted\":") + (jittedSet_.count(fn) ? "true" : "false");
    }
    ULONG32 nStarts = 0;
    hr = info_->GetNativeCodeStartAddresses(fn, 0, 0, &nStarts, nullptr);
    std::vector<UINT_PTR> starts(nStarts);
    if (nStarts) hr = info_->GetNativeCodeStartAddresses(fn, 0, nStarts, &nStarts, starts.data());
    if (hr != S_OK) {
      out += ",\"codeStartsError\":" + hex(static_cast<std::uint32_t>(hr));
    } else {
      out += ",\"codeStarts\":[";
      for (ULONG32 i = 0; i < nStarts; ++i) {
        UINT_PTR s = starts[i];
        bool inImage = m.imageSize && s >= base && s < base + m.imageSize;
        out += std::string(i ? "," : "") + "{\"start\":" + hex(s - base) +
               ",\"inImage\":" + (inImage ? "true" : "false") + ",\"codeInfo4\":" + codeInfo4(s, base);
        HRESULT mhr = S_OK;
        auto map = mapping3(s, mhr);
        if (mhr == S_OK) out += ",\"map\":" + map_json(map);
        else out += ",\"mapError\":" + hex(static_cast<std::uint32_t>(mhr));
        out += "}";
      }
      out += "]";
    }
    {
      ULONG32 n = 0;
      hr = info_->GetCodeInfo2(fn, 0, &n, nullptr);
      std::vector<COR_PRF_CODE_INFO> infos(n);
      if (n) hr = info_->GetCodeInfo2(fn, n, &n, infos.data());
      out += ",\"codeInfo2\":" + (hr == S_OK ? ranges_json(infos, n, base) : hex(static_cast<std::uint32_t>(hr)));
    }
    HRESULT phr = S_OK;
    auto plain = mappingPlain(fn, phr);
    if (phr == S_OK) out += ",\"mapPlain\":" + map_json(plain);
    else out += ",\"mapPlainError\":" + hex(static_cast<std::uint32_t>(phr));
    return out + "}";
  }

  static std::string basename(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  }

  void answerAsks() {
    std::ifstream in(ask_);
    if (!in) {
      std::fprintf(stderr, "r2r_map_profiler: cannot read GDMAP_PROF_ASK=%s\n", ask_.c_str());
      return;
    }
    FILE* f = std::fopen(askOut_.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "r2r_map_profiler: cannot write %s\n", askOut_.c_str());
      return;
    }
    // Every module seen: loaded ones, and those of the functions found.
    std::set<ModuleID> mods;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      mods = modules_;
      for (FunctionID fn : found_) {
        ClassID cls = 0;
        ModuleID mod = 0;
        mdToken token = 0;
        ULONG32 nArgs = 0;
        if (info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, 0, &nArgs, nullptr) == S_OK) mods.insert(mod);
      }
    }
    std::map<std::string, ModuleFacts> byName;  // file name -> facts
    for (ModuleID mod : mods) {
      ModuleFacts m = module(mod);
      if (m.hr == S_OK && m.base) byName.emplace(basename(m.path), m);
    }
    std::string line;
    std::size_t asked = 0, answered = 0, skipped = 0;
    while (std::getline(in, line)) {
      std::size_t hash = line.find('#');
      if (hash != std::string::npos) line.resize(hash);
      std::istringstream fields(line);
      std::string image, rvaText, label, word;
      if (!(fields >> image >> rvaText)) continue;
      while (fields >> word) label += (label.empty() ? "" : " ") + word;
      ++asked;
      std::uint64_t rva = std::strtoull(rvaText.c_str(), nullptr, 16);
      std::string out = "{\"ask\":{\"image\":" + quoted(basename(image)) + ",\"rva\":" + hex(rva) +
                        ",\"label\":" + quoted(label) + "}";
      auto it = byName.find(basename(image));
      UINT_PTR lowest = 0;
      if (it != byName.end()) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto low = lowestStart_.find(it->second.path);
        if (low != lowestStart_.end()) lowest = low->second;
      }
      if (it == byName.end()) {
        out += ",\"loaded\":false}";
      } else if (!lowest || rva < lowest) {
        // The runtime's lookup walks back from the address's runtime
        // function to the nearest method whose code it has prepared; with
        // none before it in the image, GetFunctionFromIP crashed (.NET 11.0.0,
        // an unprepared method of System.Memory.dll). Not asked.
        out += ",\"loaded\":true,\"image\":" + quoted(it->second.path) +
               ",\"skipped\":\"no recorded R2R code at or before this RVA\"}";
        ++skipped;
      } else {
        const ModuleFacts& m = it->second;
        auto base = reinterpret_cast<UINT_PTR>(m.base);
        const std::uint8_t* ip = m.base + rva;
        FunctionID f1 = 0, f2 = 0, f3 = 0;
        ReJITID r2 = 0, r3 = 0;
        HRESULT h1 = info_->GetFunctionFromIP(ip, &f1);
        HRESULT h2 = info_->GetFunctionFromIP2(ip, &f2, &r2);
        HRESULT h3 = info_->GetFunctionFromIP3(ip, &f3, &r3);
        out += ",\"loaded\":true,\"image\":" + quoted(m.path);
        out += ",\"fromIP\":{\"hr\":" + hex(static_cast<std::uint32_t>(h1)) + ",\"fn\":" + hex(f1) + "}";
        out += ",\"fromIP2\":{\"hr\":" + hex(static_cast<std::uint32_t>(h2)) + ",\"fn\":" + hex(f2) +
               ",\"rejit\":" + std::to_string(r2) + "}";
        out += ",\"fromIP3\":{\"hr\":" + hex(static_cast<std::uint32_t>(h3)) + ",\"fn\":" + hex(f3) +
               ",\"rejit\":" + std::to_string(r3) + "}";
        // The address taken as a code start.
        out += ",\"codeInfo4AtIP\":" + codeInfo4(reinterpret_cast<UINT_PTR>(ip), base);
        HRESULT mhr = S_OK;
        auto map = mapping3(reinterpret_cast<UINT_PTR>(ip), mhr);
        out += ",\"map3AtIP\":" + (mhr == S_OK ? map_json(map) : hex(static_cast<std::uint32_t>(mhr)));
        std::set<FunctionID> fns;
        for (FunctionID fn : {f1, f2, f3})
          if (fn) fns.insert(fn);
        out += ",\"functions\":[";
        bool first = true;
        for (FunctionID fn : fns) {
          out += (first ? "" : ",") + describe(fn, m);
          first = false;
        }
        out += "]}";
        ++answered;
      }
      std::fputs(out.c_str(), f);
      std::fputc('\n', f);
      std::fflush(f);  // what was answered survives a crash on a later address
    }
    std::fclose(f);
    std::fprintf(stderr,
                 "r2r_map_profiler: %zu addresses asked, %zu answered (in loaded images), %zu skipped (no recorded "
                 "code before them), answers in %s\n",
                 asked, answered, skipped, askOut_.c_str());
  }

  std::string record(FunctionID fn, std::size_t& notInImage) {
    ClassID cls = 0;
    ModuleID mod = 0;
    mdToken token = 0;
    ULONG32 nArgs = 0;
    HRESULT hr = info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, 0, &nArgs, nullptr);
    if (hr != S_OK) return "{\"error\":\"GetFunctionInfo2\",\"hr\":" + hex(static_cast<std::uint32_t>(hr)) + "}";
    std::vector<ClassID> args(nArgs);
    if (nArgs) info_->GetFunctionInfo2(fn, 0, &cls, &mod, &token, nArgs, &nArgs, args.data());
    ModuleFacts m = module(mod);

    ULONG32 nStarts = 0;
    hr = info_->GetNativeCodeStartAddresses(fn, 0, 0, &nStarts, nullptr);
    std::vector<UINT_PTR> starts(nStarts);
    if (nStarts) hr = info_->GetNativeCodeStartAddresses(fn, 0, nStarts, &nStarts, starts.data());
    starts.resize(hr == S_OK ? nStarts : 0);

    std::string out = "{\"image\":" + quoted(m.path) + ",\"token\":" + hex8(token);
    out += ",\"class\":" + typeJson(info_, cls);
    if (nArgs) {
      out += ",\"methodArgs\":[";
      for (ULONG32 i = 0; i < nArgs; ++i) out += (i ? "," : "") + typeJson(info_, args[i]);
      out += "]";
    }
    out += ",\"fn\":" + hex(fn) + ",\"tokenFunction\":" + tokenFunction(fn, mod, token);
    out += ",\"codeVersions\":" + std::to_string(starts.size());
    if (m.flat) out += ",\"flatLayout\":true";

    UINT_PTR r2rStart = 0;
    for (UINT_PTR s : starts) {
      auto b = reinterpret_cast<UINT_PTR>(m.base);
      if (m.imageSize && s >= b && s < b + m.imageSize) r2rStart = s;
    }
    if (!r2rStart) {
      ++notInImage;
      out += ",\"r2r\":false";
    } else {
      out += ",\"r2r\":true,\"rva\":" + hex(r2rStart - reinterpret_cast<UINT_PTR>(m.base));
      {
        std::lock_guard<std::mutex> lock(mutex_);
        auto& lowest = lowestStart_[m.path];
        if (!lowest || r2rStart - reinterpret_cast<UINT_PTR>(m.base) < lowest)
          lowest = r2rStart - reinterpret_cast<UINT_PTR>(m.base);
      }
      ULONG32 nInfos = 0;
      COR_PRF_CODE_INFO infos[16];
      if (info_->GetCodeInfo4(r2rStart, 16, &nInfos, infos) == S_OK) {
        std::size_t total = 0;
        std::string ranges = "[";
        for (ULONG32 i = 0; i < nInfos && i < 16; ++i) {
          total += infos[i].size;
          ranges += std::string(i ? "," : "") + "[" + hex(infos[i].startAddress - reinterpret_cast<UINT_PTR>(m.base)) +
                    "," + std::to_string(infos[i].size) + "]";
        }
        out += ",\"codeSize\":" + std::to_string(total) + ",\"codeRanges\":" + ranges + "]";
      }
      HRESULT mhr = S_OK;
      auto map = mapping3(r2rStart, mhr);
      if (mhr == S_OK) out += ",\"map\":" + map_json(map);
      else out += ",\"mapError\":" + hex(static_cast<std::uint32_t>(mhr));
    }
    // The other code versions (tier 1 after tier-up): how many map
    // differently from the R2R one, to show which version each call names.
    if (r2rStart) {
      HRESULT hr3 = S_OK, hrOther = S_OK;
      auto r2rMap = mapping3(r2rStart, hr3);
      std::size_t differ = 0;
      for (UINT_PTR s : starts)
        if (s != r2rStart) {
          auto other = mapping3(s, hrOther);
          if (hrOther != S_OK || other.size() != r2rMap.size() ||
              std::memcmp(other.data(), r2rMap.data(), other.size() * sizeof other[0]) != 0)
            ++differ;
        }
      if (starts.size() > 1) out += ",\"otherVersionsMappedDifferently\":" + std::to_string(differ);
    }
    HRESULT phr = S_OK;
    auto plain = mappingPlain(fn, phr);
    if (phr == S_OK) out += ",\"mapPlain\":" + map_json(plain);
    else out += ",\"mapPlainError\":" + hex(static_cast<std::uint32_t>(phr));
    if (!r2rStart && hr != S_OK) out += ",\"codeVersionsError\":" + hex(static_cast<std::uint32_t>(hr));
    return out + "}";
  }

  ICorProfilerInfo9* info_ = nullptr;
  std::string out_, ask_, askOut_;
  std::mutex mutex_;  // guards everything below
  std::set<FunctionID> found_;
  std::map<FunctionID, int> searched_;  // the last cache-search result per FunctionID
  std::set<FunctionID> jittedSet_;
  std::set<ModuleID> modules_;                   // ask mode only
  std::map<std::string, UINT_PTR> lowestStart_;  // image path -> lowest recorded R2R code RVA
  std::size_t searches_ = 0;
  std::size_t jitted_ = 0;
};

Factory<Profiler> g_factory;

}  // namespace

extern "C" __attribute__((visibility("default"))) HRESULT DllGetClassObject(REFIID clsid, REFIID riid, void** ppv) {
  if (!(clsid == CLSID_R2RMapProfiler)) return CLASS_E_CLASSNOTAVAILABLE;
  return g_factory.QueryInterface(riid, ppv);
}
