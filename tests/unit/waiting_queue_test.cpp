// The queue behind the builders' prefetched lookups
// (gdmap/internal/waiting_queue.hpp).
#include <gdmap/internal/waiting_queue.hpp>

#include <doctest/doctest.h>

#include <cstddef>
#include <span>
#include <string>

TEST_CASE("WaitingQueue: first in, first out, each record with its bytes, across the batched drops") {
  gdmap::detail::WaitingQueue<std::size_t, char> queue;
  std::size_t next = 0;    // the next record to push
  std::size_t oldest = 0;  // the record the queue must give next
  const auto textOf = [](std::size_t n) {
    std::string text(1, 'r');  // not "r" + ...: g++ 12 warns falsely (-Wrestrict) at -O2
    text += std::to_string(n);
    text.append(n % 7, '.');
    return text;
  };
  // Up to 9 waiting, as the builders keep them, for well past kDropEvery.
  for (int step = 0; step < 5000; ++step) {
    const std::string text = textOf(next);
    const std::size_t half = text.size() / 2;
    queue.push(next, std::span<const char>(text.data(), half),
               std::span<const char>(text.data() + half, text.size() - half));
    ++next;
    if (queue.size() > 8 || step % 97 == 0) {
      while (!queue.empty() && (queue.size() > 8 || step % 97 == 0)) {
        REQUIRE(queue.at(0) == oldest);
        const std::span<const char> bytes = queue.bytesAt(0);
        CHECK(std::string(bytes.begin(), bytes.end()) == textOf(oldest));
        if (queue.size() > 1) CHECK(queue.at(1) == oldest + 1);
        queue.pop();
        ++oldest;
      }
    }
  }
  CHECK(oldest + queue.size() == next);
}
