#pragma once
// A .NET process's code addresses (a live process or a core dump, read
// through reader/runtime's RuntimeCode) to methods, IL offsets and source
// lines. Each address is looked up in the runtime's range sections:
// JIT-compiled code (the body holding it, among every body of the code
// heaps enumerated once and searched by address, with its method, code
// version and sequence map), a ReadyToRun image's code (the image read from
// its file the first time one of its addresses is asked, then answered as
// R2RLocator answers), or a stub.
#include <gdmap/io/mapped_file.hpp>
#include <gdmap/pdb/portable_pdb.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/reader/runtime_code.hpp>
#include <gdmap/symbolize/il_offset.hpp>
#include <gdmap/symbolize/r2r_locator.hpp>
#include <gdmap/symbolize/source_lines.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gdmap::symbolize {

// What is known of one JIT-compiled body once an address in it was asked.
struct JitMethod {
  std::optional<Error> error;  // its method or debug info could not be read
  runtime::MethodIdentity method;
  std::optional<runtime::MethodInstantiation> instantiation;  // when it could be read
  std::string module;                                         // its module's file; empty: none
  MethodIlMap map;
  bool noBounds = false;
};

// A ReadyToRun image of the process, read from its file the first time.
struct ProcessImage {
  std::string path;
  std::optional<MappedFile> file;
  std::optional<r2r::R2RImage> image;
  std::optional<R2RLocator> locator;
  std::string error;  // not empty: it could not be read
};

// What kind of code an address is in.
enum class CodeKind : std::uint8_t { None, Jit, ReadyToRun, Stub, Other };

// One address's answer.
struct ProcessAnswer {
  CodeKind code = CodeKind::None;
  std::uint64_t address = 0;
  const runtime::CodeRangeSection* section = nullptr;
  // Jit: the body and its method (null: in a code heap, in no body).
  const runtime::JitBody* body = nullptr;
  const JitMethod* jit = nullptr;
  // ReadyToRun: the image and its own answer.
  const ProcessImage* image = nullptr;
  std::uint64_t rva = 0;
  Located located;
  // Both: the offset in the method's code, the offset looked up, the
  // entries covering it and the runtime's IL offset for it.
  std::uint32_t offset = 0;
  AddressKind kind = AddressKind::Exact;
  std::uint32_t lookup = 0;
  std::vector<il::ApiEntry> entries;
  bool noBounds = false;
  IlOffset il;
  std::optional<pdb::SourceLine> source;  // with lines, when the module's PDB has one
  std::string error;                      // the method or image could not be read
  // The token and module file of the method found (0 and empty: none).
  std::uint32_t token() const;
  const std::string& module() const;
  bool found() const { return error.empty() && (body != nullptr || located.method != nullptr); }
};

struct ProcessLocatorOptions {
  bool lines = false;  // source lines from each module's PDB found beside its file
};

class ProcessLocator {
 public:
  // `code` must outlive the locator.
  explicit ProcessLocator(const runtime::RuntimeCode& code, ProcessLocatorOptions options = {});
  ProcessLocator(ProcessLocator&&) noexcept;
  ProcessLocator& operator=(ProcessLocator&&) noexcept;
  ~ProcessLocator();

  // The answer stays valid (its pointers too) as long as the locator.
  ProcessAnswer locate(std::uint64_t address, AddressKind kind = AddressKind::Exact);

  // The error of the walk of the code heaps, once: the walk failed and no
  // JIT-compiled body is known (each address in a code heap is then in no
  // body).
  std::optional<Error> takeWalkError();
  // Why modules have no lines, each once (with lines).
  std::vector<PdbNote> takePdbNotes() { return pdbs_.takeNotes(); }

 private:
  struct State;
  void jit(ProcessAnswer& a);
  void readyToRun(ProcessAnswer& a);
  void lines(ProcessAnswer& a);
  const runtime::RuntimeCode* code_;
  ProcessLocatorOptions options_;
  std::unique_ptr<State> state_;
  PdbCache pdbs_;
};

}  // namespace gdmap::symbolize
