#include "lore/store/store_lock.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

namespace lore::store {

Result<StoreLock> StoreLock::Acquire(const std::string& dir, fs::LockMode mode,
                                     std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    LORE_TRY(fs::RefuseSymlink(dir, "store directory"));
    LORE_ASSIGN(fs::Fd fd, fs::Open(dir, O_RDONLY | O_DIRECTORY));
    auto left = std::chrono::milliseconds(-1);
    if (timeout.count() >= 0) {
      left =
          std::max(std::chrono::milliseconds(0),
                   std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()));
    }
    LORE_TRY(fs::LockFd(fd.get(), mode, dir, left));
    struct stat held, now;
    if (::fstat(fd.get(), &held) != 0)
      return tl::unexpected(fs::ErrnoError(errno, "cannot stat", dir));
    if (::lstat(dir.c_str(), &now) == 0 && now.st_dev == held.st_dev && now.st_ino == held.st_ino) {
      return StoreLock(dir, std::move(fd));
    }
    // The directory was swapped (an import) while we waited: lock the new one.
    if (timeout.count() >= 0 && Clock::now() >= deadline) {
      return Fail(ErrorCode::kBusy, "timed out waiting for a lock", dir, 0,
                  "another lore process holds it; retry when it has finished");
    }
  }
}

}  // namespace lore::store
