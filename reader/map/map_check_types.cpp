#include "map_check_types.hpp"

#include <gdmap/internal/quiet_types.hpp>

#include <gdmap/reader/type_decoder.hpp>
#include <gdmap/schema/element_type.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/map_format.hpp>
#include <gdmap/schema/rules.hpp>
#include <gdmap/schema/type.hpp>

#include <algorithm>
#include <string>

namespace gdmap::detail {
namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

constexpr std::uint8_t code(ElementType e) { return static_cast<std::uint8_t>(e); }

std::string_view unusableName(std::uint8_t e) {
  switch (static_cast<ElementType>(e)) {
    case ElementType::Void: return "void";
    case ElementType::ByRef: return "a byref (&)";
    case ElementType::TypedByRef: return "typedref";
    case ElementType::Pinned: return "a pinned type";
    case ElementType::Sentinel: return "a sentinel (...)";
    default: return "this type";
  }
}

// Finds the parts of one well-formed type that stand where a generic argument
// must be instantiable: the type itself, the arguments of a GENERICINST and
// the element of an array, recursively, looking through custom modifiers.
// Other operands (a pointer's pointee, a function pointer's parameters) may
// legitimately be void or byref, so they are skipped with skipType. Every
// byte is read at most once: linear in the type's size.
template <typename OnUnusable>
class ArgumentScanner {
 public:
  ArgumentScanner(ByteSpan bytes, OnUnusable& onUnusable) : bytes_(bytes), onUnusable_(onUnusable) {}

  // The end of the type starting at `pos`, or kNone if it is malformed (it
  // was validated first, so that is a safety net, not a path).
  std::size_t scan(std::size_t pos, unsigned depth) {
    if (depth > kMaxTypeDepth) return kNone;
    while (pos < bytes_.size() &&
           (bytes_[pos] == code(ElementType::CModReqd) || bytes_[pos] == code(ElementType::CModOpt))) {
      pos = skipInteger(pos + 1);
      if (pos == kNone) return kNone;
    }
    if (pos >= bytes_.size()) return kNone;
    const std::uint8_t e = bytes_[pos];
    switch (static_cast<ElementType>(e)) {
      case ElementType::Void:
      case ElementType::TypedByRef:
      case ElementType::Sentinel: onUnusable_(pos, e); return pos + 1;
      case ElementType::ByRef:
      case ElementType::Pinned: onUnusable_(pos, e); return skipWhole(pos);
      case ElementType::GenericInst: {
        // GENERICINST (CLASS|VALUETYPE) token count argument*
        std::size_t p = pos + 2;
        if (p > bytes_.size()) return kNone;
        p = skipInteger(p);
        DecodedUInt count;
        if (p == kNone || decodeCompressedUInt(bytes_.subspan(p), count) != CompressedIntError::None) return kNone;
        p += count.length;
        for (std::uint32_t i = 0; i < count.value && p != kNone; ++i) p = scan(p, depth + 1);
        return p;
      }
      case ElementType::SzArray: return scan(pos + 1, depth + 1);
      case ElementType::Array: {
        // ARRAY element rank numSizes size* numLoBounds loBound*
        std::size_t p = scan(pos + 1, depth + 1);
        p = skipInteger(p);  // rank
        for (int list = 0; list < 2 && p != kNone; ++list) {
          DecodedUInt n;
          if (decodeCompressedUInt(bytes_.subspan(p), n) != CompressedIntError::None) return kNone;
          p += n.length;
          for (std::uint32_t i = 0; i < n.value && p != kNone; ++i) p = skipInteger(p);
        }
        return p;
      }
      default: return skipWhole(pos);
    }
  }

 private:
  // Signed and unsigned compressed integers have the same widths.
  std::size_t skipInteger(std::size_t pos) const {
    if (pos == kNone || pos > bytes_.size()) return kNone;
    DecodedUInt v;
    if (decodeCompressedUInt(bytes_.subspan(pos), v) != CompressedIntError::None) return kNone;
    return pos + v.length;
  }

  std::size_t skipWhole(std::size_t pos) const { return skipType(bytes_, pos) ? pos : kNone; }

