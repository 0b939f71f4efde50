#pragma once
// The IL offset the runtime reports for a native offset: the answer a
// stack trace prints (System.Diagnostics.StackFrame.GetILOffset), made
// explicit so that a symbolizer gives the same.
//
// The rule is the debugger's DebuggerJitInfo::MapNativeOffsetToIL
// (dotnet/runtime src/coreclr/debug/ee/functioninfo.cpp), which the stack
// trace's walk of the bounds (WalkILOffsetsCallback, src/coreclr/vm/
// debugdebugger.cpp) is asserted to agree with in the runtime's debug
// builds. It walks the sequence map, the array GetILToNativeMapping returns
// (il::boundsToApi), in its order, and takes the first entry whose native
// range [start, end) holds the offset. A PROLOG entry reports IL 0, a
// NO_MAPPING entry IL 0, an EPILOG entry the greatest IL offset of the
// method's bounds (m_lastIL: call-instruction bounds included); no entry
// (or no bounds) reports 0 with MAPPING_NO_INFO.
//
// Which offset is looked up depends on the frame
// (DebugStackTrace::Element::InitPass2, debugdebugger.cpp): a caller's
// frame holds a return address, the instruction after the call, so the
// runtime looks up offset - 1 (STACKWALK_CONTROLPC_ADJUST_OFFSET) unless the
// offset is 0; the frame that was executing (a leaf sample, a faulting
// instruction) is looked up at its exact offset.
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gdmap::symbolize {

// What an address is: the instruction being executed (a profiler's leaf
// sample) or a return address (a caller's frame, a stack's other entries).
enum class AddressKind : std::uint8_t { Exact, Return };

// "exact", "return".
const char* addressKindName(AddressKind kind);

// The native offset the runtime looks up for an address `offset` bytes
// into its method (hot and cold parts counted as one block): offset - 1 for
// a return address, except at offset 0.
std::uint32_t lookupOffset(std::uint32_t offset, AddressKind kind);

// How the offset was mapped (the runtime's CorDebugMappingResult).
enum class IlMapping : std::uint8_t {
  Exact,        // at the start of an entry's native range
  Approximate,  // inside an entry's native range
  Prolog,       // in a PROLOG entry: IL 0
  Epilog,       // in an EPILOG entry: the method's greatest IL offset
  Unmapped,     // in a NO_MAPPING entry: IL 0
  NoInfo,       // no entry holds the offset (or no bounds): IL 0
};

// "exact", "approximate", "prolog", "epilog", "unmapped", "no_info".
const char* ilMappingName(IlMapping mapping);

// A method's sequence map and what the rule needs beside it.
struct MethodIlMap {
  std::vector<il::ApiEntry> entries;  // il::boundsToApi of the bounds
  std::uint32_t lastIl = 0;           // the greatest ordinary IL offset of the bounds (0: none)
};

// The map of a method whose code generator reported `bounds` (ascending
// native order) for `codeSize` bytes of code.
MethodIlMap makeMethodIlMap(std::span<const il::Bound> bounds, std::uint32_t codeSize);

struct IlOffset {
  // The entry chosen; none for NoInfo.
  std::optional<il::ApiEntry> entry;
  IlMapping mapping = IlMapping::NoInfo;
  std::uint32_t ilOffset = 0;  // what the runtime reports
};

// MapNativeOffsetToIL(nativeOffset) over `map` (skipPrologs false, as the
// stack trace calls it).
IlOffset mapNativeOffsetToIl(const MethodIlMap& map, std::uint32_t nativeOffset);

}  // namespace gdmap::symbolize
