#include "common/json_object.hpp"

#include <gdmap/schema/diagnostic.hpp>

#include <algorithm>

namespace gdmap::cli {
namespace {
constexpr std::size_t kFlushBytes = std::size_t{1} << 16;
}  // namespace

void JsonObject::key(std::string_view name) {
  buffer_ += anyField_ ? ",\n  " : "{\n  ";
  anyField_ = true;
  keys_.emplace_back(name);
  appendJsonString(name, buffer_);
  buffer_ += ": ";
}

bool JsonObject::has(std::string_view key) const { return std::ranges::find(keys_, key) != keys_.end(); }

void JsonObject::nullUnwritten(std::initializer_list<std::string_view> keys) {
  for (const std::string_view k : keys)
    if (!has(k)) null(k);
}

void JsonObject::string(std::string_view key, std::string_view value) {
  this->key(key);
  appendJsonString(value, buffer_);
  flushIfLarge();
}

void JsonObject::number(std::string_view key, std::uint64_t value) {
  this->key(key);
  buffer_ += std::to_string(value);
}

void JsonObject::boolean(std::string_view key, bool value) {
  this->key(key);
  buffer_ += value ? "true" : "false";
}

void JsonObject::null(std::string_view key) {
  this->key(key);
  buffer_ += "null";
}

void JsonObject::raw(std::string_view key, std::string_view json) {
  this->key(key);
  buffer_ += json;
  flushIfLarge();
}

void JsonObject::beginArray(std::string_view key) {
  this->key(key);
  buffer_ += '[';
  anyElement_ = false;
}

void JsonObject::arrayElement() {
  buffer_ += anyElement_ ? ",\n    " : "\n    ";
  anyElement_ = true;
}

void JsonObject::arrayString(std::string_view value) {
  arrayElement();
  appendJsonString(value, buffer_);
  flushIfLarge();
}

void JsonObject::arrayRaw(std::string_view json) {
  arrayElement();
  buffer_ += json;
  flushIfLarge();
}

void JsonObject::arrayNull() {
  arrayElement();
  buffer_ += "null";
  flushIfLarge();
}

void JsonObject::endArray() { buffer_ += anyElement_ ? "\n  ]" : "]"; }

void JsonObject::flushIfLarge() {
  if (buffer_.size() < kFlushBytes) return;
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

bool JsonObject::close() {
  buffer_ += anyField_ ? "\n}\n" : "{}\n";
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.flush();
  return static_cast<bool>(out_);
}

}  // namespace gdmap::cli
