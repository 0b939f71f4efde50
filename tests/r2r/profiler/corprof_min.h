// The few COM declarations the profiler needs, written for Linux x64 from the
// public documentation of the CLR profiling API (corprof.idl in
// dotnet/runtime src/coreclr/inc). No Windows SDK here, so IUnknown, the GUIDs
// and the types are declared by hand.
//
// A COM interface is a table of function pointers; on Linux x64 the runtime
// calls them with the System V convention (STDMETHODCALLTYPE is empty), and
// a C++ class of pure virtual functions (no virtual destructor) lays its
// table out in declaration order, so the order below *is* the binary
// contract: every slot of every interface we inherit from is declared, in
// the order the IDL gives. Slots we never call (the Info side) are declared
// with a placeholder signature but keep their name and place; slots the
// runtime may call (the Callback side) have their real parameters.
#pragma once

#include <cstddef>
#include <cstdint>

namespace prof {

using HRESULT = std::int32_t;
using ULONG = std::uint32_t;
using ULONG32 = std::uint32_t;
using DWORD = std::uint32_t;
using BOOL = std::int32_t;
using UINT = std::uint32_t;
using UINT_PTR = std::uintptr_t;
using WCHAR = char16_t;  // the runtime's PAL WCHAR is 16 bits on Linux
using mdToken = std::uint32_t;

using ModuleID = UINT_PTR;
using ClassID = UINT_PTR;
using FunctionID = UINT_PTR;
using ThreadID = UINT_PTR;
using ObjectID = UINT_PTR;
using AppDomainID = UINT_PTR;
using AssemblyID = UINT_PTR;
using GCHandleID = UINT_PTR;
using ReJITID = UINT_PTR;
using COR_PRF_FRAME_INFO = UINT_PTR;

constexpr HRESULT S_OK = 0;
constexpr HRESULT S_FALSE = 1;
constexpr HRESULT E_NOINTERFACE = static_cast<HRESULT>(0x80004002u);
constexpr HRESULT E_FAIL = static_cast<HRESULT>(0x80004005u);
constexpr HRESULT CLASS_E_CLASSNOTAVAILABLE = static_cast<HRESULT>(0x80040111u);
constexpr HRESULT E_NOT_SUFFICIENT_BUFFER = static_cast<HRESULT>(0x8007007Au);

struct GUID {
  std::uint32_t d1;
  std::uint16_t d2, d3;
  std::uint8_t d4[8];
};
inline bool operator==(const GUID& a, const GUID& b) {
  if (a.d1 != b.d1 || a.d2 != b.d2 || a.d3 != b.d3) return false;
  for (int i = 0; i < 8; ++i)
    if (a.d4[i] != b.d4[i]) return false;
  return true;
}
using REFIID = const GUID&;

// {00000000-0000-0000-C000-000000000046}, {00000001-...}: COM's own.
constexpr GUID IID_IUnknown = {0x00000000, 0x0000, 0x0000, {0xC0, 0, 0, 0, 0, 0, 0, 0x46}};
constexpr GUID IID_IClassFactory = {0x00000001, 0x0000, 0x0000, {0xC0, 0, 0, 0, 0, 0, 0, 0x46}};
// The interface identifiers, as corprof.idl's uuid() attributes give them.
constexpr GUID IID_ICorProfilerCallback = {
    0x176FBED1, 0xA55C, 0x4796, {0x98, 0xCA, 0xA9, 0xDA, 0x0E, 0xF8, 0x83, 0xE7}};
constexpr GUID IID_ICorProfilerCallback2 = {
    0x8A8CC829, 0xCCF2, 0x49fe, {0xBB, 0xAE, 0x0F, 0x02, 0x22, 0x28, 0x07, 0x1A}};
constexpr GUID IID_ICorProfilerCallback3 = {
    0x4FD2ED52, 0x7731, 0x4b8d, {0x94, 0x69, 0x03, 0xD2, 0xCC, 0x30, 0x86, 0xC5}};
constexpr GUID IID_ICorProfilerInfo9 = {0x008170DB, 0xF8CC, 0x4796, {0x9A, 0x51, 0xDC, 0x8A, 0xA0, 0xB4, 0x70, 0x12}};

// COR_PRF_MONITOR bits used here.
constexpr DWORD COR_PRF_MONITOR_MODULE_LOADS = 0x00000004;
constexpr DWORD COR_PRF_MONITOR_JIT_COMPILATION = 0x00000020;
constexpr DWORD COR_PRF_MONITOR_CACHE_SEARCHES = 0x00020000;
// COR_PRF_JIT_CACHE
constexpr int COR_PRF_CACHED_FUNCTION_FOUND = 0;
// COR_PRF_MODULE_FLAGS
constexpr DWORD COR_PRF_MODULE_FLAT_LAYOUT = 0x00000020;

struct COR_DEBUG_IL_TO_NATIVE_MAP {
  ULONG32 ilOffset;
  ULONG32 nativeStartOffset;
  ULONG32 nativeEndOffset;
};
struct COR_PRF_CODE_INFO {
  UINT_PTR startAddress;
  std::size_t size;
};

struct IUnknown {
  virtual HRESULT QueryInterface(REFIID riid, void** ppv) = 0;
  virtual ULONG AddRef() = 0;
  virtual ULONG Release() = 0;
};

struct IClassFactory : IUnknown {
  virtual HRESULT CreateInstance(IUnknown* outer, REFIID riid, void** ppv) = 0;
  virtual HRESULT LockServer(BOOL lock) = 0;
};

// ICorProfilerCallback: 69 methods after IUnknown's 3, in IDL order.
struct ICorProfilerCallback : IUnknown {
  virtual HRESULT Initialize(IUnknown* info) = 0;
  virtual HRESULT Shutdown() = 0;
  virtual HRESULT AppDomainCreationStarted(AppDomainID) = 0;
  virtual HRESULT AppDomainCreationFinished(AppDomainID, HRESULT) = 0;
  virtual HRESULT AppDomainShutdownStarted(AppDomainID) = 0;
  virtual HRESULT AppDomainShutdownFinished(AppDomainID, HRESULT) = 0;
  virtual HRESULT AssemblyLoadStarted(AssemblyID) = 0;
  virtual HRESULT AssemblyLoadFinished(AssemblyID, HRESULT) = 0;
  virtual HRESULT AssemblyUnloadStarted(AssemblyID) = 0;
  virtual HRESULT AssemblyUnloadFinished(AssemblyID, HRESULT) = 0;
  virtual HRESULT ModuleLoadStarted(ModuleID) = 0;
  virtual HRESULT ModuleLoadFinished(ModuleID, HRESULT) = 0;
  virtual HRESULT ModuleUnloadStarted(ModuleID) = 0;
  virtual HRESULT ModuleUnloadFinished(ModuleID, HRESULT) = 0;
  virtual HRESULT ModuleAttachedToAssembly(ModuleID, AssemblyID) = 0;
  virtual HRESULT ClassLoadStarted(ClassID) = 0;
  virtual HRESULT ClassLoadFinished(ClassID, HRESULT) = 0;
  virtual HRESULT ClassUnloadStarted(ClassID) = 0;
  virtual HRESULT ClassUnloadFinished(ClassID, HRESULT) = 0;
  virtual HRESULT FunctionUnloadStarted(FunctionID) = 0;
  virtual HRESULT JITCompilationStarted(FunctionID, BOOL safeToBlock) = 0;
  virtual HRESULT JITCompilationFinished(FunctionID, HRESULT, BOOL safeToBlock) = 0;
  virtual HRESULT JITCachedFunctionSearchStarted(FunctionID, BOOL* useCached) = 0;
  virtual HRESULT JITCachedFunctionSearchFinished(FunctionID, int result) = 0;
  virtual HRESULT JITFunctionPitched(FunctionID) = 0;
  virtual HRESULT JITInlining(FunctionID caller, FunctionID callee, BOOL* shouldInline) = 0;
  virtual HRESULT ThreadCreated(ThreadID) = 0;
  virtual HRESULT ThreadDestroyed(ThreadID) = 0;
  virtual HRESULT ThreadAssignedToOSThread(ThreadID, DWORD) = 0;
  virtual HRESULT RemotingClientInvocationStarted() = 0;
  virtual HRESULT RemotingClientSendingMessage(GUID*, BOOL) = 0;
  virtual HRESULT RemotingClientReceivingReply(GUID*, BOOL) = 0;
  virtual HRESULT RemotingClientInvocationFinished() = 0;
  virtual HRESULT RemotingServerReceivingMessage(GUID*, BOOL) = 0;
  virtual HRESULT RemotingServerInvocationStarted() = 0;
  virtual HRESULT RemotingServerInvocationReturned() = 0;
  virtual HRESULT RemotingServerSendingReply(GUID*, BOOL) = 0;
  virtual HRESULT UnmanagedToManagedTransition(FunctionID, int reason) = 0;
  virtual HRESULT ManagedToUnmanagedTransition(FunctionID, int reason) = 0;
  virtual HRESULT RuntimeSuspendStarted(int reason) = 0;
  virtual HRESULT RuntimeSuspendFinished() = 0;
  virtual HRESULT RuntimeSuspendAborted() = 0;
  virtual HRESULT RuntimeResumeStarted() = 0;
  virtual HRESULT RuntimeResumeFinished() = 0;
  virtual HRESULT RuntimeThreadSuspended(ThreadID) = 0;
  virtual HRESULT RuntimeThreadResumed(ThreadID) = 0;
  virtual HRESULT MovedReferences(ULONG, ObjectID*, ObjectID*, ULONG*) = 0;
  virtual HRESULT ObjectAllocated(ObjectID, ClassID) = 0;
  virtual HRESULT ObjectsAllocatedByClass(ULONG, ClassID*, ULONG*) = 0;
  virtual HRESULT ObjectReferences(ObjectID, ClassID, ULONG, ObjectID*) = 0;
  virtual HRESULT RootReferences(ULONG, ObjectID*) = 0;
  virtual HRESULT ExceptionThrown(ObjectID) = 0;
  virtual HRESULT ExceptionSearchFunctionEnter(FunctionID) = 0;
  virtual HRESULT ExceptionSearchFunctionLeave() = 0;
  virtual HRESULT ExceptionSearchFilterEnter(FunctionID) = 0;
  virtual HRESULT ExceptionSearchFilterLeave() = 0;
  virtual HRESULT ExceptionSearchCatcherFound(FunctionID) = 0;
  virtual HRESULT ExceptionOSHandlerEnter(UINT_PTR) = 0;
  virtual HRESULT ExceptionOSHandlerLeave(UINT_PTR) = 0;
  virtual HRESULT ExceptionUnwindFunctionEnter(FunctionID) = 0;
  virtual HRESULT ExceptionUnwindFunctionLeave() = 0;
  virtual HRESULT ExceptionUnwindFinallyEnter(FunctionID) = 0;
  virtual HRESULT ExceptionUnwindFinallyLeave() = 0;
  virtual HRESULT ExceptionCatcherEnter(FunctionID, ObjectID) = 0;
  virtual HRESULT ExceptionCatcherLeave() = 0;
  virtual HRESULT COMClassicVTableCreated(ClassID, REFIID, void*, ULONG) = 0;
  virtual HRESULT COMClassicVTableDestroyed(ClassID, REFIID, void*) = 0;
  virtual HRESULT ExceptionCLRCatcherFound() = 0;
  virtual HRESULT ExceptionCLRCatcherExecute() = 0;
};

// ICorProfilerCallback2 adds 8, ICorProfilerCallback3 adds 3. The runtime
// insists on ICorProfilerCallback2 at least; it asks for 3..11 and uses
// whichever the profiler answers, so stopping at 3 is allowed.
struct ICorProfilerCallback2 : ICorProfilerCallback {
  virtual HRESULT ThreadNameChanged(ThreadID, ULONG, WCHAR*) = 0;
  virtual HRESULT GarbageCollectionStarted(int, BOOL*, int reason) = 0;
  virtual HRESULT SurvivingReferences(ULONG, ObjectID*, ULONG*) = 0;
  virtual HRESULT GarbageCollectionFinished() = 0;
  virtual HRESULT FinalizeableObjectQueued(DWORD, ObjectID) = 0;
  virtual HRESULT RootReferences2(ULONG, ObjectID*, int* kinds, int* flags, UINT_PTR* ids) = 0;
  virtual HRESULT HandleCreated(GCHandleID, ObjectID) = 0;
  virtual HRESULT HandleDestroyed(GCHandleID) = 0;
};
struct ICorProfilerCallback3 : ICorProfilerCallback2 {
  virtual HRESULT InitializeForAttach(IUnknown*, void*, UINT) = 0;
  virtual HRESULT ProfilerAttachComplete() = 0;
  virtual HRESULT ProfilerDetachSucceeded() = 0;
};

// The Info side is only called, never implemented: a slot we do not call is
// `Unused`, which keeps its place in the table. ICorProfilerInfo9 is the
// first to take a native code start address (GetILToNativeMapping3), which is
// how one code version among several (R2R, then tier 1) is named.
#define PROF_UNUSED(name) virtual HRESULT name##_unused() = 0
struct ICorProfilerInfo : IUnknown {
  PROF_UNUSED(GetClassFromObject);
  PROF_UNUSED(GetClassFromToken);
  PROF_UNUSED(GetCodeInfo);
  PROF_UNUSED(GetEventMask);
  virtual HRESULT GetFunctionFromIP(const std::uint8_t* ip, FunctionID* fn) = 0;
  virtual HRESULT GetFunctionFromToken(ModuleID mod, mdToken token, FunctionID* fn) = 0;
  PROF_UNUSED(GetHandleFromThread);
  PROF_UNUSED(GetObjectSize);
  virtual HRESULT IsArrayClass(ClassID cls, int* elementType, ClassID* elementClass, ULONG* rank) = 0;
  PROF_UNUSED(GetThreadInfo);
  PROF_UNUSED(GetCurrentThreadID);
  PROF_UNUSED(GetClassIDInfo);
  PROF_UNUSED(GetFunctionInfo);
  virtual HRESULT SetEventMask(DWORD events) = 0;
  PROF_UNUSED(SetEnterLeaveFunctionHooks);
  PROF_UNUSED(SetFunctionIDMapper);
  PROF_UNUSED(GetTokenAndMetaDataFromFunction);
  PROF_UNUSED(GetModuleInfo);
  PROF_UNUSED(GetModuleMetaData);
  PROF_UNUSED(GetILFunctionBody);
  PROF_UNUSED(GetILFunctionBodyAllocator);
  PROF_UNUSED(SetILFunctionBody);
  PROF_UNUSED(GetAppDomainInfo);
  PROF_UNUSED(GetAssemblyInfo);
  PROF_UNUSED(SetFunctionReJIT);
  PROF_UNUSED(ForceGC);
  PROF_UNUSED(SetILInstrumentedCodeMap);
  PROF_UNUSED(GetInprocInspectionInterface);
  PROF_UNUSED(GetInprocInspectionIThisThread);
  PROF_UNUSED(GetThreadContext);
  PROF_UNUSED(BeginInprocDebugging);
  PROF_UNUSED(EndInprocDebugging);
  virtual HRESULT GetILToNativeMapping(FunctionID fn, ULONG32 cMap, ULONG32* pcMap,
                                       COR_DEBUG_IL_TO_NATIVE_MAP* map) = 0;
};
struct ICorProfilerInfo2 : ICorProfilerInfo {
  PROF_UNUSED(DoStackSnapshot);
  PROF_UNUSED(SetEnterLeaveFunctionHooks2);
  virtual HRESULT GetFunctionInfo2(FunctionID fn, COR_PRF_FRAME_INFO frame, ClassID* cls, ModuleID* mod, mdToken* token,
                                   ULONG32 cTypeArgs, ULONG32* pcTypeArgs, ClassID* typeArgs) = 0;
  PROF_UNUSED(GetStringLayout);
  PROF_UNUSED(GetClassLayout);
  virtual HRESULT GetClassIDInfo2(ClassID cls, ModuleID* mod, mdToken* typeDef, ClassID* parent, ULONG32 cTypeArgs,
                                  ULONG32* pcTypeArgs, ClassID* typeArgs) = 0;
  virtual HRESULT GetCodeInfo2(FunctionID fn, ULONG32 cInfos, ULONG32* pcInfos, COR_PRF_CODE_INFO* infos) = 0;
  PROF_UNUSED(GetClassFromTokenAndTypeArgs);
  PROF_UNUSED(GetFunctionFromTokenAndTypeArgs);
  PROF_UNUSED(EnumModuleFrozenObjects);
  PROF_UNUSED(GetArrayObjectInfo);
  PROF_UNUSED(GetBoxClassLayout);
  PROF_UNUSED(GetThreadAppDomain);
  PROF_UNUSED(GetRVAStaticAddress);
  PROF_UNUSED(GetAppDomainStaticAddress);
  PROF_UNUSED(GetThreadStaticAddress);
  PROF_UNUSED(GetContextStaticAddress);
  PROF_UNUSED(GetStaticFieldInfo);
  PROF_UNUSED(GetGenerationBounds);
  PROF_UNUSED(GetObjectGeneration);
  PROF_UNUSED(GetNotifiedExceptionClauseInfo);
};
struct ICorProfilerInfo3 : ICorProfilerInfo2 {
  PROF_UNUSED(EnumJITedFunctions);
  PROF_UNUSED(RequestProfilerDetach);
  PROF_UNUSED(SetFunctionIDMapper2);
  PROF_UNUSED(GetStringLayout2);
  PROF_UNUSED(SetEnterLeaveFunctionHooks3);
  PROF_UNUSED(SetEnterLeaveFunctionHooks3WithInfo);
  PROF_UNUSED(GetFunctionEnter3Info);
  PROF_UNUSED(GetFunctionLeave3Info);
  PROF_UNUSED(GetFunctionTailcall3Info);
  PROF_UNUSED(EnumModules);
  PROF_UNUSED(GetRuntimeInformation);
  PROF_UNUSED(GetThreadStaticAddress2);
  PROF_UNUSED(GetAppDomainsContainingModule);
  virtual HRESULT GetModuleInfo2(ModuleID mod, const std::uint8_t** base, ULONG cchName, ULONG* pcchName, WCHAR* name,
                                 AssemblyID* assembly, DWORD* flags) = 0;
};
struct ICorProfilerInfo4 : ICorProfilerInfo3 {
  PROF_UNUSED(EnumThreads);
  PROF_UNUSED(InitializeCurrentThread);
  PROF_UNUSED(RequestReJIT);
  PROF_UNUSED(RequestRevert);
  PROF_UNUSED(GetCodeInfo3);
  virtual HRESULT GetFunctionFromIP2(const std::uint8_t* ip, FunctionID* fn, ReJITID* rejit) = 0;
  PROF_UNUSED(GetReJITIDs);
  PROF_UNUSED(GetILToNativeMapping2);
  PROF_UNUSED(EnumJITedFunctions2);
  PROF_UNUSED(GetObjectSize2);
};
struct ICorProfilerInfo5 : ICorProfilerInfo4 {
  PROF_UNUSED(GetEventMask2);
  virtual HRESULT SetEventMask2(DWORD low, DWORD high) = 0;
};
struct ICorProfilerInfo6 : ICorProfilerInfo5 {
  PROF_UNUSED(EnumNgenModuleMethodsInliningThisMethod);
};
struct ICorProfilerInfo7 : ICorProfilerInfo6 {
  PROF_UNUSED(ApplyMetaData);
  PROF_UNUSED(GetInMemorySymbolsLength);
  PROF_UNUSED(ReadInMemorySymbols);
};
struct ICorProfilerInfo8 : ICorProfilerInfo7 {
  virtual HRESULT IsFunctionDynamic(FunctionID fn, BOOL* isDynamic) = 0;
  virtual HRESULT GetFunctionFromIP3(const std::uint8_t* ip, FunctionID* fn, ReJITID* rejit) = 0;
  virtual HRESULT GetDynamicFunctionInfo(FunctionID fn, ModuleID* mod, const std::uint8_t** sig, ULONG* cbSig,
                                         ULONG cchName, ULONG* pcchName, WCHAR* name) = 0;
};
struct ICorProfilerInfo9 : ICorProfilerInfo8 {
  virtual HRESULT GetNativeCodeStartAddresses(FunctionID fn, ReJITID rejit, ULONG32 cStarts, ULONG32* pcStarts,
                                              UINT_PTR* starts) = 0;
  virtual HRESULT GetILToNativeMapping3(UINT_PTR codeStart, ULONG32 cMap, ULONG32* pcMap,
                                        COR_DEBUG_IL_TO_NATIVE_MAP* map) = 0;
  virtual HRESULT GetCodeInfo4(UINT_PTR codeStart, ULONG32 cInfos, ULONG32* pcInfos, COR_PRF_CODE_INFO* infos) = 0;
};
#undef PROF_UNUSED

// ---------------------------------------------------------------------------
// Appended for tests/runtime/profiler/jit_map_profiler.cpp (the declarations
// above are unchanged): ICorProfilerCallback4..9, whose slots follow
// ICorProfilerCallback3's in the IDL order, so that the runtime calls
// ReJITCompilationFinished, DynamicMethodJITCompilationFinished and
// DynamicMethodUnloaded; and the event-mask bits that profiler uses.
constexpr GUID IID_ICorProfilerCallback4 = {
    0x7B63B2E3, 0x107D, 0x4d48, {0xB2, 0xF6, 0xF6, 0x1E, 0x22, 0x94, 0x70, 0xD2}};
constexpr GUID IID_ICorProfilerCallback5 = {
    0x8DFBA405, 0x8C9F, 0x45F8, {0xBF, 0xFA, 0x83, 0xB1, 0x4C, 0xEF, 0x78, 0xB5}};
constexpr GUID IID_ICorProfilerCallback6 = {
    0xFC13DF4B, 0x4448, 0x4F4F, {0x95, 0x0C, 0xBA, 0x8D, 0x19, 0xD0, 0x0C, 0x36}};
constexpr GUID IID_ICorProfilerCallback7 = {
    0xF76A2DBA, 0x1D52, 0x4539, {0x86, 0x6C, 0x2A, 0xA5, 0x18, 0xF9, 0xEF, 0xC3}};
constexpr GUID IID_ICorProfilerCallback8 = {
    0x5BED9B15, 0xC079, 0x4D47, {0xBF, 0xE2, 0x21, 0x5A, 0x14, 0x0C, 0x07, 0xE0}};
constexpr GUID IID_ICorProfilerCallback9 = {
    0x27583EC3, 0xC8F5, 0x482F, {0x80, 0x52, 0x19, 0x4B, 0x8C, 0xE4, 0x70, 0x5A}};

// COR_PRF_HIGH_MONITOR (SetEventMask2's second word).
constexpr DWORD COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS =
    0x00000004;  // (0x8 would be COR_PRF_HIGH_DISABLE_TIERED_COMPILATION)

struct ICorProfilerFunctionControl;            // never used: GetReJITParameters only
struct ICorProfilerAssemblyReferenceProvider;  // never used: GetAssemblyReferences only

struct ICorProfilerCallback4 : ICorProfilerCallback3 {
  virtual HRESULT ReJITCompilationStarted(FunctionID, ReJITID, BOOL safeToBlock) = 0;
  virtual HRESULT GetReJITParameters(ModuleID, mdToken, ICorProfilerFunctionControl*) = 0;
  virtual HRESULT ReJITCompilationFinished(FunctionID, ReJITID, HRESULT, BOOL safeToBlock) = 0;
  virtual HRESULT ReJITError(ModuleID, mdToken, FunctionID, HRESULT) = 0;
  virtual HRESULT MovedReferences2(ULONG, ObjectID*, ObjectID*, std::size_t*) = 0;
  virtual HRESULT SurvivingReferences2(ULONG, ObjectID*, std::size_t*) = 0;
};
struct ICorProfilerCallback5 : ICorProfilerCallback4 {
  virtual HRESULT ConditionalWeakTableElementReferences(ULONG, ObjectID*, ObjectID*, GCHandleID*) = 0;
};
struct ICorProfilerCallback6 : ICorProfilerCallback5 {
  virtual HRESULT GetAssemblyReferences(const WCHAR* path, ICorProfilerAssemblyReferenceProvider*) = 0;
};
struct ICorProfilerCallback7 : ICorProfilerCallback6 {
  virtual HRESULT ModuleInMemorySymbolsUpdated(ModuleID) = 0;
};
struct ICorProfilerCallback8 : ICorProfilerCallback7 {
  virtual HRESULT DynamicMethodJITCompilationStarted(FunctionID, BOOL safeToBlock, const std::uint8_t* ilHeader,
                                                     ULONG cbILHeader) = 0;
  virtual HRESULT DynamicMethodJITCompilationFinished(FunctionID, HRESULT, BOOL safeToBlock) = 0;
};
struct ICorProfilerCallback9 : ICorProfilerCallback8 {
  virtual HRESULT DynamicMethodUnloaded(FunctionID) = 0;
};

}  // namespace prof
