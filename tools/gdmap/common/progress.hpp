#pragma once
// "gdmap: building desc.json (512 MiB)... 42% 3s" on stderr while a long step
// runs, rewritten in place and erased when the step ends: only when stderr
// is a terminal, and only once the step has taken a second. Nothing is
// printed otherwise, so scripts and tests see the same stderr as before.
// The step is not slowed: a second thread only sleeps and prints.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace gdmap::cli {

class Progress {
 public:
  // `what`: "building desc.json"; `bytes`: the input's size, shown after it.
  Progress(std::string what, std::size_t bytes);
  ~Progress();  // stops and erases the line
  // How many of the `bytes` are done: the line then shows a percentage.
  // Cheap enough to call from the step itself (an atomic store).
  void advance(std::size_t done) { done_bytes_.store(done, std::memory_order_relaxed); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  using Clock = std::chrono::steady_clock;
  void show(Clock::time_point start);  // with mutex_ held, or before the thread starts
  void run(std::chrono::milliseconds wait);

  std::string label_;
  std::size_t total_ = 0;
  std::atomic<std::size_t> done_bytes_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool done_ = false;
  bool shown_ = false;
  std::thread thread_;
};

}  // namespace gdmap::cli
