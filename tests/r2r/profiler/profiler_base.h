#pragma once
// What gdmap's test profilers share (r2r_map_profiler, and
// tests/runtime/profiler/jit_map_profiler): every callback answered with
// S_OK unless a profiler overrides it, the class factory the runtime asks
// for, and the JSON text their records are written in. C++17, g++ only.
#include "corprof_min.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace prof {

// UTF-16 (surrogate pairs joined) to UTF-8, up to a NUL or `n` units.
inline std::string utf8(const WCHAR* s, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n && s[i] != 0; ++i) {
    std::uint32_t c = s[i];
    if (c >= 0xD800 && c < 0xDC00 && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] < 0xE000) {
      c = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
      ++i;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

// A JSON string.
inline std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// "0x1f" and "0x0000001f", quoted.
inline std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "\"0x%llx\"", static_cast<unsigned long long>(v));
  return buf;
}
inline std::string hex8(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "\"0x%08x\"", v);
  return buf;
}

// A type as the records write it: {"module": FILE, "typeDef": "0x02...",
// "args": [TYPE...]} or {"array": ELEMENT_TYPE, "rank": N, "of": TYPE};
// "?" when the runtime cannot say. Nesting is bounded.
inline std::string typeJson(ICorProfilerInfo9* info, ClassID cls, int depth = 0) {
  if (cls == 0 || depth > 8) return "\"?\"";
  int elementType = 0;
  ClassID element = 0;
  ULONG rank = 0;
  if (info->IsArrayClass(cls, &elementType, &element, &rank) == S_OK)
    return "{\"array\":" + std::to_string(elementType) + ",\"rank\":" + std::to_string(rank) +
           ",\"of\":" + typeJson(info, element, depth + 1) + "}";
  ModuleID mod = 0;
  mdToken typeDef = 0;
  ClassID parent = 0;
  ULONG32 n = 0;
  if (info->GetClassIDInfo2(cls, &mod, &typeDef, &parent, 0, &n, nullptr) != S_OK) return "\"?\"";
  std::vector<ClassID> args(n);
  if (n && info->GetClassIDInfo2(cls, &mod, &typeDef, &parent, n, &n, args.data()) != S_OK) return "\"?\"";
  WCHAR name[4096];
  ULONG length = 0;
  AssemblyID assembly = 0;
  DWORD flags = 0;
  const std::uint8_t* moduleBase = nullptr;
  std::string file;
  if (info->GetModuleInfo2(mod, &moduleBase, 4096, &length, name, &assembly, &flags) == S_OK) file = utf8(name, length);
  const std::size_t slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  std::string out = "{\"module\":" + quoted(file) + ",\"typeDef\":" + hex8(typeDef);
  if (n) {
    out += ",\"args\":[";
    for (ULONG32 i = 0; i < n; ++i) out += (i ? "," : "") + typeJson(info, args[i], depth + 1);
    out += "]";
  }
  return out + "}";
}

// Every callback of ICorProfilerCallback9, each S_OK (caching and
// inlining left to the runtime); QueryInterface answers up to the version a
// profiler says it implements, so that one written against version 3 is
// still seen as one. Reference-counted; deleted at the last Release.
class CallbackBase : public ICorProfilerCallback9 {
 public:
  explicit CallbackBase(int highestVersion) : highest_(highestVersion) {}
  virtual ~CallbackBase() = default;

  HRESULT QueryInterface(REFIID riid, void** ppv) override {
    static const GUID* const kVersions[] = {
        &IID_ICorProfilerCallback,  &IID_ICorProfilerCallback2, &IID_ICorProfilerCallback3,
        &IID_ICorProfilerCallback4, &IID_ICorProfilerCallback5, &IID_ICorProfilerCallback6,
        &IID_ICorProfilerCallback7, &IID_ICorProfilerCallback8, &IID_ICorProfilerCallback9};
    bool known = riid == IID_IUnknown;
    for (int v = 0; v < highest_ && v < 9; ++v) known = known || riid == *kVersions[v];
    if (!known) {
      *ppv = nullptr;
      return E_NOINTERFACE;
    }
    *ppv = static_cast<ICorProfilerCallback9*>(this);
    AddRef();
    return S_OK;
  }
  ULONG AddRef() override { return ++refs_; }
  ULONG Release() override {
    const ULONG n = --refs_;
    if (n == 0) delete this;
    return n;
  }

