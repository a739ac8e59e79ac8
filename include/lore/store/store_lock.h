// The store lock: one exclusive or shared flock(2) on the store directory
// itself (fs::FileLock on a kFolder), taken by everything that writes the
// store's truth or must see it stand still: record writes and edits
// (memory/records.h), the commit of a consolidation (consolidate/journal.h),
// the learnings lifecycle (learnings/update.h), the proposals write lock
// (proposals/write_lock.h), import (which swaps the whole directory) and
// export (a consistent snapshot). See docs/records.md.
//
// The lock is on the directory's inode. An import exchanges the directory for
// a new one, so a waiter that wakes up holding the old inode's lock would
// guard a store that is no longer in place: Acquire checks, once locked, that
// the path still names the locked directory, and otherwise starts over on the
// new one.
#pragma once

#include <chrono>
#include <string>

#include "lore/error.h"
#include "lore/fs/file_lock.h"

namespace lore::store {

// How long record operations wait for the store lock.
inline constexpr std::chrono::milliseconds kStoreLockTimeout{5000};

class StoreLock {
 public:
  // Locks the existing store directory `dir` (refusing a symlink), waiting
  // at most `timeout` in all (negative: forever). kBusy when the time runs
  // out, kNotFound when `dir` does not exist.
  static Result<StoreLock> Acquire(const std::string& dir, fs::LockMode mode,
                                   std::chrono::milliseconds timeout = kStoreLockTimeout);

  StoreLock(StoreLock&&) noexcept = default;
  StoreLock& operator=(StoreLock&&) noexcept = default;

  // The locked directory, open O_RDONLY|O_DIRECTORY.
  int fd() const { return lock_.fd(); }
  const std::string& dir() const { return lock_.path(); }

 private:
  explicit StoreLock(fs::FileLock lock) : lock_(std::move(lock)) {}
  fs::FileLock lock_;  // dropping it releases the lock
};

}  // namespace lore::store
