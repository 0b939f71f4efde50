#include <gdmap/internal/sax_reader.hpp>

#include <gdmap/description/json_syntax.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iterator>

namespace gdmap {
namespace {

// The pieces as one input range for nlohmann's parser, which reads it a
// character at a time: a piece is asked for only when the one before it
// has been read to its end.
class Pieces {
 public:
  explicit Pieces(const std::function<std::string_view()>& next) : next_(next) {}

  // False at the end of the text.
  bool more() {
    while (at_ == end_ && !ended_) {
      const std::string_view piece = next_();
      if (piece.empty()) {
        ended_ = true;
      } else {
        at_ = piece.data();
        end_ = at_ + piece.size();
      }
    }
    return at_ != end_;
  }
  const char& current() const { return *at_; }
  void advance() { ++at_; }

 private:
  const std::function<std::string_view()>& next_;
  const char* at_ = nullptr;
  const char* end_ = nullptr;
  bool ended_ = false;
};

class PieceIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  PieceIterator() = default;  // the end
  explicit PieceIterator(Pieces& pieces) : pieces_(&pieces) {}
  reference operator*() const { return pieces_->current(); }
  PieceIterator& operator++() {
    pieces_->advance();
    return *this;
  }
  PieceIterator operator++(int) {
    PieceIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const PieceIterator& a, const PieceIterator& b) { return a.atEnd() == b.atEnd(); }

 private:
  bool atEnd() const { return pieces_ == nullptr || !pieces_->more(); }
  Pieces* pieces_ = nullptr;
};

}  // namespace

bool checkJsonSyntax(const std::function<std::string_view()>& next) {
  Pieces pieces(next);
  description::SyntaxErrorCatcher catcher;
  return nlohmann::json::sax_parse(PieceIterator(pieces), PieceIterator(), &catcher,
                                   nlohmann::json::input_format_t::json, true, description::kIgnoreComments);
}

}  // namespace gdmap