  // ICorProfilerCallback
  HRESULT Initialize(IUnknown*) override { return S_OK; }
  HRESULT Shutdown() override { return S_OK; }
  HRESULT AppDomainCreationStarted(AppDomainID) override { return S_OK; }
  HRESULT AppDomainCreationFinished(AppDomainID, HRESULT) override { return S_OK; }
  HRESULT AppDomainShutdownStarted(AppDomainID) override { return S_OK; }
  HRESULT AppDomainShutdownFinished(AppDomainID, HRESULT) override { return S_OK; }
  HRESULT AssemblyLoadStarted(AssemblyID) override { return S_OK; }
  HRESULT AssemblyLoadFinished(AssemblyID, HRESULT) override { return S_OK; }
  HRESULT AssemblyUnloadStarted(AssemblyID) override { return S_OK; }
  HRESULT AssemblyUnloadFinished(AssemblyID, HRESULT) override { return S_OK; }
  HRESULT ModuleLoadStarted(ModuleID) override { return S_OK; }
  HRESULT ModuleLoadFinished(ModuleID, HRESULT) override { return S_OK; }
  HRESULT ModuleUnloadStarted(ModuleID) override { return S_OK; }
  HRESULT ModuleUnloadFinished(ModuleID, HRESULT) override { return S_OK; }
  HRESULT ModuleAttachedToAssembly(ModuleID, AssemblyID) override { return S_OK; }
  HRESULT ClassLoadStarted(ClassID) override { return S_OK; }
  HRESULT ClassLoadFinished(ClassID, HRESULT) override { return S_OK; }
  HRESULT ClassUnloadStarted(ClassID) override { return S_OK; }
  HRESULT ClassUnloadFinished(ClassID, HRESULT) override { return S_OK; }
  HRESULT FunctionUnloadStarted(FunctionID) override { return S_OK; }
  HRESULT JITCompilationStarted(FunctionID, BOOL) override { return S_OK; }
  HRESULT JITCompilationFinished(FunctionID, HRESULT, BOOL) override { return S_OK; }
  HRESULT JITCachedFunctionSearchStarted(FunctionID, BOOL* useCached) override {
    *useCached = 1;  // take the precompiled code, as the runtime would
    return S_OK;
  }
  HRESULT JITCachedFunctionSearchFinished(FunctionID, int) override { return S_OK; }
  HRESULT JITFunctionPitched(FunctionID) override { return S_OK; }
  HRESULT JITInlining(FunctionID, FunctionID, BOOL* shouldInline) override {
    *shouldInline = 1;  // the JIT's own decision stands
    return S_OK;
  }
  HRESULT ThreadCreated(ThreadID) override { return S_OK; }
  HRESULT ThreadDestroyed(ThreadID) override { return S_OK; }
  HRESULT ThreadAssignedToOSThread(ThreadID, DWORD) override { return S_OK; }
  HRESULT RemotingClientInvocationStarted() override { return S_OK; }
  HRESULT RemotingClientSendingMessage(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingClientReceivingReply(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingClientInvocationFinished() override { return S_OK; }
  HRESULT RemotingServerReceivingMessage(GUID*, BOOL) override { return S_OK; }
  HRESULT RemotingServerInvocationStarted() override { return S_OK; }
  HRESULT RemotingServerInvocationReturned() override { return S_OK; }
  HRESULT RemotingServerSendingReply(GUID*, BOOL) override { return S_OK; }
  HRESULT UnmanagedToManagedTransition(FunctionID, int) override { return S_OK; }
  HRESULT ManagedToUnmanagedTransition(FunctionID, int) override { return S_OK; }
  HRESULT RuntimeSuspendStarted(int) override { return S_OK; }
  HRESULT RuntimeSuspendFinished() override { return S_OK; }
  HRESULT RuntimeSuspendAborted() override { return S_OK; }
  HRESULT RuntimeResumeStarted() override { return S_OK; }
  HRESULT RuntimeResumeFinished() override { return S_OK; }
  HRESULT RuntimeThreadSuspended(ThreadID) override { return S_OK; }
  HRESULT RuntimeThreadResumed(ThreadID) override { return S_OK; }
  HRESULT MovedReferences(ULONG, ObjectID*, ObjectID*, ULONG*) override { return S_OK; }
  HRESULT ObjectAllocated(ObjectID, ClassID) override { return S_OK; }
  HRESULT ObjectsAllocatedByClass(ULONG, ClassID*, ULONG*) override { return S_OK; }
  HRESULT ObjectReferences(ObjectID, ClassID, ULONG, ObjectID*) override { return S_OK; }
  HRESULT RootReferences(ULONG, ObjectID*) override { return S_OK; }
  HRESULT ExceptionThrown(ObjectID) override { return S_OK; }
  HRESULT ExceptionSearchFunctionEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionSearchFunctionLeave() override { return S_OK; }
  HRESULT ExceptionSearchFilterEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionSearchFilterLeave() override { return S_OK; }
  HRESULT ExceptionSearchCatcherFound(FunctionID) override { return S_OK; }
  HRESULT ExceptionOSHandlerEnter(UINT_PTR) override { return S_OK; }
  HRESULT ExceptionOSHandlerLeave(UINT_PTR) override { return S_OK; }
  HRESULT ExceptionUnwindFunctionEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionUnwindFunctionLeave() override { return S_OK; }
  HRESULT ExceptionUnwindFinallyEnter(FunctionID) override { return S_OK; }
  HRESULT ExceptionUnwindFinallyLeave() override { return S_OK; }
  HRESULT ExceptionCatcherEnter(FunctionID, ObjectID) override { return S_OK; }
  HRESULT ExceptionCatcherLeave() override { return S_OK; }
  HRESULT COMClassicVTableCreated(ClassID, REFIID, void*, ULONG) override { return S_OK; }
  HRESULT COMClassicVTableDestroyed(ClassID, REFIID, void*) override { return S_OK; }
  HRESULT ExceptionCLRCatcherFound() override { return S_OK; }
  HRESULT ExceptionCLRCatcherExecute() override { return S_OK; }
  // ICorProfilerCallback2
  HRESULT ThreadNameChanged(ThreadID, ULONG, WCHAR*) override { return S_OK; }
  HRESULT GarbageCollectionStarted(int, BOOL*, int) override { return S_OK; }
  HRESULT SurvivingReferences(ULONG, ObjectID*, ULONG*) override { return S_OK; }
  HRESULT GarbageCollectionFinished() override { return S_OK; }
  HRESULT FinalizeableObjectQueued(DWORD, ObjectID) override { return S_OK; }
  HRESULT RootReferences2(ULONG, ObjectID*, int*, int*, UINT_PTR*) override { return S_OK; }
  HRESULT HandleCreated(GCHandleID, ObjectID) override { return S_OK; }
  HRESULT HandleDestroyed(GCHandleID) override { return S_OK; }
  // ICorProfilerCallback3
  HRESULT InitializeForAttach(IUnknown*, void*, UINT) override { return E_FAIL; }  // loaded at startup only
  HRESULT ProfilerAttachComplete() override { return S_OK; }
  HRESULT ProfilerDetachSucceeded() override { return S_OK; }
  // ICorProfilerCallback4
  HRESULT ReJITCompilationStarted(FunctionID, ReJITID, BOOL) override { return S_OK; }
  HRESULT GetReJITParameters(ModuleID, mdToken, ICorProfilerFunctionControl*) override { return S_OK; }
  HRESULT ReJITCompilationFinished(FunctionID, ReJITID, HRESULT, BOOL) override { return S_OK; }
  HRESULT ReJITError(ModuleID, mdToken, FunctionID, HRESULT) override { return S_OK; }
  HRESULT MovedReferences2(ULONG, ObjectID*, ObjectID*, std::size_t*) override { return S_OK; }
  HRESULT SurvivingReferences2(ULONG, ObjectID*, std::size_t*) override { return S_OK; }
  // ICorProfilerCallback5
  HRESULT ConditionalWeakTableElementReferences(ULONG, ObjectID*, ObjectID*, GCHandleID*) override { return S_OK; }
  // ICorProfilerCallback6
  HRESULT GetAssemblyReferences(const WCHAR*, ICorProfilerAssemblyReferenceProvider*) override { return S_OK; }
  // ICorProfilerCallback7
  HRESULT ModuleInMemorySymbolsUpdated(ModuleID) override { return S_OK; }
  // ICorProfilerCallback8
  HRESULT DynamicMethodJITCompilationStarted(FunctionID, BOOL, const std::uint8_t*, ULONG) override { return S_OK; }
  HRESULT DynamicMethodJITCompilationFinished(FunctionID, HRESULT, BOOL) override { return S_OK; }
  // ICorProfilerCallback9
  HRESULT DynamicMethodUnloaded(FunctionID) override { return S_OK; }

 private:
  int highest_;
  std::atomic<ULONG> refs_{1};
};

// The class factory of a profiler class P (default-constructible), with
// a static lifetime.
template <class P>
class Factory final : public IClassFactory {
 public:
  HRESULT QueryInterface(REFIID riid, void** ppv) override {
    if (riid == IID_IUnknown || riid == IID_IClassFactory) {
      *ppv = this;
      return S_OK;
    }
    *ppv = nullptr;
    return E_NOINTERFACE;
  }
  ULONG AddRef() override { return 1; }
  ULONG Release() override { return 1; }
  HRESULT CreateInstance(IUnknown* outer, REFIID riid, void** ppv) override {
    if (outer) return E_FAIL;
    auto* p = new P();
    const HRESULT hr = p->QueryInterface(riid, ppv);
    p->Release();
    return hr;
  }
  HRESULT LockServer(BOOL) override { return S_OK; }
};

}  // namespace prof
