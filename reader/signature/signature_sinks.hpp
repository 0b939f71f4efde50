#pragma once
// The three policies SignatureWalker runs with: build a Type, only check,
// and find the field path of one byte.
#include <gdmap/schema/type.hpp>
#include "signature_walker.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gdmap::signature {

// For sinks that keep no path: every path hook does nothing.
struct NoPathTracking {
  void typeAt(std::size_t) {}
  void field(SignatureField, std::uint32_t, std::size_t, std::size_t) {}
  void enter(SignatureField, std::uint32_t) {}
  void leave() {}
};

// For sinks that build nothing: an empty node and hooks that ignore values.
struct NoModel {
  struct Node {};
  void element(Node&, ElementType) {}
  void token(Node&, Token) {}
  void valueTypeHead(Node&, bool) {}
  void number(Node&, std::uint32_t) {}
  void rank(Node&, std::uint32_t) {}
  void size(Node&, std::uint32_t) {}
  void lowerBound(Node&, std::int32_t) {}
  void callingConvention(Node&, std::uint8_t) {}
  void genericParameterCount(Node&, std::uint32_t) {}
  void sentinel(Node&, std::uint32_t) {}
  void operand(Node&, Node&&) {}
};

// decodeType: fills a Type.
struct ModelBuilder : NoPathTracking {
  using Node = Type;
  void element(Type& t, ElementType e) { t.element = e; }
  void token(Type& t, Token token) { t.token = token; }
  void valueTypeHead(Type& t, bool v) { t.valueTypeHead = v; }
  void number(Type& t, std::uint32_t n) { t.number = n; }
  void rank(Type& t, std::uint32_t r) { t.shape.rank = r; }
  void size(Type& t, std::uint32_t s) { t.shape.sizes.push_back(s); }
  void lowerBound(Type& t, std::int32_t b) { t.shape.lowerBounds.push_back(b); }
  void callingConvention(Type& t, std::uint8_t c) { t.method.callingConvention = c; }
  void genericParameterCount(Type& t, std::uint32_t n) { t.method.genericParameterCount = n; }
  void sentinel(Type& t, std::uint32_t index) { t.method.sentinel = index; }
  // Appended one at a time rather than reserved from the count: a hostile
  // count that the bytes left allow is still paid for only as far as the
  // types it announces really decode.
  void operand(Type& t, Type&& child) { t.operands.push_back(std::move(child)); }
};

// skipType: checks only.
struct Checker : NoPathTracking, NoModel {};

// typeFieldPath: remembers the path of the field that holds `target`.
class PathFinder : public NoModel {
 public:
  explicit PathFinder(std::size_t target) : target_(target) {}

  void typeAt(std::size_t offset) {
    if (!found_ && offset == target_) record(nullptr);
  }
  void field(SignatureField f, std::uint32_t index, std::size_t begin, std::size_t end) {
    if (!found_ && begin <= target_ && target_ < end) {
      const Step step{f, index};
      record(&step);
    }
  }
  void enter(SignatureField f, std::uint32_t index) { stack_.push_back(Step{f, index}); }
  void leave() { stack_.pop_back(); }

  bool found() const { return found_; }
  const std::string& path() const { return path_; }
  // Where the walk stood: the path of the innermost type being read.
  std::string currentPath() const { return format(nullptr); }

 private:
  struct Step {
    SignatureField field;
    std::uint32_t index;
  };

  void record(const Step* last) {
    found_ = true;
    path_ = format(last);
  }

  std::string format(const Step* last) const {
    std::string text;
    for (const Step& s : stack_) append(text, s);
    if (last != nullptr) append(text, *last);
    return text;
  }

  static void append(std::string& text, const Step& s) {
    text += fieldName(s.field);
    if (!isIndexed(s.field)) return;
    // Appended piece by piece: `"[" + std::string` trips a false g++ 12
    // -Wrestrict warning at -O2.
    text += '[';
    text += std::to_string(s.index);
    text += ']';
  }

  std::size_t target_;
  bool found_ = false;
  std::string path_;
  std::vector<Step> stack_;
};

}  // namespace gdmap::signature
