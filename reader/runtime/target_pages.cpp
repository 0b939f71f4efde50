#include "target_pages.hpp"

#include <gdmap/schema/byte_cursor.hpp>

#include <algorithm>
#include <cstring>

namespace gdmap::runtime {

const TargetPages::Page* TargetPages::page(std::uint64_t pageAddress) const {
  if (const auto it = pages_.find(pageAddress); it != pages_.end()) return it->second.get();
  if (missing_.count(pageAddress)) return nullptr;
  if (pages_.size() >= kMaxPages) pages_.clear();
  if (missing_.size() >= kMaxPages) missing_.clear();
  auto p = std::make_unique<Page>();
  if (!target_->read(pageAddress, MutableByteSpan(p->data(), p->size()))) {
    missing_[pageAddress] = true;
    return nullptr;
  }
  const Page* raw = p.get();
  pages_.emplace(pageAddress, std::move(p));
  return raw;
}

Status TargetPages::read(std::uint64_t address, MutableByteSpan out, const std::string& what) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = address + done;
    if (at < address) break;  // wraps: the target's own read reports it
    const std::uint64_t base = at & ~(kPageSize - 1);
    const Page* p = page(base);
    if (!p) break;
    const std::size_t in = static_cast<std::size_t>(at - base);
    const std::size_t n = std::min(out.size() - done, static_cast<std::size_t>(kPageSize) - in);
    std::memcpy(out.data() + done, p->data() + in, n);
    done += n;
  }
  if (done == out.size()) return Success{};
  // The target's own answer for what is left: it names the first address
  // missing exactly (a page may be partly readable).
  if (Status s = target_->read(address + done, MutableByteSpan(out.data() + done, out.size() - done)); !s) {
    const Error& e = s.error();
    return Error(e.offset, what + ": " + e.message, e.rule);
  }
  return Success{};
}

std::size_t TargetPages::readSome(std::uint64_t address, MutableByteSpan out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t at = address + done;
    if (at < address) break;
    const std::uint64_t base = at & ~(kPageSize - 1);
    const Page* p = page(base);
    const std::size_t in = static_cast<std::size_t>(at - base);
    const std::size_t n = std::min(out.size() - done, static_cast<std::size_t>(kPageSize) - in);
    if (!p) {
      // A page only partly there: what the target gives from `at` on.
      if (!target_->read(at, MutableByteSpan(out.data() + done, n))) break;
    } else {
      std::memcpy(out.data() + done, p->data() + in, n);
    }
    done += n;
  }
  return done;
}

namespace {
template <typename T>
Expected<T> readInteger(const TargetPages& pages, std::uint64_t address, const std::string& what) {
  std::uint8_t bytes[sizeof(T)];
  if (Status s = pages.read(address, MutableByteSpan(bytes, sizeof bytes), what); !s) return s.error();
  ByteCursor in{ByteSpan(bytes, sizeof bytes)};
  return static_cast<T>(in.uint(sizeof(T)));
}
}  // namespace

Expected<std::uint64_t> TargetPages::u64(std::uint64_t address, const std::string& what) const {
  return readInteger<std::uint64_t>(*this, address, what);
}
Expected<std::uint32_t> TargetPages::u32(std::uint64_t address, const std::string& what) const {
  return readInteger<std::uint32_t>(*this, address, what);
}
Expected<std::uint16_t> TargetPages::u16(std::uint64_t address, const std::string& what) const {
  return readInteger<std::uint16_t>(*this, address, what);
}
Expected<std::uint8_t> TargetPages::u8(std::uint64_t address, const std::string& what) const {
  return readInteger<std::uint8_t>(*this, address, what);
}

}  // namespace gdmap::runtime
