// The proposals write lock: a lock *file* whose body names its holder,
// compatible with the original tool's `{"pid","host","acquiredAt"}` lock.
//
// The lock is taken by linking a fully written temporary file to the lock
// path (atomic create-or-fail), so a reader never sees a half-written body.
// A lock whose holder is a dead process on this host is stale and is
// reclaimed (under an flock on the old lock file, so that two reclaimers never
// both win). A lock held by a live process, by another host or with a body
// lore cannot read is never broken: after the timeout Acquire fails with
// kBusy and leaves the lock file untouched.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "lore/error.h"

namespace lore::proposals {

inline constexpr std::chrono::milliseconds kLockTimeout{1000};

// What a lock file says about its holder.
struct LockHolder {
  int64_t pid = 0;
  std::string host;
  std::string acquired_at;
  bool readable = false;  // false when the body is not lore's JSON
};

enum class HolderState { kLive, kDead, kForeign, kUnreadable };

// Parses a lock body.
LockHolder ParseLockBody(std::string_view body);
// Judges a holder: kDead only when it names this host and its process is
// gone (or the pid now belongs to a process started after the lock was
// taken, i.e. the pid was reused). `lock_mtime` is the lock file's mtime.
HolderState Judge(const LockHolder& holder, time_t lock_mtime);

class WriteLock {
 public:
  // Takes the lock at `path`, waiting at most `timeout`. Fails with kBusy
  // (naming the holder) when it cannot, kSymlink when `path` is a symlink.
  static Result<WriteLock> Acquire(const std::string& path,
                                   std::chrono::milliseconds timeout = kLockTimeout);

  WriteLock(WriteLock&& o) noexcept;
  WriteLock& operator=(WriteLock&&) = delete;
  WriteLock(const WriteLock&) = delete;
  ~WriteLock();  // releases (removes the lock file if it is still ours)

  // The stale holder whose lock was taken over, if any (pid 0 when none).
  const LockHolder& reclaimed() const { return reclaimed_; }

 private:
  WriteLock(std::string path, dev_t dev, ino_t ino)
      : path_(std::move(path)), dev_(dev), ino_(ino) {}
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  bool held_ = false;
  LockHolder reclaimed_;
};

}  // namespace lore::proposals
