// annotateBounds(): bit ranges that tile every IL-to-native blob exactly
// (valid, mutated, truncated, empty, in each form), named as the strict
// reader names the fields, marked where it finds a problem.
#include <gdmap/reader/bounds_annotate.hpp>
#include <gdmap/writer/bounds_encoder.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using gdmap::Bytes;
using gdmap::RangeStatus;
using gdmap::il::AnnotatedBits;
using gdmap::il::Bound;
using gdmap::il::BoundsForm;

namespace {

void requireBitTiling(const std::vector<AnnotatedBits>& ranges, std::size_t bytes) {
  std::size_t at = 0;
  for (const AnnotatedBits& r : ranges) {
    REQUIRE(r.bit == at);
    REQUIRE(r.bits > 0);
    REQUIRE_FALSE(r.path.empty());
    at += r.bits;
  }
  REQUIRE(at == 8 * bytes);
}

// docs/il-map.md's worked example, method 0x06000001.
std::vector<Bound> worked() {
  return {{0, 0xFFFFFFFE, 0x02}, {4, 0, 0x02}, {10, 5, 0}, {12, 5, 0x10}, {17, 9, 0x02}, {30, 0xFFFFFFFD, 0}};
}

Bytes encoded(BoundsForm form) {
  auto bytes = gdmap::il::encodeBounds(worked(), form, 40);
  REQUIRE(bytes.ok());
  return std::move(bytes).value();
}

const AnnotatedBits& rangeAtBit(const std::vector<AnnotatedBits>& ranges, std::size_t bit) {
  for (const AnnotatedBits& r : ranges)
    if (bit >= r.bit && bit < r.bit + r.bits) return r;
  FAIL("no range holds bit " << bit);
  return ranges.front();
}

}  // namespace

TEST_CASE("annotate bounds: the worked example's nibble form, nibble by nibble") {
  const Bytes blob = encoded(BoundsForm::Nibble);  // 06 21 34 62 09 20 09 0a 95 24 59 00
  const auto a = gdmap::il::annotateBounds(blob, BoundsForm::Nibble);
  CHECK(a.check.valid);
  requireBitTiling(a.ranges, blob.size());
  REQUIRE(a.ranges.size() >= 4);
  CHECK(a.ranges[0].path == "header.count");
  CHECK(a.ranges[0].meaning == "6 bounds");
  CHECK(a.ranges[1].path == "bounds[0].native");
  CHECK(a.ranges[1].bit == 4);
  CHECK(a.ranges[2].meaning == "stored 1 = il+3: il prolog");
  // bounds[4].il spans nibbles 17 and 18: the high half of byte 8 and the
  // low half of byte 9.
  const AnnotatedBits& il4 = rangeAtBit(a.ranges, 4 * 17);
  CHECK(il4.path == "bounds[4].il");
  CHECK(il4.bits == 8);
  CHECK(il4.meaning == "stored 12 = il+3: il 0x9 (2 nibbles)");
  for (const AnnotatedBits& r : a.ranges) CHECK(r.status == RangeStatus::Ok);
}

TEST_CASE("annotate bounds: the worked example's packed forms, field by field across bytes") {
  const Bytes p2 = encoded(BoundsForm::Packed2);
  const auto a = gdmap::il::annotateBounds(p2, BoundsForm::Packed2);
  requireBitTiling(a.ranges, p2.size());
  // docs/il-map.md: bits 22-25 are bounds[0].il, bits 76-79 the padding.
  const AnnotatedBits& il0 = rangeAtBit(a.ranges, 22);
  CHECK(il0.path == "bounds[0].il");
  CHECK(il0.bit == 22);
  CHECK(il0.bits == 4);
  CHECK(rangeAtBit(a.ranges, 76).path == "padding");
  CHECK(rangeAtBit(a.ranges, 12).path == "header.padding");

  const Bytes p3 = encoded(BoundsForm::Packed3);
  const auto b = gdmap::il::annotateBounds(p3, BoundsForm::Packed3);
  requireBitTiling(b.ranges, p3.size());
  const AnnotatedBits& source5 = rangeAtBit(b.ranges, 71);  // bits 71-73
  CHECK(source5.path == "bounds[5].source");
  CHECK(source5.bits == 3);
  CHECK(rangeAtBit(b.ranges, 82).bits == 6);  // padding, bits 82-87
}

