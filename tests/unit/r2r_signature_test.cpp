// Instance entry point signatures (section 109) as the R2R reader prints
// them: ECMA-335 types exactly as formatType spells them, plus the runtime's
// CANON_ZAPSIG (`__Canon`) and MODULE_ZAPSIG (`[module N] T`); malformed
// ones are r2r-bad-instance-signature at the offending byte.
#include "reader/r2r/r2r_signature.hpp"

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/type_text.hpp>

#include <doctest/doctest.h>

#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::r2r::InstanceSignature;
using gdmap::r2r::parseInstanceSignature;

namespace {

Bytes hex(const char* text) { return gdmap::parseHex(text).value(); }

gdmap::Error failureOf(const Bytes& bytes, std::uint64_t fileOffset = 1000) {
  const gdmap::Expected<InstanceSignature> sig = parseInstanceSignature(bytes, fileOffset);
  if (!sig) return sig.error();
  FAIL("the signature was accepted");
  return {};
}

}  // namespace

TEST_CASE("r2r signature: owner, row and method arguments") {
  // 44: OwnerType | MethodInstantiation; owner GENERICINST CLASS TypeDef 3
  // <int32, __Canon>; row 5; two method arguments: __Canon[] and
  // valuetype TypeRef 2; then the entry point (not part of the signature).
  const Bytes bytes = hex("44 15 12 0c 02 08 3e 05 02 1d 3e 11 09 28");
  const InstanceSignature sig = *parseInstanceSignature(bytes, 0);
  CHECK(sig.flags == 0x44);
  CHECK(sig.ownerType == "class 0x02000003<int32, __Canon>");
  CHECK(sig.typeArguments == std::vector<std::string>{"int32", "__Canon"});
  CHECK(sig.token == 0x06000005);
  CHECK(sig.methodArguments == std::vector<std::string>{"__Canon[]", "valuetype 0x01000002"});
  CHECK(sig.length == bytes.size() - 1);
}

TEST_CASE("r2r signature: UpdateContext names the module whose MethodDef it is") {
  // 80 c0: flags 0xC0, UpdateContext | OwnerType; module 3; owner CLASS TypeDef 1; row 7.
  const Bytes bytes = hex("80 c0 03 12 04 07");
  const InstanceSignature sig = *parseInstanceSignature(bytes, 0);
  CHECK(sig.hasModule);
  CHECK(sig.module == 3);
  CHECK(sig.ownerType == "class 0x02000001");
  CHECK(sig.token == 0x06000007);
  CHECK(sig.length == bytes.size());
  CHECK_FALSE(parseInstanceSignature(hex("40 12 04 07"), 0)->hasModule);
}

TEST_CASE("r2r signature: a module override and nested instances") {
  // 40: OwnerType; 3f 02: module 2, then valuetype 0x02000001<class
  // 0x02000002<__Canon>, string>; row 7.
  const InstanceSignature sig = *parseInstanceSignature(hex("40 3f 02 15 11 04 02 15 12 08 01 3e 0e 07"), 0);
  CHECK(sig.ownerType == "[module 2] valuetype 0x02000001<class 0x02000002<__Canon>, string>");
  CHECK(sig.typeArguments == std::vector<std::string>{"class 0x02000002<__Canon>", "string"});
  CHECK(sig.token == 0x06000007);
  CHECK(sig.methodArguments.empty());
  // No owner: the row follows the flags.
  const InstanceSignature plain = *parseInstanceSignature(hex("04 81 00 01 13 00"), 0);
  CHECK(plain.ownerType.empty());
  CHECK(plain.token == 0x06000100);
  CHECK(plain.methodArguments == std::vector<std::string>{"!0"});
}

TEST_CASE("r2r signature: plain ECMA-335 types print as formatType prints them") {
  // Method arguments: a pointer, a byref, a multi-dimensional array with
  // sizes and lower bounds, a method variable, a function pointer.
  const std::vector<const char*> types = {"0f 08",          "10 1c",       "14 0d 02 01 03 01 7f", "1e 01",
                                          "1b 00 01 01 08", "1d 1d 12 05", "15 11 0c 01 10 08"};
  for (const char* type : types) {
    CAPTURE(type);
    const Bytes typeBytes = hex(type);
    Bytes sig = hex("04 01 01");
    sig.insert(sig.end(), typeBytes.begin(), typeBytes.end());
    const InstanceSignature parsed = *parseInstanceSignature(sig, 0);
    REQUIRE(parsed.methodArguments.size() == 1);
    const auto model = gdmap::decodeTypeBlob(typeBytes);
    REQUIRE(model.ok());
    CHECK(parsed.methodArguments[0] == gdmap::formatType(*model));
    CHECK(parsed.length == sig.size());
  }
}

TEST_CASE("r2r signature: malformed signatures are r2r-bad-instance-signature") {
  gdmap::Error e = failureOf(hex("40"));  // the owner type is missing
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == 1001);

  e = failureOf(hex("40 15 12 08 00 05"));  // GENERICINST with no arguments
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == 1004);
  CHECK(e.message.find("argument count 0") != std::string::npos);

  e = failureOf(hex("00 00"));  // row 0
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == 1001);

  e = failureOf(hex("82 00 01"));  // flags 0x200: unknown (0x100 is R2R 26's AsyncVariant)
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.message.find("unknown method flags 0x200") != std::string::npos);

  e = failureOf(hex("80 80"));  // UpdateContext (0x80) without its module index
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.message.find("module index") != std::string::npos);

  e = failureOf(hex("04 01 05 08"));  // five method arguments, one byte left
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.offset == 1002);

  // Nesting past the limit: SZARRAY 300 times.
  Bytes deep = hex("04 01 01");
  deep.insert(deep.end(), 300, 0x1D);
  deep.push_back(0x08);
  e = failureOf(deep);
  CHECK(e.rule == "r2r-bad-instance-signature");
  CHECK(e.message.find("nest deeper") != std::string::npos);
}

namespace {

// Names for two tokens of "this" module.
class TwoNames : public gdmap::TypeNames {
 public:
  std::string nameOf(gdmap::Token token) const override {
    if (token.value == 0x02000003) return "Ns.Box`2";
    if (token.value == 0x01000002) return "[System.Runtime]System.Guid";
    if (token.value == 0x02000001) return "Ns.Other";
    return {};
  }
  gdmap::Expected<gdmap::Token> tokenOf(std::string_view) const override { return gdmap::Token{0x01000001}; }
};

}  // namespace

TEST_CASE("r2r signature: with names, this module's tokens print as names and other modules' stay tokens") {
  const TwoNames names;
  // As the first case: owner Ns.Box`2<int32, __Canon>, method arguments
  // __Canon[] and valuetype [System.Runtime]System.Guid.
  const InstanceSignature sig = *parseInstanceSignature(hex("44 15 12 0c 02 08 3e 05 02 1d 3e 11 09 28"), 0, &names);
  CHECK(sig.ownerType == "class Ns.Box`2<int32, __Canon>");
  CHECK(sig.methodArguments == std::vector<std::string>{"__Canon[]", "valuetype [System.Runtime]System.Guid"});
  // Inside a module override the tokens are that module's: 0x02000001
  // there is not this module's Ns.Other.
  const InstanceSignature other = *parseInstanceSignature(hex("40 3f 02 15 11 04 02 15 12 08 01 3e 0e 07"), 0, &names);
  CHECK(other.ownerType == "[module 2] valuetype 0x02000001<class 0x02000002<__Canon>, string>");
}
