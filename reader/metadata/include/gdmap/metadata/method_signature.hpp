#pragma once
// A method's name as SOS prints it (`ip2md`, `dumpmd`, `name2ee`, `dumpmt
// -md`), made from an assembly's metadata: the runtime's
// TypeString::AppendMethodInternal with FormatNamespace | FormatSignature |
// FormatFullInst, which the DAC's GetMethodDescName calls.
//
//   System.String.Concat(System.String, System.String)
//   System.Collections.Generic.Dictionary`2[[System.__Canon, System.Private.CoreLib],[System.Int32,
//       System.Private.CoreLib]].TryGetValue(System.__Canon, Int32 ByRef)
//   System.Array.Empty[[System.__Canon, System.Private.CoreLib]]()
//   Probe.Outer`1+Inner`1.Pair(!0, !1, Int32 ByRef)
//
// The declaring type is named with its namespace and enclosing types (`+`),
// and for an instantiation with its arguments, each `[Name, Assembly]`; the
// method's own arguments follow its name the same way (a generic method
// definition has none). The parameters are SigFormat's: CoreLib's
// primitives by their short names (`Int32`, `IntPtr`), other types by their
// namespace and name (no enclosing type, no assembly), generic instances as
// `Name<A,B>`, byrefs as `T ByRef`, custom modifiers left out, a type or
// method parameter as the instantiation's argument, or `!N` / `!!N` without
// one. The return type is not part of it.
#include <gdmap/schema/bytes.hpp>
#include <gdmap/schema/expected.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace gdmap::metadata {

class MethodSignatures {
 public:
  // The signatures of `file`, a PE image with CLI metadata, which must
  // outlive this object. Errors as AssemblyTypeNames::open gives them (the
  // PE reader's, or invalid-metadata at its byte offset).
  static Expected<MethodSignatures> open(ByteSpan file);

  MethodSignatures(MethodSignatures&&) noexcept;
  MethodSignatures& operator=(MethodSignatures&&) noexcept;
  ~MethodSignatures();

  // SOS's text for MethodDef `token`. `instantiation`, when given, is the
  // one a body was compiled for (il::Instantiation: ILAsm type text, as
  // the ReadyToRun reader and `il extract` write it, with `__Canon` for
  // shared code; named types as `[Assembly]Ns.Outer/Inner`, this module's
  // types by name or hex token). Empty when the token is no MethodDef
  // here, its signature cannot be read, or a type of the instantiation
  // cannot be named (a token of another module: `[module N]`).
  std::string signatureOf(std::uint32_t token, const il::Instantiation* instantiation = nullptr) const;

  // The assembly's simple name (its Assembly row; empty for a module
  // without one), and the one SOS names CoreLib's types with in this
  // assembly's instantiations: System.Private.CoreLib, or mscorlib for an
  // assembly that is or references only .NET Framework's.
  const std::string& assemblyName() const;
  const std::string& coreLibraryName() const;

  std::uint32_t methodCount() const;

 private:
  struct Impl;
  explicit MethodSignatures(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gdmap::metadata
