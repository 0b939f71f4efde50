#include "output_temporary.hpp"

#include <gdmap/schema/rules.hpp>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <utility>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

namespace gdmap {
namespace {

constexpr std::array<int, 4> kSignals = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// What the handler knows: the named temporary to remove (none while it is
// unnamed). A fixed buffer: a handler may not allocate.
char temporaryName[4096];
volatile std::sig_atomic_t temporaryNamed = 0;

extern "C" void removeTemporaryAndEnd(int signo) {
  if (temporaryNamed) ::unlink(temporaryName);
  ::signal(signo, SIG_DFL);
  // Pending until this handler returns; then the default action ends the
  // process as the signal would have.
  ::raise(signo);
}

// The handlers, installed while a temporary exists, for the signals that
// would end the process: one a shell or `nohup` made ignored stays so.
class InterruptHandlers {
 public:
  void install() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      struct sigaction current {};
      installed_[i] = false;
      if (::sigaction(kSignals[i], nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = removeTemporaryAndEnd;
      ::sigemptyset(&action.sa_mask);
      for (const int s : kSignals) ::sigaddset(&action.sa_mask, s);
      installed_[i] = ::sigaction(kSignals[i], &action, &previous_[i]) == 0;
    }
  }
  void remove() {
    for (std::size_t i = 0; i < kSignals.size(); ++i) {
      if (installed_[i]) ::sigaction(kSignals[i], &previous_[i], nullptr);
      installed_[i] = false;
    }
  }

 private:
  std::array<struct sigaction, kSignals.size()> previous_{};
  std::array<bool, kSignals.size()> installed_{};
};

InterruptHandlers handlers;

sigset_t interruptSet() {
  sigset_t set;
  ::sigemptyset(&set);
  for (const int s : kSignals) ::sigaddset(&set, s);
  return set;
}

// Holds the interrupts for its lifetime; pending ones act when it ends.
class InterruptsHeld {
 public:
  InterruptsHeld() {
    const sigset_t set = interruptSet();
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~InterruptsHeld() {
    if (!kept_) ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  // They stay held after it (until the process ends).
  void keep() { kept_ = true; }
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t previous_{};
  bool kept_ = false;
};

bool interruptPending() {
  sigset_t pending;
  if (::sigpending(&pending) != 0) return false;
  for (const int s : kSignals)
    if (::sigismember(&pending, s) == 1) return true;
  return false;
}

// Takes the interrupts that came while held, so that they do not act.
void dropPendingInterrupts() {
  const sigset_t set = interruptSet();
  const struct timespec now {};
  while (::sigtimedwait(&set, nullptr, &now) > 0) {}
}

Error outputError(const std::string& name, const std::string& what, int error) {
  return Error{0, name + ": " + what + ": " + std::strerror(error), rules::kOutputUnwritable};
}

void rememberName(const std::string& path) {
  const std::size_t n = std::min(path.size(), sizeof temporaryName - 1);
  std::memcpy(temporaryName, path.data(), n);
  temporaryName[n] = '\0';
  temporaryNamed = n == path.size() ? 1 : 0;
}

}  // namespace

OutputTemporary::OutputTemporary(int fd, std::string directory, std::string path, std::string name)
    : fd_(fd), directory_(std::move(directory)), path_(std::move(path)), name_(std::move(name)) {}

OutputTemporary::OutputTemporary(OutputTemporary&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      directory_(std::move(other.directory_)),
      path_(std::move(other.path_)),
      name_(std::move(other.name_)) {}

OutputTemporary::~OutputTemporary() { discard(); }

Expected<OutputTemporary> OutputTemporary::create(const std::string& directory, const std::string& name) {
  const InterruptsHeld held;  // no interrupt between the file's creation and its handler
  // Unnamed first: nothing to leave behind whatever ends the process.
  int fd = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0) {
    handlers.install();
    return OutputTemporary(fd, directory, "", name);
  }
  // A file system without O_TMPFILE (EOPNOTSUPP, EISDIR on old kernels): a
  // named one, which the handlers remove.
  std::string path = directory + "/.gdmap-XXXXXX";
  fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd < 0) return outputError(name, "cannot create a file in " + directory, errno);
  rememberName(path);
  handlers.install();
  return OutputTemporary(fd, directory, std::move(path), name);
}

void OutputTemporary::discard() {
  if (fd_ < 0) return;
  const InterruptsHeld held;
  ::close(fd_);
  fd_ = -1;
  if (!path_.empty()) ::unlink(path_.c_str());
  temporaryNamed = 0;
  handlers.remove();
}

Status OutputTemporary::commit(const std::string& target, bool lastStep) {
  InterruptsHeld held;
  // An interrupt that came during the write is obeyed now, before the
  // target changes: discard() restores the default action and the signal
  // ends the process when `held` ends.
  if (interruptPending()) {
    discard();
    return Error{0, name_ + ": interrupted", rules::kOutputUnwritable};
  }
  if (path_.empty()) {
    // The unnamed file gets a name beside the target (a kill between here
    // and the rename is the one moment a file could stay behind).
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    for (unsigned attempt = 0; path_.empty(); ++attempt) {
      std::string candidate = directory_ + "/.gdmap-" + std::to_string(::getpid()) + "-" + std::to_string(attempt);
      if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, candidate.c_str(), AT_SYMLINK_FOLLOW) == 0) {
        path_ = std::move(candidate);
      } else if (errno != EEXIST || attempt == 1000) {
        const int error = errno;
        discard();
        return outputError(name_, "cannot name the output in " + directory_, error);
      }
    }
  }
  const bool closed = ::close(fd_) == 0;
  const int closeError = errno;
  fd_ = -1;
  if (!closed || ::rename(path_.c_str(), target.c_str()) != 0) {
    const int error = closed ? errno : closeError;
    ::unlink(path_.c_str());
    temporaryNamed = 0;
    handlers.remove();
    return outputError(name_, closed ? "cannot replace" : "cannot close", error);
  }
  // Done: an interrupt from here on finds the output in place.
  temporaryNamed = 0;
  handlers.remove();
  dropPendingInterrupts();
  if (lastStep) held.keep();
  return Success{};
}

}  // namespace gdmap
