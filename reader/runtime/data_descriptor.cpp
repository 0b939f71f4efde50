// The descriptor's JSON is small (10-20 KB) and its meaning depends on the
// shape of each value (a one-element array is indirect, a two-element one
// "value and type"), so it is parsed into a small tree first, by the
// project's plain JSON parser, then read by its shape. The tree is built
// with a stack, never recursion; it is read at fixed depths only.
#include <gdmap/reader/data_descriptor.hpp>

#include <gdmap/internal/plain_json_sax.hpp>
#include <gdmap/schema/hex.hpp>
#include <gdmap/schema/rules.hpp>

#include <charconv>
#include <memory>
#include <vector>

namespace gdmap::runtime {
namespace {

struct Node {
  enum class Kind : std::uint8_t { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool negative = false;  // a negative or fractional number: never a valid value here
  std::uint64_t number = 0;
  std::string text;                                                    // String; Object/Array: unused
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> members;  // Object: key, value; Array: "", value
  std::size_t at = 0;                                                  // byte offset of the value's end in the JSON
};

// Builds the tree from the parser's events.
class TreeBuilder {
 public:
  explicit TreeBuilder(const char*& readTo, const char* begin) : readTo_(readTo), begin_(begin) {}
  static constexpr std::size_t kMaxDepth = 16;
  std::unique_ptr<Node> root;
  bool tooDeep = false;

