#include "lore/fs/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace lore::fs {
namespace {

using Clock = std::chrono::steady_clock;

// How often a lock whose path keeps changing under us is taken again.
constexpr int kMaxRounds = 64;

// flock(2) until `deadline` (nullopt: for as long as it takes).
Status LockUntil(int fd, LockMode mode, const std::string& path,
                 std::optional<Clock::time_point> deadline, std::string_view what) {
  const int op = mode == LockMode::kShared ? LOCK_SH : LOCK_EX;
  if (!deadline) {
    while (::flock(fd, op) != 0) {
      if (errno != EINTR) return tl::unexpected(ErrnoError(errno, "cannot lock", path));
    }
    return Ok();
  }
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    if (::flock(fd, op | LOCK_NB) == 0) return Ok();
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return tl::unexpected(ErrnoError(errno, "cannot lock", path));
    }
    const auto now = Clock::now();
    if (now >= *deadline) return tl::unexpected(BusyError(what, path));
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, *deadline - now));
    if (pause < std::chrono::milliseconds(5)) pause *= 2;
  }
}

std::optional<Clock::time_point> DeadlineOf(std::chrono::milliseconds timeout) {
  if (timeout.count() < 0) return std::nullopt;
  return Clock::now() + timeout;
}

Result<Fd> OpenTarget(const std::string& path, LockTarget target) {
  if (target == LockTarget::kFolder) return Open(path, O_RDONLY | O_DIRECTORY);
  return Open(path, O_RDWR | O_CREAT, 0600);
}

// True when `path` still names the file or folder open as `fd`.
Result<bool> StillThere(int fd, const std::string& path) {
  struct stat held, now;
  if (::fstat(fd, &held) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  return ::lstat(path.c_str(), &now) == 0 && now.st_dev == held.st_dev && now.st_ino == held.st_ino;
}

}  // namespace

Status LockFd(int fd, LockMode mode, const std::string& path, std::chrono::milliseconds timeout,
              std::string_view what) {
  return LockUntil(fd, mode, path, DeadlineOf(timeout), what);
}

void UnlockFd(int fd) { (void)::flock(fd, LOCK_UN); }

Result<FileLock> FileLock::Acquire(const std::string& path, const LockOptions& o) {
  const auto deadline = DeadlineOf(o.timeout);
  for (int round = 0; round < kMaxRounds; ++round) {
    LORE_ASSIGN(Fd fd, OpenTarget(path, o.target));
    LORE_TRY(LockUntil(fd.get(), o.mode, path, deadline, o.what));
    LORE_ASSIGN(bool there, StillThere(fd.get(), path));
    if (!there) continue;  // removed or exchanged while we waited: lock what is there now
    FileLock lock(path, std::move(fd), o.target);
    if (o.target == LockTarget::kOwnedFile) LORE_TRY(lock.TakeOver());
    return lock;
  }
  return Fail(ErrorCode::kIo, std::string(o.what) + " keeps changing under us", path, 0,
              "retry; if it persists, look for a process that removes or replaces this path");
}

Result<FileLock> FileLock::Acquire(const std::string& path, LockMode mode,
                                   std::chrono::milliseconds timeout) {
  return Acquire(path, LockOptions{mode, timeout, LockTarget::kFile});
}

Result<FileLock> FileLock::TryAcquire(const std::string& path, LockMode mode) {
  return Acquire(path, mode, std::chrono::milliseconds(0));
}

FileLock::FileLock(FileLock&& o) noexcept
    : path_(std::move(o.path_)),
      fd_(std::move(o.fd_)),
      target_(o.target_),
      left_body_(std::move(o.left_body_)) {}

FileLock& FileLock::operator=(FileLock&& o) noexcept {
  if (this != &o) {
    Release();
    path_ = std::move(o.path_);
    fd_ = std::move(o.fd_);
    target_ = o.target_;
    left_body_ = std::move(o.left_body_);
  }
  return *this;
}

// An owned file that is not empty was left by a holder that died (a holder
// that ends removes it): keep what it said, and start from an empty body.
Status FileLock::TakeOver() {
  struct stat st;
  if (::fstat(fd_.get(), &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path_));
  if (st.st_size == 0) return Ok();
  left_body_.resize(static_cast<size_t>(std::min<off_t>(st.st_size, off_t{1} << 20)));
  LORE_ASSIGN(size_t got, ReadAt(fd_.get(), left_body_.data(), left_body_.size(), 0, path_));
  left_body_.resize(got);
  if (::ftruncate(fd_.get(), 0) != 0)
    return tl::unexpected(ErrnoError(errno, "cannot truncate", path_));
  return Ok();
}

Status FileLock::Publish(std::string_view body) {
  if (::ftruncate(fd_.get(), 0) != 0)
    return tl::unexpected(ErrnoError(errno, "cannot truncate", path_));
  if (::lseek(fd_.get(), 0, SEEK_SET) != 0)
    return tl::unexpected(ErrnoError(errno, "cannot seek", path_));
  LORE_TRY(WriteAll(fd_.get(), body, path_));
  if (::fdatasync(fd_.get()) != 0) return tl::unexpected(ErrnoError(errno, "cannot sync", path_));
  return Ok();
}

void FileLock::Release() {
  if (!fd_.valid()) return;
  if (target_ == LockTarget::kOwnedFile) {
    auto there = StillThere(fd_.get(), path_);
    if (there && *there) ::unlink(path_.c_str());
  }
  fd_.Reset();  // drops the flock
}

Result<std::optional<LockFileView>> PeekLockFile(const std::string& path) {
  auto fd = Open(path, O_RDONLY);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return std::optional<LockFileView>();
    return tl::unexpected(fd.error());
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "a lock that is not a regular file", path, 0,
                "move it away: lore makes its locks itself");
  }
  LockFileView v;
  v.mtime = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec) +
                                                  std::chrono::nanoseconds(st.st_mtim.tv_nsec));
  v.body.resize(static_cast<size_t>(std::min<off_t>(st.st_size, off_t{1} << 20)));
  LORE_ASSIGN(size_t got, ReadAt(fd->get(), v.body.data(), v.body.size(), 0, path));
  v.body.resize(got);
  return std::optional<LockFileView>(std::move(v));
}

}  // namespace lore::fs
