#pragma once
// The one JSON object a `--json` run prints on stdout, written as it goes
// (so a streamed array of a million results costs no more memory than a
// buffer) by the one JsonWriter: two-space indentation, one field per
// line, keys in the order they are written. Strings go through
// gdmap::appendJsonString, so any input bytes give valid JSON.
#include <gdmap/description/json_writer.hpp>

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gdmap::cli {

class JsonObject {
 public:
  explicit JsonObject(std::ostream& out) : out_(out) { writer_.beginObject(); }

  void string(std::string_view key, std::string_view value);
  void number(std::string_view key, std::uint64_t value);
  void boolean(std::string_view key, bool value);
  void null(std::string_view key);
  // `json` is a value already formatted as JSON (nested lines indented for
  // a field of this object).
  void raw(std::string_view key, std::string_view json);

  // An array of strings written one element at a time.
  void beginArray(std::string_view key);
  void arrayString(std::string_view value);
  void arrayNull();
  // An element already formatted as JSON (an object on one line): arrays of
  // millions of objects are streamed, never held whole.
  void arrayRaw(std::string_view json);
  void endArray();

  // The writer, for one value: of the field `key` (written here), or the
  // next element of the open array. Nested containers it opens are laid
  // out by their level (an array of Layout::Lines here: four spaces).
  JsonWriter& value(std::string_view key);
  JsonWriter& element();

  // Whether a field `key` has been written (Report fills in the fields of
  // the common envelope, docs/json.md, that a command did not write).
  bool has(std::string_view key) const;

  // Writes null for each of `keys` not written yet: a verdict's fields are
  // there whatever the outcome (docs/json.md), null when not reached.
  void nullUnwritten(std::initializer_list<std::string_view> keys);

  // Closes the object and flushes; false when stdout could not be written.
  bool close();

 private:
  void key(std::string_view name);
  void flushIfLarge();

  std::ostream& out_;
  std::string buffer_;
  JsonWriter writer_{buffer_};
  std::vector<std::string> keys_;  // a few per object: arrays hold the bulk
};

}  // namespace gdmap::cli