  ByteSpan bytes_;
  OnUnusable& onUnusable_;
};

std::string typePath(std::uint32_t heapOffset, std::uint32_t k, ByteSpan item, std::size_t typeStart,
                     std::size_t target) {
  std::string path = heapPath(heapOffset);
  appendTypeIndexPath(k, path);
  path += typeFieldPath(item, typeStart, target);
  return path;
}

}  // namespace

bool checkItemTypes(ByteSpan map, const ItemHeader& h, std::uint32_t heapOffset, std::size_t& retryBudget,
                    DiagnosticSink& sink) {
  if (isQuietTypeList(map.subspan(h.start, h.end - h.start), h.typesStart - h.start, h.count.value)) return true;
  return checkItemTypesInFull(map, h, heapOffset, retryBudget, sink);
}

bool checkItemTypesInFull(ByteSpan map, const ItemHeader& h, std::uint32_t heapOffset, std::size_t& retryBudget,
                          DiagnosticSink& sink) {
  // The types are read from the item's bytes only: a type cannot borrow
  // bytes from whatever follows the item.
  const ByteSpan item = map.first(h.end);
  std::size_t pos = h.typesStart;
  for (std::uint32_t k = 0; k < h.count.value; ++k) {
    const std::size_t typeStart = pos;
    TypeDecodeNotes notes;
    const Status status = skipType(item, pos, &notes);
    if (!status) {
      // Would the type be well-formed with the bytes after the item? Then the
      // length prefix is what is wrong. The re-read is capped by a budget
      // for the whole map, so hostile overlapping items cannot make it
      // quadratic.
      if (h.end < map.size() && retryBudget > 0) {
        const std::size_t limit = h.end + std::min(retryBudget, map.size() - h.end);
        std::size_t probe = typeStart;
        const Status again = skipType(map.first(limit), probe);
        const std::size_t readTo = again ? probe : again.error().offset;
        retryBudget -= std::min(retryBudget, readTo > h.end ? readTo - h.end : 0);
        if (again) {
          sink.add(
              Severity::Error, rules::kItemLengthMismatch, h.start, [&] { return itemLengthPath(heapOffset); },
              [&] {
                return "the item's length is " + std::to_string(h.length.value) + " but type[" + std::to_string(k) +
                       "] runs " + std::to_string(probe - h.end) + " byte(s) past the item's end";
              });
          return false;
        }
      }
      const std::size_t at = status.error().offset;
      // The decoder's own rule when it names one (a specific type rule),
      // else the general one.
      const std::string_view rule =
          status.error().rule.empty() ? std::string_view(rules::kInvalidType) : std::string_view(status.error().rule);
      sink.add(
          Severity::Error, rule, at, [&] { return typePath(heapOffset, k, item, typeStart, at); },
          [&] { return status.error().message; });
      return false;
    }
    if (notes.nonMinimalIntegers > 0) {
      const std::size_t at = notes.firstNonMinimalOffset;
      sink.add(
          Severity::Warning, rules::kNonMinimalInteger, at,
          [&] { return typePath(heapOffset, k, item, typeStart, at); },
          [&] {
            return "type[" + std::to_string(k) + "] has " + std::to_string(notes.nonMinimalIntegers) +
                   " compressed integer(s) not in their shortest form (the first here)";
          });
    }
    auto onUnusable = [&](std::size_t at, std::uint8_t e) {
      sink.add(
          Severity::Warning, rules::kUnusableGenericArgument, at,
          [&] { return typePath(heapOffset, k, item, typeStart, at); },
          [&] {
            return std::string(unusableName(e)) + " cannot be a generic argument (in type[" + std::to_string(k) +
                   "]): the runtime cannot instantiate over it";
          });
    };
    ArgumentScanner<decltype(onUnusable)>(item, onUnusable).scan(typeStart, 0);
  }
  if (pos != h.end) {
    sink.add(
        Severity::Error, rules::kItemLengthMismatch, h.start, [&] { return itemLengthPath(heapOffset); },
        [&] {
          return "the item's length is " + std::to_string(h.length.value) + " but its " +
                 std::to_string(h.count.value) + " type(s) end " + std::to_string(h.end - pos) +
                 " byte(s) before the item's end (at heap offset " + shortHex(pos - (h.start - heapOffset)) + ")";
        });
    return false;
  }
  return true;
}

}  // namespace gdmap::detail
