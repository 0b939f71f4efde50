// symbolize's names of a process's code: ModuleNames (a module file's
// method names, SOS signatures and type names, the file read once; one
// that cannot be read said once), answersMethodName (which methods a name
// asks for), ModulePaths and RuntimeTypeText (a process's modules' files and
// its generic instantiations as ILAsm type text) on a recorded .NET 10
// runtime.
#include "tests/support/target_records.hpp"

#include <gdmap/io/mapped_file.hpp>
#include <gdmap/reader/contract_descriptor.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/symbolize/method_name_query.hpp>
#include <gdmap/symbolize/module_names.hpp>
#include <gdmap/symbolize/module_paths.hpp>
#include <gdmap/symbolize/runtime_type_text.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

namespace gdmap::symbolize {
namespace {

std::string data(const std::string& relative) { return std::string(GDMAP_SOURCE_DIR) + "/tests/data/" + relative; }

// Collects what a ModuleNames says.
struct Warnings {
  std::vector<Diagnostic> said;
  ModuleNames::Warn callback() {
    return [this](Diagnostic d) { said.push_back(std::move(d)); };
  }
};

TEST_CASE("symbolize: ModuleNames names a module's methods and types from its file, read once") {
  Warnings w;
  ModuleNames names(w.callback());
  const std::string path = data("pdb/sample-r2r.dll");
  CHECK(names.methodName(path, 0x06000001) == "Sample.Helper::Twice");
  CHECK(names.signatureOf(path, 0x06000001, nullptr) == "Sample.Helper.Twice(Int32)");
  CHECK(names.methodName(path, 0x06000002) == "Sample.Program::Main");
  CHECK(names.signatureOf(path, 0x06000002, nullptr) == "Sample.Program.Main(System.String[])");
  CHECK(names.typeName(path, 0x02000002) == "Sample.Helper");
  // No such MethodDef: no name, and nothing to warn of.
  CHECK(names.methodName(path, 0x060000ff).empty());
  const metadata::AssemblyTypeNames* whole = names.namesOf(path);
  REQUIRE(whole != nullptr);
  CHECK(names.namesOf(path) == whole);  // read once
  CHECK(names.signaturesOf(path) != nullptr);
  // No file: nothing, without a word.
  CHECK(names.methodName("", 0x06000001).empty());
  CHECK(w.said.empty());
}

TEST_CASE("symbolize: ModuleNames says once of a module it cannot read") {
  Warnings w;
  ModuleNames names(w.callback());
  const std::string missing = data("no-such-module.dll");
  CHECK(names.methodName(missing, 0x06000001).empty());
  CHECK(names.signatureOf(missing, 0x06000001, nullptr).empty());
  CHECK(names.typeName(missing, 0x02000002).empty());
  CHECK(names.namesOf(missing) == nullptr);
  CHECK(names.signaturesOf(missing) == nullptr);
  REQUIRE(w.said.size() == 1);
  CHECK(w.said[0].severity == Severity::Warning);
  CHECK(w.said[0].rule == rules::kInputUnreadable);
  CHECK(w.said[0].message.starts_with("the module " + missing + " cannot be read for its names: "));
  CHECK(w.said[0].file.empty());  // the caller says where
  // A file that is not an assembly: the reader's rule.
  const std::string notAssembly = data("../unit/main.cpp");
  CHECK(names.typeName(notAssembly, 0x02000002).empty());
  REQUIRE(w.said.size() == 2);
  CHECK(w.said[1].rule != rules::kInputUnreadable);
  CHECK(w.said[1].message.starts_with("the module " + notAssembly + " cannot be read for its names: "));
  // Without a callback nothing is said, and nothing is named either.
  ModuleNames quiet;
  CHECK(quiet.methodName(missing, 0x06000001).empty());
}

// Files held in memory, under names of their own.
struct InMemory : AssemblyResolver {
  std::shared_ptr<MappedFile> file;
  mutable std::vector<std::string> opened;
  Expected<AssemblyFile> open(const std::string& path) const override {
    opened.push_back(path);
    if (path != "memory:sample") return Error(0, path + ": not held", rules::kInputUnreadable);
    return AssemblyFile{path, file->bytes(), file};
  }
};

TEST_CASE("symbolize: ModuleNames opens its files through a caller's resolver") {
  Expected<MappedFile> mapped = MappedFile::open(data("pdb/sample-r2r.dll"));
  REQUIRE(mapped);
  InMemory memory;
  memory.file = std::make_shared<MappedFile>(std::move(*mapped));
  Warnings w;
  ModuleNames names(w.callback(), &memory);
  CHECK(names.methodName("memory:sample", 0x06000001) == "Sample.Helper::Twice");
  CHECK(names.typeName("memory:sample", 0x02000002) == "Sample.Helper");
  CHECK(names.methodName("memory:other", 0x06000001).empty());
  CHECK(memory.opened == std::vector<std::string>{"memory:sample", "memory:other"});
  REQUIRE(w.said.size() == 1);
  CHECK(w.said[0].message == "the module memory:other cannot be read for its names: memory:other: not held");
}

TEST_CASE("symbolize: answersMethodName, gdmap's name or SOS's signature, white space ignored") {
  const std::string name = "Ns.Outer/Inner::Run";
  const std::string signature = "Ns.Outer+Inner.Run(System.String, Int32)";
  // gdmap's name: that method, every overload.
  CHECK(answersMethodName("Ns.Outer/Inner::Run", name, signature));
  CHECK(answersMethodName(" Ns.Outer/Inner :: Run ", name, signature));
  CHECK_FALSE(answersMethodName("Ns.Outer/Inner::Walk", name, signature));
  CHECK_FALSE(answersMethodName("Ns.Outer/Inner::Run", "", signature));
  // SOS's signature: that overload.
  CHECK(answersMethodName("Ns.Outer+Inner.Run(System.String,Int32)", name, signature));
  CHECK_FALSE(answersMethodName("Ns.Outer+Inner.Run(Int32)", name, signature));
  CHECK_FALSE(answersMethodName("Ns.Outer+Inner.Run(System.String, Int32)", name, ""));
  // SOS's spelling without parameters: every overload, from either text.
  CHECK(answersMethodName("Ns.Outer+Inner.Run", name, signature));
  CHECK(answersMethodName("Ns.Outer+Inner.Run", name, ""));
  CHECK(answersMethodName("Ns.Outer+Inner.Run", "", signature));
  CHECK_FALSE(answersMethodName("Ns.Outer+Inner.Ru", name, signature));
  CHECK_FALSE(answersMethodName("Ns.Outer+Inner.Run", "", ""));
}

runtime::RuntimeType canon() {
  runtime::RuntimeType t;
  t.kind = runtime::RuntimeType::Kind::Canon;
  return t;
}

runtime::RuntimeType wrapped(runtime::RuntimeType::Kind kind, std::vector<runtime::RuntimeType> arguments) {
  runtime::RuntimeType t;
  t.kind = kind;
  t.arguments = std::move(arguments);
  return t;
}

TEST_CASE("symbolize: RuntimeTypeText and ModulePaths on a recorded .NET 10 runtime") {
  const std::optional<testing::TargetRecords> records =
      testing::TargetRecords::load(data("runtime/net10.0.12-sleeper.target"));
  REQUIRE(records);
  const CallbackMemory target = records->target("recording");
  Expected<runtime::RuntimeCode> code = runtime::RuntimeCode::openAt(target, records->descriptor);
  REQUIRE(code);

  // The module of a JIT-compiled method, asked once.
  Expected<std::vector<runtime::JitBody>> bodies = code->jitBodies();
  REQUIRE(bodies);
  REQUIRE_FALSE(bodies->empty());
  Expected<runtime::MethodIdentity> id = code->method(bodies->front().methodDesc);
  REQUIRE(id);
  ModulePaths paths(*code);
  const std::string& module = paths.of(id->module);
  CHECK_FALSE(module.empty());
  CHECK(&paths.of(id->module) == &module);
  CHECK(paths.of(0).empty());  // no Module there

  using Kind = runtime::RuntimeType::Kind;
  Warnings w;
  ModuleNames names(w.callback());
  RuntimeTypeText types(*code, names);
  CHECK(types.text(canon()) == "__Canon");
  CHECK(types.text(wrapped(Kind::SzArray, {canon()})) == "__Canon[]");
  CHECK(types.text(wrapped(Kind::Pointer, {wrapped(Kind::ByRef, {canon()})})) == "__Canon&*");
  CHECK_FALSE(types.text(wrapped(Kind::SzArray, {})));  // malformed: no element
  CHECK_FALSE(types.text(wrapped(Kind::Array, {canon()})));
  CHECK_FALSE(types.text(runtime::RuntimeType{}));  // Other: a generic parameter...
  runtime::RuntimeType nowhere;
  nowhere.kind = Kind::Class;
  nowhere.typeDef = 0x02000002;
  CHECK_FALSE(types.text(nowhere));  // a Module that cannot be read has no file to name it
  CHECK(w.said.empty());

  runtime::MethodInstantiation none;
  CHECK_FALSE(types.instantiation(none));
  runtime::MethodInstantiation inst;
  inst.typeArguments = {canon()};
  inst.methodArguments = {wrapped(Kind::SzArray, {canon()}), canon()};
  const std::optional<il::Instantiation> text = types.instantiation(inst);
  REQUIRE(text);
  CHECK(text->typeArguments == std::vector<std::string>{"__Canon"});
  CHECK(text->methodArguments == std::vector<std::string>{"__Canon[]", "__Canon"});
  inst.methodArguments.push_back(runtime::RuntimeType{});
  CHECK_FALSE(types.instantiation(inst));  // one type not named: none

  // A type of the recorded module: named when its file is on this machine,
  // else nothing, and the file said once.
  runtime::RuntimeType own;
  own.kind = Kind::Class;
  own.module = id->module;
  own.typeDef = 0x02000002;
  const std::optional<std::string> ownText = types.text(own);
  const std::optional<std::string> again = types.text(own);
  CHECK(ownText == again);
  if (ownText) {
    CHECK(ownText->starts_with("class [" + assemblySimpleName(module) + "]"));
    CHECK(w.said.empty());
  } else {
    REQUIRE(w.said.size() == 1);
    CHECK(w.said[0].message.starts_with("the module " + module + " cannot be read for its names: "));
  }
}

}  // namespace
}  // namespace gdmap::symbolize
