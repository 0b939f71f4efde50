#pragma once
// RuntimeCode's state, shared by its parts (code heaps, methods, debug info).
#include "runtime_layout.hpp"
#include "target_pages.hpp"

#include <gdmap/reader/runtime_code.hpp>

#include <unordered_map>

namespace gdmap::runtime {

// A method's explicit code versions, read once per MethodDesc.
struct MethodVersions {
  struct Node {
    std::uint64_t address = 0;
    std::uint64_t nativeCode = 0;
    std::uint64_t ilVersion = 0;
    std::optional<il::OptimizationTier> tier;
    bool active = false;
  };
  std::vector<Node> nodes;
  bool defaultActive = true;  // no versioning state, or its flag says so
  std::optional<il::OptimizationTier>
      defaultTier;  // MethodDescCodeData.OptimizationTier when it is a tier; else inferred (methods.cpp)
};

struct RuntimeCode::State {
  State(const TargetMemory& target) : pages(target) {}
  TargetPages pages;
  ContractDescriptor contract;
  DataDescriptor data;
  RuntimeLayout layout;
  std::vector<CodeRangeSection> sections;
  mutable std::unordered_map<std::uint64_t, MethodVersions> versions;  // by MethodDesc

  // Reading parts (code_heaps.cpp, methods.cpp).
  Status readRangeSections();
  Expected<JitBody> readBody(std::uint64_t start, std::uint64_t unwindBase) const;
  Expected<const MethodVersions*> methodVersions(std::uint64_t methodDesc) const;
  Status labelVersion(JitBody& body) const;
  // A TypeHandle, named as far as gdmap names types (depth-bounded).
  Expected<RuntimeType> readType(std::uint64_t handle, int depth) const;
  std::optional<std::uint64_t> canonMethodTable;  // read at open, when the runtime says where
  // A NUL-terminated UTF-8 string, at most kMaxNameBytes.
  Expected<std::string> readString(std::uint64_t address, const std::string& what) const;
};

// What a reader limit-checks a target's counts against: far above what a
// runtime holds, far below what would exhaust memory or time.
inline constexpr std::size_t kMaxRangeMapArrays = 1u << 16;  // interior arrays of the range section map
inline constexpr std::size_t kMaxFragments = 1u << 20;       // fragments in all
inline constexpr std::size_t kMaxCodeHeaps = 1u << 16;
inline constexpr std::uint64_t kMaxHeapBytes = 1ull << 32;    // one code heap's span
inline constexpr std::uint32_t kMaxUnwindInfos = 1u << 16;    // a body and its funclets
inline constexpr std::size_t kMaxVersionNodes = 1u << 16;     // one method's explicit versions
inline constexpr std::uint32_t kMaxDebugInfoPart = 1u << 26;  // 64 MiB: one part of a debug-info blob
inline constexpr std::size_t kMaxPathChars = 1u << 15;        // a module's path, in UTF-16 units
inline constexpr std::size_t kMaxNameBytes = 1u << 12;        // a dynamic method's name

Error dataInvalid(std::uint64_t at, const std::string& message);

}  // namespace gdmap::runtime