  bool null() { return add(std::make_unique<Node>()); }
  bool boolean(bool) {
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::Bool;
    return add(std::move(n));
  }
  bool number_integer(std::int64_t v) {
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::Number;
    n->negative = v < 0;
    n->number = static_cast<std::uint64_t>(v);
    return add(std::move(n));
  }
  bool number_unsigned(std::uint64_t v) {
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::Number;
    n->number = v;
    return add(std::move(n));
  }
  bool number_float(double, const std::string&) {
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::Number;
    n->negative = true;  // not an integer: refused where a number is read
    return add(std::move(n));
  }
  bool string(std::string_view v) {
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::String;
    n->text = std::string(v);
    return add(std::move(n));
  }
  bool key(std::string_view k) {
    key_ = std::string(k);
    return true;
  }
  bool start_object(std::size_t) { return open(Node::Kind::Object); }
  bool start_array(std::size_t) { return open(Node::Kind::Array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

 private:
  bool add(std::unique_ptr<Node> n) {
    n->at = static_cast<std::size_t>(readTo_ - begin_);
    if (open_.empty()) {
      root = std::move(n);
      return true;
    }
    open_.back()->members.emplace_back(std::move(key_), std::move(n));
    key_.clear();
    return true;
  }
  bool open(Node::Kind kind) {
    // The descriptor is 4 levels deep; a deeper text is refused before it
    // costs a stack frame anywhere (the tree's destruction recurses).
    if (open_.size() >= kMaxDepth) {
      tooDeep = true;
      return false;
    }
    auto n = std::make_unique<Node>();
    n->kind = kind;
    Node* raw = n.get();
    add(std::move(n));
    open_.push_back(raw);
    return true;
  }
  bool close() {
    open_.back()->at = static_cast<std::size_t>(readTo_ - begin_);
    open_.pop_back();
    return true;
  }
  const char*& readTo_;
  const char* begin_;
  std::vector<Node*> open_;
  std::string key_;
};

Error invalid(std::size_t at, const std::string& path, const std::string& message) {
  return Error(at, "contract descriptor JSON, byte " + std::to_string(at) + " (" + path + "): " + message,
               rules::kRuntimeDescriptorInvalid);
}

// A number as the descriptor writes it: a JSON integer or a string holding
// a decimal or 0x-hex integer.
std::optional<std::uint64_t> numberOf(const Node& n) {
  if (n.kind == Node::Kind::Number) {
    if (n.negative) return std::nullopt;
    return n.number;
  }
  if (n.kind != Node::Kind::String || n.text.empty()) return std::nullopt;
  std::string_view s = n.text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

Status readTypes(const Node& types, DataDescriptor& out) {
  if (types.kind != Node::Kind::Object) return invalid(types.at, "/types", "not an object");
  for (const auto& [name, value] : types.members) {
    const std::string path = "/types/" + name;
    if (value->kind != Node::Kind::Object) return invalid(value->at, path, "a type is an object of fields");
    TypeLayout layout;
    for (const auto& [field, v] : value->members) {
      // A field is an offset, or [offset, "type"].
      const Node* offset = v.get();
      if (v->kind == Node::Kind::Array && !v->members.empty() && v->members.size() <= 2) {
        offset = v->members[0].second.get();
      }
      const std::optional<std::uint64_t> n = numberOf(*offset);
      if (!n || *n > 0xFFFFFFFFu) {
        std::string where = path;
        where += '/';
        where += field;
        return invalid(v->at, where, "an offset is a number below 2^32, or [offset, \"type\"]");
      }
      if (field == "!") {
        layout.size = static_cast<std::uint32_t>(*n);
      } else {
        layout.fields[field] = static_cast<std::uint32_t>(*n);
      }
    }
    out.types[name] = std::move(layout);
  }
  return Success{};
}

Status readGlobals(const Node& globals, const ContractDescriptor& descriptor, DataDescriptor& out) {
  if (globals.kind != Node::Kind::Object) return invalid(globals.at, "/globals", "not an object");
  for (const auto& [name, value] : globals.members) {
    const std::string path = "/globals/" + name;
    GlobalValue g;
    const Node* v = value.get();
    bool indirect = false;
    if (v->kind == Node::Kind::Array) {
      // [VALUE, "type"], [[INDEX], "type"] or [INDEX]: a one-element array
      // is always indirect.
      if (v->members.empty() || v->members.size() > 2) {
        return invalid(v->at, path, "a global is VALUE, [VALUE, \"type\"], [INDEX] or [[INDEX], \"type\"]");
      }
      if (v->members.size() == 2) {
        const Node& type = *v->members[1].second;
        if (type.kind != Node::Kind::String) return invalid(type.at, path + "/1", "a global's type is a string");
        g.type = type.text;
        v = v->members[0].second.get();
        if (v->kind == Node::Kind::Array) {
          if (v->members.size() != 1) return invalid(v->at, path + "/0", "an indirect value is [INDEX]");
          v = v->members[0].second.get();
          indirect = true;
        }
      } else {
        v = v->members[0].second.get();
        indirect = true;
      }
    }
    if (indirect) {
      const std::optional<std::uint64_t> index = numberOf(*v);
      if (!index || *index >= descriptor.pointerData.size()) {
        return invalid(v->at, path,
                       "an indirect global names pointer-data slot " + (index ? std::to_string(*index) : "?") + " of " +
                           std::to_string(descriptor.pointerData.size()));
      }
      g.number = descriptor.pointerData[static_cast<std::size_t>(*index)];
    } else if (g.type == "string") {
      if (v->kind != Node::Kind::String) return invalid(v->at, path, "a string global's value is a string");
      g.text = v->text;
    } else {
      g.number = numberOf(*v);
      if (!g.number) {
        if (v->kind != Node::Kind::String) return invalid(v->at, path, "a global's value is a number or a string");
        g.text = v->text;  // an untyped string that is not a number: kept as text
      }
    }
    out.globals[name] = std::move(g);
  }
  return Success{};
}

Status readContracts(const Node& contracts, DataDescriptor& out) {
  if (contracts.kind != Node::Kind::Object) return invalid(contracts.at, "/contracts", "not an object");
  for (const auto& [name, value] : contracts.members) {
    if (value->kind == Node::Kind::String) {
      out.contracts[name] = value->text;
    } else if (value->kind == Node::Kind::Number && !value->negative) {
      out.contracts[name] = std::to_string(value->number);
    } else {
      return invalid(value->at, "/contracts/" + name, "a contract's version is an integer or a string");
    }
  }
  return Success{};
}

}  // namespace

Expected<DataDescriptor> readDataDescriptor(const ContractDescriptor& descriptor) {
  const std::string_view text = descriptor.json;
  if (!internal::isPlainJson(text)) {
    return invalid(0, "", "not plain JSON (a byte outside printable ASCII, or an escape)");
  }
  const char* readTo = text.data();
  TreeBuilder builder(readTo, text.data());
  if (!internal::PlainJsonParser<TreeBuilder>(text, builder, readTo).parse() || !builder.root) {
    const auto at = static_cast<std::size_t>(readTo - text.data());
    return invalid(at, "", builder.tooDeep ? "nested deeper than 16 levels" : "not valid JSON");
  }
  const Node& root = *builder.root;
  if (root.kind != Node::Kind::Object) return invalid(root.at, "", "not an object");
  DataDescriptor out;
  const Node* types = nullptr;
  const Node* globals = nullptr;
  const Node* contracts = nullptr;
  for (const auto& [key, value] : root.members) {
    if (key == "version") {
      const std::optional<std::uint64_t> v = numberOf(*value);
      if (!v) return invalid(value->at, "/version", "not an integer");
      out.formatVersion = *v;
    } else if (key == "types") {
      types = value.get();
    } else if (key == "globals") {
      globals = value.get();
    } else if (key == "contracts") {
      contracts = value.get();
    }
  }
  if (!types || !globals || !contracts) {
    return invalid(root.at, "", "a descriptor has \"types\", \"globals\" and \"contracts\"");
  }
  if (Status s = readTypes(*types, out); !s) return s.error();
  if (Status s = readGlobals(*globals, descriptor, out); !s) return s.error();
  if (Status s = readContracts(*contracts, out); !s) return s.error();
  return out;
}

Expected<std::uint32_t> DataDescriptor::offset(std::string_view type, std::string_view field) const {
  const auto t = types.find(type);
  if (t != types.end()) {
    const auto f = t->second.fields.find(field);
    if (f != t->second.fields.end()) return f->second;
  }
  return Error(0,
               "the runtime's contract descriptor has no " + std::string(type) + "." + std::string(field) +
                   ", which gdmap needs to read it",
               rules::kRuntimeDescriptorInvalid);
}

bool DataDescriptor::hasField(std::string_view type, std::string_view field) const {
  const auto t = types.find(type);
  return t != types.end() && t->second.fields.find(field) != t->second.fields.end();
}

Expected<std::uint32_t> DataDescriptor::size(std::string_view type) const {
  const auto t = types.find(type);
  if (t != types.end() && t->second.size) return *t->second.size;
  return Error(0, "the runtime's contract descriptor gives no size of " + std::string(type) + ", which gdmap needs",
               rules::kRuntimeDescriptorInvalid);
}

Expected<std::uint64_t> DataDescriptor::global(std::string_view name) const {
  const auto g = globals.find(name);
  if (g != globals.end() && g->second.number) return *g->second.number;
  return Error(0,
               "the runtime's contract descriptor has no numeric global " + std::string(name) + ", which gdmap needs",
               rules::kRuntimeDescriptorInvalid);
}

std::optional<std::string> DataDescriptor::contract(std::string_view name) const {
  const auto c = contracts.find(name);
  if (c == contracts.end()) return std::nullopt;
  return c->second;
}

}  // namespace gdmap::runtime
