#include "common/json_object.hpp"

#include <algorithm>

namespace gdmap::cli {
namespace {
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;
}  // namespace

void JsonObject::key(std::string_view name) {
  keys_.emplace_back(name);
  writer_.stringKey(name);
}

bool JsonObject::has(std::string_view key) const { return std::ranges::find(keys_, key) != keys_.end(); }

void JsonObject::nullUnwritten(std::initializer_list<std::string_view> keys) {
  for (const std::string_view k : keys)
    if (!has(k)) null(k);
}

void JsonObject::string(std::string_view key, std::string_view value) {
  this->key(key);
  writer_.string(value);
  flushIfLarge();
}

void JsonObject::number(std::string_view key, std::uint64_t value) {
  this->key(key);
  writer_.number(value);
}

void JsonObject::boolean(std::string_view key, bool value) {
  this->key(key);
  writer_.boolean(value);
}

void JsonObject::null(std::string_view key) {
  this->key(key);
  writer_.null();
}

void JsonObject::raw(std::string_view key, std::string_view json) {
  this->key(key);
  writer_.raw(json);
  flushIfLarge();
}

JsonWriter& JsonObject::value(std::string_view key) {
  flushIfLarge();
  this->key(key);
  return writer_;
}

JsonWriter& JsonObject::element() {
  flushIfLarge();
  return writer_;
}

void JsonObject::beginArray(std::string_view key) {
  this->key(key);
  writer_.beginArray();
}

void JsonObject::arrayString(std::string_view value) {
  writer_.string(value);
  flushIfLarge();
}

void JsonObject::arrayRaw(std::string_view json) {
  writer_.raw(json);
  flushIfLarge();
}

void JsonObject::arrayNull() {
  writer_.null();
  flushIfLarge();
}

void JsonObject::endArray() { writer_.endArray(); }

void JsonObject::flushIfLarge() {
  if (buffer_.size() < kFlushBytes) return;
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

bool JsonObject::close() {
  writer_.endObject();
  buffer_ += '\n';
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.flush();
  return static_cast<bool>(out_);
}

}  // namespace gdmap::cli
