// Fuzz target: the builder API. The input is read as a program: a sorted
// flag, then operations on one MapBuilder (add with generated type models,
// addEncoded of well-formed or arbitrary bytes, addRaw of well-formed or
// arbitrary items, each at a chosen RVA), then finish().
//
// Invariants (each aborts when broken):
// - encodeType of any model either fails, leaving its output as it was, or
//   writes bytes that decode to a type that encodes to the same bytes;
// - add() succeeds exactly when it has types and each encodes; addRaw()
//   refuses an empty item; a failed add adds nothing (size() unchanged);
// - finish() fails exactly when two added dictionaries share an RVA;
// - a map built from well-formed inputs only passes checkMap and
//   checkCanonical, holds one entry per dictionary (in RVA order when
//   sorted, insertion order when not), and find() reaches each one's item
//   with exactly its type bytes; with raw or arbitrary bytes the map may be
//   invalid, but nothing may crash.
#include "fuzz_check.hpp"

#include <fuzzer/FuzzedDataProvider.h>
#include <gdmap/reader/map_check.hpp>
#include <gdmap/reader/map_view.hpp>
#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/compressed_int.hpp>
#include <gdmap/writer/map_builder.hpp>
#include <gdmap/writer/type_encoder.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace {

using namespace gdmap;
using gdmap::fuzz::describeError;
using gdmap::fuzz::hexOf;

constexpr std::uint8_t kElementCodes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
                                          0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16,
                                          0x18, 0x19, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x41, 0x45};

std::uint32_t pickToken(FuzzedDataProvider& p) {
  switch (p.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return 0x01000000u | p.ConsumeIntegralInRange<std::uint32_t>(0, 300);
    case 1: return 0x02000000u | p.ConsumeIntegralInRange<std::uint32_t>(0, 300);
    case 2: return 0x1B000000u | p.ConsumeIntegralInRange<std::uint32_t>(0, 300);
    default: return p.ConsumeIntegral<std::uint32_t>();
  }
}

std::uint32_t pickNumber(FuzzedDataProvider& p) {
  return p.ConsumeBool() ? p.ConsumeIntegralInRange<std::uint32_t>(0, 200) : p.ConsumeIntegral<std::uint32_t>();
}

// Any model, well-formed or not: the element code, its fields and its
// operands all come from the input, within small bounds.
Type generateType(FuzzedDataProvider& p, unsigned depth) {
  Type t;
  const std::uint8_t choice = p.ConsumeIntegral<std::uint8_t>();
  if (depth >= 8 || p.remaining_bytes() == 0) {
    t.element = ElementType::I4;
    return t;
  }
  if (choice == 0xFF) {
    // A deep chain of pointers: the depth limit, shared by encoder and decoder.
    const unsigned links = p.ConsumeIntegralInRange<unsigned>(200, 300);
    t = Type::primitive(ElementType::I4);
    for (unsigned i = 0; i < links; ++i) t = Type::pointer(std::move(t));
    return t;
  }
  t.element = choice == 0xFE ? static_cast<ElementType>(p.ConsumeIntegral<std::uint8_t>())
                             : static_cast<ElementType>(kElementCodes[choice % std::size(kElementCodes)]);
  std::size_t operands = 0;
  switch (t.element) {
    case ElementType::Class:
    case ElementType::ValueType: t.token.value = pickToken(p); break;
    case ElementType::Var:
    case ElementType::MVar: t.number = pickNumber(p); break;
    case ElementType::Ptr:
    case ElementType::ByRef:
    case ElementType::SzArray:
    case ElementType::Pinned: operands = 1; break;
    case ElementType::CModReqd:
    case ElementType::CModOpt:
      t.token.value = pickToken(p);
      operands = 1;
      break;
    case ElementType::GenericInst:
      t.token.value = pickToken(p);
      t.valueTypeHead = p.ConsumeBool();
      operands = p.ConsumeIntegralInRange<std::size_t>(0, 3);
      break;
    case ElementType::Array: {
      operands = 1;
      t.shape.rank =
          p.ConsumeBool() ? p.ConsumeIntegralInRange<std::uint32_t>(0, 40) : p.ConsumeIntegral<std::uint32_t>();
      const std::size_t sizes = p.ConsumeIntegralInRange<std::size_t>(0, 4);
      for (std::size_t i = 0; i < sizes; ++i) t.shape.sizes.push_back(pickNumber(p));
      const std::size_t bounds = p.ConsumeIntegralInRange<std::size_t>(0, 4);
      for (std::size_t i = 0; i < bounds; ++i) {
        t.shape.lowerBounds.push_back(p.ConsumeBool() ? p.ConsumeIntegralInRange<std::int32_t>(-100, 100)
                                                      : p.ConsumeIntegral<std::int32_t>());
      }
      break;
    }
    case ElementType::FnPtr: {
      t.method.callingConvention = p.ConsumeIntegral<std::uint8_t>();
      t.method.genericParameterCount = pickNumber(p);
      operands = 1 + p.ConsumeIntegralInRange<std::size_t>(0, 3);
      if (p.ConsumeBool()) t.method.sentinel = p.ConsumeIntegralInRange<std::uint32_t>(0, 4);
      break;
    }
    default: break;
  }
  if (p.ConsumeIntegralInRange<int>(0, 15) == 0 && operands > 0) --operands;  // sometimes one too few
  for (std::size_t i = 0; i < operands; ++i) t.operands.push_back(generateType(p, depth + 1));
  return t;
}

