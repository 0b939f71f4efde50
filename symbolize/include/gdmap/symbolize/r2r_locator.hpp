#pragma once
// A ReadyToRun image's code addresses (RVAs) to its methods and IL
// offsets: the runtime function holding an RVA, the method body owning that
// function (the body, a funclet or the cold part; every method sharing the
// body), the offset in the method's code as the bounds count it, and the
// IL offset the runtime reports for it (il_offset.hpp).
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/il_map.hpp>
#include <gdmap/symbolize/il_offset.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace gdmap::symbolize {

// Which part of its method a runtime function is.
enum class Part : std::uint8_t { Body, Funclet, Cold };

// "body", "funclet", "cold".
const char* partName(Part part);

struct Owner {
  std::size_t method = 0;  // index into image.methods: the first of the methods sharing the body
  Part part = Part::Body;
  std::uint32_t sharing = 0;  // how many methods after it share the body (image.methods[method + 1]...)
};

// Runtime function -> its method and part; functions no method claims
// (none in real images) have none. Of methods sharing one body, the first
// in the image's order owns it (R2RLocator::locate names the others).
std::vector<std::optional<Owner>> ownersOf(const r2r::R2RImage& image);

// The runtime function whose code holds `rva`, if any (the table is sorted
// and disjoint).
std::optional<std::size_t> functionAt(const r2r::R2RImage& image, std::uint32_t rva);

// The native offset the bounds use for `rva` in runtime function
// `function` of `method`: hot code is one block from the entry (the body,
// then its funclets); a cold part continues after the hot code's size.
std::uint32_t nativeOffsetOf(const r2r::R2RImage& image, const r2r::MethodBody& method, std::size_t function,
                             std::uint32_t rva);

// One RVA's answer.
struct Located {
  std::uint32_t rva = 0;
  const r2r::MethodBody* method = nullptr;      // null: in no method's code
  std::vector<const r2r::MethodBody*> sharing;  // other methods that start at the same runtime function
  Part part = Part::Body;
  std::uint32_t offset = 0;  // of the RVA in the method's code
  AddressKind kind = AddressKind::Exact;
  std::uint32_t lookup = 0;           // the offset looked up (lookupOffset(offset, kind))
  std::vector<il::ApiEntry> entries;  // the API entries covering `lookup`
  bool noBounds = false;              // the method has no bounds: no IL offset is known
  IlOffset il;                        // the runtime's IL offset for `lookup`
};

// Each method's sequence map, made the first time one of its addresses is
// asked for: a profile's many samples of one method cost one conversion.
class MethodMaps {
 public:
  explicit MethodMaps(const r2r::R2RImage& image);
  // Null for a method without (readable) bounds.
  const MethodIlMap* of(std::size_t method);

 private:
  const r2r::R2RImage* image_;
  std::vector<std::optional<MethodIlMap>> maps_;
  std::vector<bool> done_;
};

// The answers for one image (which must outlive it).
class R2RLocator {
 public:
  explicit R2RLocator(const r2r::R2RImage& image);

  Located locate(std::uint32_t rva, AddressKind kind = AddressKind::Exact);
  const r2r::R2RImage& image() const { return *image_; }
  const std::vector<std::optional<Owner>>& owners() const { return owners_; }

 private:
  const r2r::R2RImage* image_;
  std::vector<std::optional<Owner>> owners_;
  MethodMaps maps_;
};

}  // namespace gdmap::symbolize
