#pragma once
// Every offset and global the code reader uses, resolved once from the
// descriptor when a runtime is opened: a field the runtime does not
// publish is named then, and reads later are plain arithmetic.
#include <gdmap/reader/data_descriptor.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/expected.hpp>

#include <cstdint>
#include <optional>

namespace gdmap::runtime {

struct RuntimeLayout {
  JitDebugInfoForm debugInfoForm = JitDebugInfoForm::FlagByte;

  std::uint64_t rangeSectionMap = 0;          // ExecutionManagerCodeRangeMapAddress + RangeSectionMap.TopLevelData
  std::optional<std::uint64_t> eeJitManager;  // where the EEJitManager pointer is (.NET 11)
  std::uint32_t eeJitManagerAllCodeHeaps = 0;
  std::uint64_t stubCodeBlockLast = 0;
  std::uint64_t methodDescAlignment = 0;
  std::uint32_t tokenRemainderBits = 0;

  struct {
    std::uint32_t rangeBegin, rangeEndOpen, rangeSection, next;
  } fragment{};
  struct {
    std::uint32_t rangeBegin, rangeEndOpen, nextForDelete, flags, heapList, r2rModule;
  } section{};
  struct {
    std::uint32_t next, startAddress, endAddress, mapBase, headerMap;
  } heap{};
  struct {
    std::uint32_t debugInfo, methodDesc, numUnwindInfos, unwindInfos, runtimeFunctionSize;
    std::uint32_t beginAddress, endAddress;
  } codeHeader{};
  struct {
    std::uint32_t flags3AndTokenRemainder, chunkIndex, flags, codeData;
  } methodDesc{};
  struct {
    std::uint32_t size, methodTable, flagsAndTokenRange;
  } chunk{};
  std::uint32_t methodTableModule = 0;
  std::optional<std::uint32_t> dynamicMethodName;  // DynamicMethodDesc.MethodName: a UTF-8 string's address
  // Generic instantiations (RuntimeTypeSystem): absent when not published.
  struct {
    std::uint32_t flags, flags2, perInstInfo;                // MethodTable
    std::uint32_t numDicts, numTypeArgs;                     // GenericsDictInfo
    std::uint32_t methodPerInstInfo, methodFlags2, numArgs;  // InstantiatedMethodDesc
    std::uint32_t typeAndFlags, typeArg;                     // TypeDesc, ParamTypeDesc
    std::optional<std::uint64_t> canon;                      // where the __Canon MethodTable pointer is
  } generics{};
  bool hasGenerics = false;
  struct {
    std::uint32_t path, base;
  } module{};
  struct {
    std::uint32_t versioningState;
    std::optional<std::uint32_t> optimizationTier;
  } codeData{};
  struct {
    std::uint32_t flags, firstNode;
  } versioningState{};
  struct {
    std::uint32_t nativeCode, ilVersionId, next, flags;
    std::optional<std::uint32_t> optimizationTier;
  } node{};
};

// Checks the contracts (runtime-contract-unsupported) and resolves the
// layout (runtime-descriptor-invalid naming what is missing).
Expected<RuntimeLayout> resolveLayout(const DataDescriptor& d);

}  // namespace gdmap::runtime