// encodeType on any model: fails cleanly, or writes canonical bytes.
Expected<Bytes> encodeChecked(const Type& type) {
  Bytes out{0xAA};  // a failed encode must leave this alone
  Status s = encodeType(type, out);
  if (!s) {
    FUZZ_CHECK(out.size() == 1 && out[0] == 0xAA, "a failed encodeType changed its output");
    FUZZ_CHECK(!s.error().rule.empty(), "an encode error without a rule: " + describeError(s.error()));
    return s.error();
  }
  Bytes bytes(out.begin() + 1, out.end());
  TypeDecodeNotes notes;
  Expected<Type> decoded = decodeTypeBlob(bytes);
  FUZZ_CHECK(decoded.ok(),
             "encodeType wrote bytes the decoder rejects: " + hexOf(bytes) + ": " + describeError(decoded.error()));
  std::size_t end = 0;
  FUZZ_CHECK(decodeType(bytes, end, &notes).ok() && notes.nonMinimalIntegers == 0,
             "encodeType wrote a non-minimal integer: " + hexOf(bytes));
  Expected<Bytes> again = encodeType(*decoded);
  FUZZ_CHECK(again.ok() && *again == bytes, "encodeType's bytes " + hexOf(bytes) + " decode to a type that encodes " +
                                                (again ? hexOf(*again) : "not at all"));
  return bytes;
}

std::uint32_t pickRva(FuzzedDataProvider& p) {
  // Mostly a few nearby RVAs, so that duplicates happen.
  return p.ConsumeBool() ? 0x1000u + 0x10u * p.ConsumeIntegralInRange<std::uint32_t>(0, 15)
                         : p.ConsumeIntegral<std::uint32_t>();
}

struct Added {
  std::uint32_t rva = 0;
  bool wellFormed = false;  // its item is exactly what the builder writes for types
  std::uint32_t typeCount = 0;
  Bytes typeBytes;  // when well-formed
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider p(data, size);
  const bool sorted = p.ConsumeBool();
  MapBuilder builder(sorted);
  std::vector<Added> added;

