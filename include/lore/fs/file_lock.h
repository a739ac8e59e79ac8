// FileLock: an flock(2) lock held for the lifetime of the object.
#pragma once

#include <chrono>
#include <string>

#include "lore/error.h"
#include "lore/fs/fd.h"

namespace lore::fs {

enum class LockMode { kShared, kExclusive };

// Takes an flock on an open descriptor, waiting at most `timeout`
// (a negative timeout waits forever). kBusy when the time runs out.
Status LockFd(int fd, LockMode mode, const std::string& path,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(-1));

class FileLock {
 public:
  // Opens (creating 0600 if needed) `path` and locks it.
  static Result<FileLock> Acquire(const std::string& path, LockMode mode,
                                  std::chrono::milliseconds timeout = std::chrono::milliseconds(-1));
  // Like Acquire but never waits: kBusy when another process holds it.
  static Result<FileLock> TryAcquire(const std::string& path, LockMode mode);

  FileLock(FileLock&&) noexcept = default;
  FileLock& operator=(FileLock&&) noexcept = default;

  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }

 private:
  FileLock(std::string path, Fd fd) : path_(std::move(path)), fd_(std::move(fd)) {}
  std::string path_;
  Fd fd_;  // closing the descriptor releases the lock
};

}  // namespace lore::fs