TEST_CASE("annotate bounds: problems mark their field with the strict reader's rule") {
  Bytes p2 = encoded(BoundsForm::Packed2);
  p2.back() |= 0x80;  // a padding bit set
  const auto a = gdmap::il::annotateBounds(p2, BoundsForm::Packed2);
  requireBitTiling(a.ranges, p2.size());
  const AnnotatedBits& padding = a.ranges.back();
  CHECK(padding.path == "padding");
  CHECK(padding.status == RangeStatus::Error);
  CHECK(padding.rule == "il-nonzero-padding");

  Bytes api = encoded(BoundsForm::Api);
  api.push_back(0);
  const auto b = gdmap::il::annotateBounds(api, BoundsForm::Api);
  requireBitTiling(b.ranges, api.size());
  CHECK(b.ranges.back().path == "entries[5]");
  CHECK(b.ranges.back().rule == "il-api-length");

  Bytes nibble = encoded(BoundsForm::Nibble);
  nibble.resize(5);  // a count of 6 and the bytes of two and a half bounds
  const auto c = gdmap::il::annotateBounds(nibble, BoundsForm::Nibble);
  requireBitTiling(c.ranges, nibble.size());
  CHECK(c.ranges.front().rule == "il-count-exceeds-bytes");
  CHECK(c.ranges.front().status == RangeStatus::Error);

  const Bytes empty;
  const auto d = gdmap::il::annotateBounds(empty, BoundsForm::Packed3);
  CHECK(d.ranges.empty());
  CHECK_FALSE(d.check.valid);
}

TEST_CASE("annotate bounds: ranges tile random and mutated blobs of every form (seeded)") {
  std::mt19937_64 rng(0x696c6864ULL);
  const BoundsForm forms[] = {BoundsForm::Api, BoundsForm::Nibble, BoundsForm::Packed2, BoundsForm::Packed3};
  std::size_t invalid = 0;
  for (int round = 0; round < 2000; ++round) {
    CAPTURE(round);
    const BoundsForm form = forms[round % 4];
    Bytes blob = encoded(form);
    if (round % 5 == 0) {
      blob.resize(rng() % 24);
      for (auto& b : blob) b = static_cast<std::uint8_t>(rng());
    } else {
      for (int e = 0, edits = 1 + static_cast<int>(rng() % 3); e < edits; ++e) {
        if (rng() % 4 == 0) {
          blob.resize(rng() % (blob.size() + 1));
        } else if (!blob.empty()) {
          blob[rng() % blob.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        }
      }
    }
    const auto a = gdmap::il::annotateBounds(blob, form);
    requireBitTiling(a.ranges, blob.size());
    if (!a.check.valid && !blob.empty()) {
      ++invalid;
      bool marked = false;
      for (const AnnotatedBits& r : a.ranges) marked = marked || r.status == RangeStatus::Error;
      CHECK(marked);
    }
  }
  CHECK(invalid > 300);
}

TEST_CASE("annotate bounds: a source of more than a byte is shown whole (issue 20)") {
  // 1 bound: native 0, il+3 = 3, source 0x758 in four nibbles (b d b 0).
  const Bytes blob = {0x01, 0xb3, 0xbd, 0x00};
  const auto a = gdmap::il::annotateBounds(blob, BoundsForm::Nibble);
  requireBitTiling(a.ranges, blob.size());
  const AnnotatedBits& source = rangeAtBit(a.ranges, 12);
  CHECK(source.path == "bounds[0].source");
  CHECK(source.meaning.rfind("0x758: ", 0) == 0);
  // A source of a byte keeps its two digits.
  const auto worked = gdmap::il::annotateBounds(encoded(BoundsForm::Nibble), BoundsForm::Nibble);
  CHECK(rangeAtBit(worked.ranges, 12).meaning == "0x02: stack_empty");
}