  for (int op = 0; op < 64 && p.remaining_bytes() > 0; ++op) {
    const int kind = p.ConsumeIntegralInRange<int>(0, 4);
    const std::uint32_t rva = pickRva(p);
    const std::size_t before = builder.size();
    if (kind <= 2) {
      // Models: add() them, or encode them and addEncoded() (or addRaw()
      // a well-formed item of) the bytes.
      std::vector<Type> types;
      const std::size_t n = p.ConsumeIntegralInRange<std::size_t>(kind == 0 ? 0 : 1, 4);
      for (std::size_t i = 0; i < n; ++i) types.push_back(generateType(p, 0));
      Added a{rva, true, static_cast<std::uint32_t>(n), {}};
      bool allEncode = true;
      for (const Type& t : types) {
        Expected<Bytes> b = encodeChecked(t);
        if (!b) {
          allEncode = false;
          continue;
        }
        a.typeBytes.insert(a.typeBytes.end(), b->begin(), b->end());
      }
      if (kind == 0) {
        Status s = builder.add(rva, types);
        FUZZ_CHECK(s.ok() == (allEncode && n > 0), "add() " + std::string(s ? "accepts" : "rejects") + " " +
                                                       std::to_string(n) + " types" +
                                                       (allEncode ? " that all encode" : " not all of which encode") +
                                                       (s ? std::string() : ": " + describeError(s.error())));
        if (!s) {
          FUZZ_CHECK(builder.size() == before, "a failed add() added something");
          continue;
        }
      } else if (!allEncode) {
        continue;
      } else if (kind == 1) {
        Status s = builder.addEncoded(rva, a.typeCount, a.typeBytes);
        FUZZ_CHECK(s.ok(), "addEncoded() rejects well-formed types: " + describeError(s.error()));
      } else {
        Bytes item;
        Bytes count;
        (void)appendCompressedUInt(count, a.typeCount);
        const std::size_t length = count.size() + a.typeBytes.size();
        if (!appendCompressedUInt(item, static_cast<std::uint32_t>(length))) continue;
        item.insert(item.end(), count.begin(), count.end());
        item.insert(item.end(), a.typeBytes.begin(), a.typeBytes.end());
        Status s = builder.addRaw(rva, item);
        FUZZ_CHECK(s.ok(), "addRaw() rejects a well-formed item " + hexOf(item) + ": " + describeError(s.error()));
      }
      added.push_back(std::move(a));
    } else if (kind == 3) {
      const std::uint32_t count = p.ConsumeIntegralInRange<std::uint32_t>(0, 5);
      const Bytes bytes = p.ConsumeBytes<std::uint8_t>(p.ConsumeIntegralInRange<std::size_t>(0, 24));
      Status s = builder.addEncoded(rva, count, bytes);
      if (!s) {
        FUZZ_CHECK(builder.size() == before, "a failed addEncoded() added something");
        continue;
      }
      added.push_back(Added{rva, false, count, {}});
    } else {
      const Bytes item = p.ConsumeBytes<std::uint8_t>(p.ConsumeIntegralInRange<std::size_t>(0, 24));
      Status s = builder.addRaw(rva, item);
      // An item is at least its length prefix (issue #7 defect 6).
      FUZZ_CHECK(!s.ok() || !item.empty(), std::string("addRaw() accepts an empty item"));
      if (!s) {
        FUZZ_CHECK(!s.error().rule.empty(), "an addRaw() error without a rule: " + describeError(s.error()));
        FUZZ_CHECK(builder.size() == before, "a failed addRaw() added something");
        continue;
      }
      added.push_back(Added{rva, false, 0, {}});
    }
    FUZZ_CHECK(builder.size() == before + 1, "a successful add did not add one dictionary");
  }

  std::set<std::uint32_t> rvas;
  bool duplicate = false;
  bool wellFormed = true;
  for (const Added& a : added) {
    duplicate = duplicate || !rvas.insert(a.rva).second;
    wellFormed = wellFormed && a.wellFormed;
  }

  Expected<Bytes> map = builder.finish();
  FUZZ_CHECK(map.ok() != duplicate, duplicate ? std::string("finish() accepts a duplicate RVA")
                                              : "finish() fails: " + describeError(map.error()));
  if (!map) {
    FUZZ_CHECK(!map.error().rule.empty(), "a finish() error without a rule: " + describeError(map.error()));
    return 0;
  }

  const CheckReport report = checkMap(*map);
  (void)checkCanonical(*map);
  if (!wellFormed) return 0;

  FUZZ_CHECK(report.valid,
             "a map built from well-formed input is invalid: " + hexOf(*map) +
                 (report.diagnostics.empty() ? std::string()
                                             : " [" + report.diagnostics[0].rule + "] " + report.diagnostics[0].path +
                                                   ": " + report.diagnostics[0].message));
  const CanonicalReport canonical = checkCanonical(*map);
  FUZZ_CHECK(canonical.canonical,
             "the builder's map is not canonical: " + hexOf(*map) +
                 (canonical.reasons.empty() ? std::string()
                                            : " [" + canonical.reasons[0].rule + "] " + canonical.reasons[0].message));
  Expected<MapView> view = MapView::open(*map);
  FUZZ_CHECK(view.ok() && view->size() == added.size() && view->sorted() == sorted,
             "the built map's header does not match what was added");
  for (std::uint32_t i = 0; i < view->size(); ++i) {
    if (sorted && i > 0) FUZZ_CHECK(view->entry(i - 1).rva < view->entry(i).rva, "a sorted map out of order");
    if (!sorted) FUZZ_CHECK(view->entry(i).rva == added[i].rva, "an unsorted map not in insertion order");
  }
  for (const Added& a : added) {
    Expected<std::optional<std::uint32_t>> index = view->find(a.rva);
    FUZZ_CHECK(index.ok() && index->has_value(), "find() misses an added RVA");
    Expected<ItemView> item = view->item(view->entry(**index).offset);
    FUZZ_CHECK(item.ok(), "an added dictionary's item does not open: " + describeError(item.error()));
    FUZZ_CHECK(item->typeCount == a.typeCount &&
                   std::equal(item->types.begin(), item->types.end(), a.typeBytes.begin(), a.typeBytes.end()),
               "the item holds " + hexOf(item->types) + ", not the added " + hexOf(a.typeBytes));
  }
  return 0;
}
