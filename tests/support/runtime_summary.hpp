#pragma once
// One line per JIT-compiled body of a runtime, as reader/runtime reads it:
// what the recorded-runtime test compares (tests/unit/runtime_recorded_test.cpp)
// and what tests/support/record_runtime writes beside a recording.
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/schema/hex.hpp>

#include <string>

namespace gdmap::testing {

// A type as the reader gives it, compactly: C/V (class, value type) and
// the typedef with its module's address dropped (addresses differ between
// runs of one program), ! for __Canon, [] * & for arrays, pointers, byrefs,
// ? for other, generic arguments in <>.
inline void appendType(const runtime::RuntimeType& t, std::string& out) {
  using Kind = runtime::RuntimeType::Kind;
  switch (t.kind) {
    case Kind::Class: out += 'C'; break;
    case Kind::ValueType: out += 'V'; break;
    case Kind::Canon: out += '!'; break;
    case Kind::SzArray: out += "[]"; break;
    case Kind::Array: out += "[,]"; break;
    case Kind::Pointer: out += '*'; break;
    case Kind::ByRef: out += '&'; break;
    case Kind::Other: out += '?'; break;
  }
  if (t.kind == Kind::Class || t.kind == Kind::ValueType) out += hex32(t.typeDef);
  if (t.arguments.empty()) return;
  out += '<';
  for (std::size_t i = 0; i < t.arguments.size(); ++i) {
    if (i) out += ',';
    appendType(t.arguments[i], out);
  }
  out += '>';
}

// "START SIZE TOKEN TIER explicit|default active|- ILVERSION BOUNDS[:LAST] [dynamic:NAME] MODULE\n" per body;
// an error stops it with "error RULE MESSAGE\n".
inline std::string runtimeSummary(const runtime::RuntimeCode& code) {
  std::string out = "version ";
  out += code.productVersion();
  out += ", ";
  out += std::to_string(code.rangeSections().size());
  out += " range sections\n";
  const Expected<std::vector<runtime::JitBody>> bodies = code.jitBodies();
  if (!bodies) return out + "error " + bodies.error().rule + "\n";
  for (const runtime::JitBody& b : *bodies) {
    out += shortHex(b.start);
    out += ' ';
    out += std::to_string(b.size);
    out += ' ';
    const Expected<runtime::MethodIdentity> m = code.method(b.methodDesc);
    if (!m) {
      out += "error ";
      out += m.error().rule;
      out += '\n';
      continue;
    }
    const Expected<runtime::ManagedModule> module = code.module(m->module);
    const Expected<runtime::JitDebugInfo> info = code.debugInfo(b);
    out += hex32(m->token);
    out += ' ';
    out += b.version.tier ? il::tierName(*b.version.tier) : "unknown";
    out += b.version.explicitVersion ? " explicit " : " default ";
    out += b.version.active ? "active " : "- ";
    out += std::to_string(b.version.ilVersion);
    out += ' ';
    if (!info) {
      out += "error ";
      out += info.error().rule;
    } else {
      out += std::to_string(info->bounds.size());
      if (!info->bounds.empty()) {
        out += ':';
        out += std::to_string(info->bounds.back().nativeOffset);
        out += '/';
        out += std::to_string(info->bounds.back().ilOffset);
      }
    }
    if (const Expected<runtime::MethodInstantiation> inst = code.instantiation(b.methodDesc); !inst) {
      out += " inst:error ";
      out += inst.error().rule;
    } else if (!inst->typeArguments.empty() || !inst->methodArguments.empty()) {
      out += " inst:";
      for (const runtime::RuntimeType& t : inst->typeArguments) appendType(t, out);
      out += "::";
      for (const runtime::RuntimeType& t : inst->methodArguments) appendType(t, out);
    }
    if (!m->dynamicName.empty()) {
      out += " dynamic:";
      out += m->dynamicName;
    }
    out += ' ';
    if (module) {
      out += module->path;
    } else {
      out += "error ";
      out += module.error().rule;
    }
    out += '\n';
  }
  return out;
}

}  // namespace gdmap::testing
