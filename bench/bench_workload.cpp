#include "bench_workload.hpp"

#include <random>
#include <string>

namespace gdmap::bench {
namespace {

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}
  std::uint64_t below(std::uint64_t n) { return rng_() % n; }

  Type type(unsigned depth) {
    static constexpr ElementType kPrimitives[] = {ElementType::I4,      ElementType::String, ElementType::Object,
                                                  ElementType::Boolean, ElementType::I8,     ElementType::R8,
                                                  ElementType::U1,      ElementType::I};
    const std::uint64_t pick = depth == 0 ? below(3) : below(7);
    switch (pick) {
      case 0: return Type::primitive(kPrimitives[below(std::size(kPrimitives))]);
      case 1: return Type::classType(token());
      case 2: return Type::valueType(token());
      case 3: return Type::szArray(type(depth - 1));
      case 4: return Type::typeVariable(static_cast<std::uint32_t>(below(4)));
      default: {
        std::vector<Type> args;
        for (std::uint64_t i = 0, n = 1 + below(3); i < n; ++i) args.push_back(type(depth - 1));
        return Type::genericInstance(below(4) == 0, Token{0x01000000u | static_cast<std::uint32_t>(1 + below(5000))},
                                     std::move(args));
      }
    }
  }

 private:
  Token token() {
    const std::uint32_t table = below(2) == 0 ? 0x01000000u : 0x02000000u;
    return Token{table | static_cast<std::uint32_t>(1 + below(20000))};
  }
  std::mt19937_64 rng_;
};

}  // namespace

MapDescription makeWorkload(std::size_t dictionaries, std::size_t instantiations, std::uint64_t seed) {
  Generator g(seed);
  MapDescription d;
  if (instantiations == 0) instantiations = 1;
  d.instantiations.reserve(instantiations);
  for (std::size_t j = 0; j < instantiations; ++j) {
    InstantiationDescription inst;
    inst.name = "inst" + std::to_string(j);
    for (std::uint64_t k = 0, n = 1 + g.below(3); k < n; ++k) inst.types.push_back(g.type(3));
    d.instantiations.push_back(std::move(inst));
  }
  // Distinct RVAs (one per 64-byte slot), shuffled; instantiations skewed
  // towards low indices, as a few generic types dominate real programs.
  d.dictionaries.resize(dictionaries);
  for (std::size_t i = 0; i < dictionaries; ++i) {
    d.dictionaries[i].rva = static_cast<std::uint32_t>(0x1000 + i * 64 + g.below(64));
    d.dictionaries[i].instantiation =
        static_cast<std::size_t>(g.below(instantiations) * g.below(instantiations) / instantiations);
  }
  for (std::size_t i = dictionaries; i > 1; --i) std::swap(d.dictionaries[i - 1], d.dictionaries[g.below(i)]);
  return d;
}

}  // namespace gdmap::bench
