#include "common/progress.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string_view>

#include <unistd.h>

namespace gdmap::cli {
namespace {

// How long a step runs before it is shown: a second, or what
// GDMAP_PROGRESS_DELAY_MS says (tests set 0 to see it at once).
std::chrono::milliseconds delay() {
  if (const char* ms = std::getenv("GDMAP_PROGRESS_DELAY_MS"); ms != nullptr && *ms != '\0') {
    char* end = nullptr;
    const long value = std::strtol(ms, &end, 10);
    if (*end == '\0' && value >= 0) return std::chrono::milliseconds(value);
  }
  return std::chrono::seconds(1);
}

std::string sizeText(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024;
  if (bytes >= kKiB * kKiB) return std::to_string(bytes / (kKiB * kKiB)) + " MiB";
  if (bytes >= kKiB) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + " bytes";
}

void writeStderr(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n <= 0) return;  // a terminal that went away: nothing to do
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

Progress::Progress(std::string what, std::size_t bytes)
    : label_("gdmap: " + std::move(what) + " (" + sizeText(bytes) + ")..."), total_(bytes) {
  if (::isatty(STDERR_FILENO) != 1) return;
  // A file name must not drive the terminal.
  for (char& c : label_)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  const std::chrono::milliseconds wait = delay();
  // No delay: the line is shown before the step starts, however short it is.
  if (wait.count() == 0) show(Clock::now());
  thread_ = std::thread([this, wait] { run(wait); });
}

Progress::~Progress() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Progress::show(Clock::time_point start) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start).count();
  // \r and erase-to-end: the line is rewritten in place.
  std::string line = "\r\033[K" + label_ + ' ';
  if (const std::size_t done = done_bytes_.load(std::memory_order_relaxed); done != 0 && total_ != 0)
    line += std::to_string(std::min<std::size_t>(done, total_) * 100 / total_) + "% ";
  line += std::to_string(seconds) + 's';
  writeStderr(line);
  shown_ = true;
}

void Progress::run(std::chrono::milliseconds wait) {
  const Clock::time_point start = Clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  const auto stopped = [this] { return done_; };
  if (!shown_ && wake_.wait_for(lock, wait, stopped)) return;
  do {
    show(start);
  } while (!wake_.wait_for(lock, std::chrono::milliseconds(250), stopped));
  writeStderr("\r\033[K");  // the diagnostics that follow start on a clean line
}

}  // namespace gdmap::cli
