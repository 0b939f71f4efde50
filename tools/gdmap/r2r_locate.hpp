#pragma once
// A ReadyToRun image's code addresses to its methods and IL offsets: what
// `il locate` answers for an image, and for the ReadyToRun images of a
// process (process_locate.cpp).
#include <gdmap/reader/bounds_decoder.hpp>
#include <gdmap/reader/r2r_image.hpp>
#include <gdmap/schema/bounds_to_api.hpp>
#include <gdmap/schema/il_map.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gdmap::cli {

// Which part of its method a runtime function is.
enum class Part { Body, Funclet, Cold };

struct Owner {
  std::size_t method = 0;  // index into image.methods: the first of the methods sharing the body
  Part part = Part::Body;
};

const char* partName(Part p);

// Runtime function -> its method and part; functions no method claims
// (none in real images) have none. Of methods sharing one body, the first
// in the image's order owns it (locate() names the others).
std::vector<std::optional<Owner>> ownersOf(const r2r::R2RImage& image);

// The runtime function whose code holds `rva`, if any (the table is sorted
// and disjoint).
std::optional<std::size_t> functionAt(const r2r::R2RImage& image, std::uint32_t rva);

// The native offset the bounds use for `rva`: hot code is one block from
// the entry (the body, then its funclets); a cold part continues after the
// hot code's size.
std::uint32_t nativeOffsetOf(const r2r::R2RImage& image, const r2r::MethodBody& m, std::size_t function,
                             std::uint32_t rva);

std::string ilText(std::uint32_t il);

// The body's instantiation as `--instantiation` takes it (`<int32>`,
// `async resumption`); empty for a method's plain body.
std::string instantiationOf(const r2r::MethodBody& m);

std::string stringArrayJson(const std::vector<std::string>& items);

struct Located {
  std::uint32_t rva = 0;
  std::string component;  // a composite image's component of the method
  const r2r::MethodBody* method = nullptr;
  std::vector<const r2r::MethodBody*> sharing;  // other methods that start at the same runtime function
  Part part = Part::Body;
  std::uint32_t offset = 0;
  std::vector<il::ApiEntry> entries;  // the API entries covering the offset
  bool noBounds = false;              // the method has no bounds: no IL offset is known
};

// Each method's API entries, made the first time one of its addresses is
// asked for: a profile's many samples of one method cost one conversion.
// Empty for a method without (readable) bounds.
class ApiTables {
 public:
  explicit ApiTables(const r2r::R2RImage& image) : image_(image), tables_(image.methods.size()) {}
  const std::optional<std::vector<il::ApiEntry>>& of(std::size_t method) {
    std::optional<std::vector<il::ApiEntry>>& table = tables_[method];
    if (!table && !done_[method]) {
      done_[method] = true;
      const r2r::MethodBody& m = image_.methods[method];
      const ByteSpan bounds = m.bounds.first(m.bounds.size() - m.boundsTrailing);
      if (!bounds.empty()) {
        if (const Expected<il::BoundsView> view = il::openBounds(bounds, image_.profile.bounds)) {
          table = il::boundsToApi(view->toVector(), m.codeSize);
        }
      }
    }
    return table;
  }

 private:
  const r2r::R2RImage& image_;
  std::vector<std::optional<std::vector<il::ApiEntry>>> tables_;
  std::vector<bool> done_ = std::vector<bool>(tables_.size());
};

Located locate(const r2r::R2RImage& image, const std::vector<std::optional<Owner>>& owners, ApiTables& tables,
               std::uint32_t rva);

}  // namespace gdmap::cli
