#include "lore/fs/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

namespace lore::fs {

Status LockFd(int fd, LockMode mode, const std::string& path, std::chrono::milliseconds timeout) {
  const int op = mode == LockMode::kShared ? LOCK_SH : LOCK_EX;
  if (timeout.count() < 0) {
    while (::flock(fd, op) != 0) {
      if (errno != EINTR) return tl::unexpected(ErrnoError(errno, "cannot lock", path));
    }
    return Ok();
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::microseconds(50);
  for (;;) {
    if (::flock(fd, op | LOCK_NB) == 0) return Ok();
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return tl::unexpected(ErrnoError(errno, "cannot lock", path));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return Fail(ErrorCode::kBusy, "timed out waiting for a lock", path, 0,
                  "another lore process holds it; retry when it has finished");
    }
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(5)) pause *= 2;
  }
}

Result<FileLock> FileLock::Acquire(const std::string& path, LockMode mode,
                                   std::chrono::milliseconds timeout) {
  LORE_ASSIGN(Fd fd, Open(path, O_RDWR | O_CREAT, 0600));
  LORE_TRY(LockFd(fd.get(), mode, path, timeout));
  return FileLock(path, std::move(fd));
}

Result<FileLock> FileLock::TryAcquire(const std::string& path, LockMode mode) {
  return Acquire(path, mode, std::chrono::milliseconds(0));
}

}  // namespace lore::fs
