// The C calls of <gdmap/reader/runtime_code.h>, over RuntimeCode.
#include <gdmap/reader/runtime_code.h>

#include <gdmap/internal/c_target.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/rules.hpp>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

struct gdmap_runtime {
  explicit gdmap_runtime(gdmap::runtime::RuntimeCode c) : code(std::move(c)) {}
  gdmap::runtime::RuntimeCode code;
  std::optional<std::vector<gdmap_jit_code>> bodies;  // after the first walk
};

namespace {

using gdmap::internal::describe;

void clear(gdmap_error* error) { describe(error, "", 0, ""); }

// A body as C sees it, its method read (or its version unknown).
gdmap::Expected<gdmap_jit_code> toC(const gdmap::runtime::RuntimeCode& code, const gdmap::runtime::JitBody& b) {
  gdmap::Expected<gdmap::runtime::MethodIdentity> m = code.method(b.methodDesc);
  if (!m) return m.error();
  gdmap_jit_code c{};
  c.start = b.start;
  c.size = b.size;
  c.token = m->token;
  c.methodDesc = b.methodDesc;
  c.module = m->module;
  c.tier = b.version.tier ? static_cast<std::int32_t>(*b.version.tier) : -1;
  c.flags = (b.version.explicitVersion ? GDMAP_JIT_CODE_EXPLICIT_VERSION : 0u) |
            (b.version.active ? GDMAP_JIT_CODE_ACTIVE : 0u) | (m->dynamic ? GDMAP_JIT_CODE_DYNAMIC : 0u) |
            (b.version.known ? 0u : GDMAP_JIT_CODE_VERSION_UNKNOWN);
  c.ilVersion = b.version.ilVersion;
  return c;
}

// The two-call protocol: the count always, then what fits.
template <typename T>
gdmap_hresult copyOut(const std::vector<T>& items, std::uint32_t capacity, std::uint32_t* count, T out[]) {
  if (count) *count = static_cast<std::uint32_t>(items.size());
  if (out) std::copy_n(items.begin(), std::min<std::size_t>(capacity, items.size()), out);
  return GDMAP_S_OK;
}

}  // namespace

extern "C" {

gdmap_runtime* gdmap_runtime_open(const gdmap_target* target, uint64_t descriptorAddress, gdmap_error* error) {
  try {
    const gdmap::TargetMemory* memory = gdmap::internal::targetMemory(target, error);
    if (memory == nullptr) return nullptr;
    gdmap::Expected<gdmap::runtime::RuntimeCode> code = gdmap::runtime::RuntimeCode::openAt(*memory, descriptorAddress);
    if (!code) {
      describe(error, code.error());
      return nullptr;
    }
    clear(error);
    return new gdmap_runtime(std::move(*code));
  } catch (...) {
    describe(error, gdmap::rules::kRuntimeDataInvalid, 0, "out of memory");
    return nullptr;
  }
}

void gdmap_runtime_close(gdmap_runtime* runtime) { delete runtime; }

gdmap_hresult gdmap_runtime_jit_code(gdmap_runtime* runtime, uint32_t cCode, uint32_t* pcCode, gdmap_jit_code code[],
                                     gdmap_error* error) {
  if (runtime == nullptr || (cCode > 0 && (pcCode == nullptr || code == nullptr))) return GDMAP_E_INVALIDARG;
  try {
    if (!runtime->bodies) {
      gdmap::Expected<std::vector<gdmap::runtime::JitBody>> bodies = runtime->code.jitBodies();
      if (!bodies) {
        describe(error, bodies.error());
        return GDMAP_E_FAIL;
      }
      std::vector<gdmap_jit_code> out;
      out.reserve(bodies->size());
      for (const gdmap::runtime::JitBody& b : *bodies) {
        gdmap::Expected<gdmap_jit_code> c = toC(runtime->code, b);
        if (!c) {
          describe(error, c.error());
          return GDMAP_E_FAIL;
        }
        out.push_back(*c);
      }
      runtime->bodies = std::move(out);
    }
    clear(error);
    return copyOut(*runtime->bodies, cCode, pcCode, code);
  } catch (...) {
    describe(error, gdmap::rules::kRuntimeDataInvalid, 0, "out of memory");
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_runtime_find_jit_code(gdmap_runtime* runtime, uint64_t address, gdmap_jit_code* code,
                                          gdmap_error* error) {
  if (runtime == nullptr || code == nullptr) return GDMAP_E_INVALIDARG;
  try {
    gdmap::Expected<std::optional<gdmap::runtime::JitBody>> b = runtime->code.jitBodyAt(address);
    if (!b) {
      describe(error, b.error());
      return GDMAP_E_FAIL;
    }
    if (!*b) {
      clear(error);
      return GDMAP_E_FAIL;
    }
    gdmap::Expected<gdmap_jit_code> c = toC(runtime->code, **b);
    if (!c) {
      describe(error, c.error());
      return GDMAP_E_FAIL;
    }
    *code = *c;
    clear(error);
    return GDMAP_S_OK;
  } catch (...) {
    describe(error, gdmap::rules::kRuntimeDataInvalid, 0, "out of memory");
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_runtime_module_path(gdmap_runtime* runtime, uint64_t module, uint32_t cch, uint32_t* pcch,
                                        char path[], gdmap_error* error) {
  if (runtime == nullptr || (cch > 0 && (pcch == nullptr || path == nullptr))) return GDMAP_E_INVALIDARG;
  try {
    gdmap::Expected<gdmap::runtime::ManagedModule> m = runtime->code.module(module);
    if (!m) {
      describe(error, m.error());
      return GDMAP_E_FAIL;
    }
    std::vector<char> text(m->path.begin(), m->path.end());
    text.push_back('\0');
    clear(error);
    copyOut(text, cch, pcch, path);
    if (path && cch > 0 && cch < text.size()) path[cch - 1] = '\0';  // cut, still a string
    return GDMAP_S_OK;
  } catch (...) {
    describe(error, gdmap::rules::kRuntimeDataInvalid, 0, "out of memory");
    return GDMAP_E_FAIL;
  }
}

gdmap_hresult gdmap_runtime_il_to_native_mapping(gdmap_runtime* runtime, uint64_t codeStart, uint32_t cMap,
                                                 uint32_t* pcMap, gdmap_il_to_native_map map[], gdmap_error* error) {
  if (runtime == nullptr || (cMap > 0 && (pcMap == nullptr || map == nullptr))) return GDMAP_E_INVALIDARG;
  try {
    gdmap::Expected<std::optional<gdmap::runtime::JitBody>> b = runtime->code.jitBodyAt(codeStart);
    if (!b) {
      describe(error, b.error());
      return GDMAP_E_FAIL;
    }
    if (!*b || (*b)->start != codeStart) {
      clear(error);
      return GDMAP_E_FAIL;
    }
    gdmap::Expected<gdmap::runtime::JitDebugInfo> info = runtime->code.debugInfo(**b);
    if (!info) {
      describe(error, info.error());
      return GDMAP_E_FAIL;
    }
    const std::vector<gdmap::il::ApiEntry> api = gdmap::il::boundsToApi(info->bounds, (*b)->size);
    std::vector<gdmap_il_to_native_map> out(api.size());
    for (std::size_t i = 0; i < api.size(); ++i) {
      out[i] = {api[i].ilOffset, api[i].nativeStartOffset, api[i].nativeEndOffset};
    }
    clear(error);
    return copyOut(out, cMap, pcMap, map);
  } catch (...) {
    describe(error, gdmap::rules::kRuntimeDataInvalid, 0, "out of memory");
    return GDMAP_E_FAIL;
  }
}

}  // extern "C"
