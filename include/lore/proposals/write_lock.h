// The proposals write lock, held by everything that writes the proposal
// files (the queue, its summaries, the rejected and archive logs).
//
// It is two locks taken in this order:
// 1. the store lock (store/store_lock.h, exclusive), which decides, so that
//    an export reads the proposal files standing still, as it reads records;
// 2. proposals-write.lock, the original tool's lock file, kept for it: a
//    codec of fs::Holder `{"pid","host","acquiredAt"}`. It is taken by
//    linking a fully written temporary file (fs::TempPath) to the lock path
//    (atomic create-or-fail), so a reader never sees a half-written body. A
//    lock file left behind is judged by fs::Judge: a dead holder's (its
//    process gone from this host, or its pid reused) is reclaimed, under an
//    flock on the old file so that two reclaimers never both win; a live
//    holder's, another host's or one with a body lore cannot read is never
//    broken: after the timeout Acquire fails with fs::BusyError and leaves
//    the lock file untouched.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/fs/file_lock.h"
#include "lore/store/store_lock.h"

namespace lore::proposals {

// How long a writer waits for proposals-write.lock (the original gave up
// after about a second).
inline constexpr std::chrono::milliseconds kLockTimeout{1000};

// The lock file's body for `holder`, and the holder a body names (nullopt
// when it names none: not JSON, no pid or host).
std::string RenderLockBody(const fs::Holder& holder);
std::optional<fs::Holder> ParseLockBody(std::string_view body);

class WriteLock {
 public:
  // Takes the lock whose file is `path` (in the store folder): the store lock
  // first (waiting at most store::kStoreLockTimeout, as record writers do),
  // then the file, waiting at most `timeout`. Fails with kBusy (naming the
  // holder), kSymlink when `path` is a symlink.
  static Result<WriteLock> Acquire(const std::string& path,
                                   std::chrono::milliseconds timeout = kLockTimeout);

  WriteLock(WriteLock&& o) noexcept;
  WriteLock& operator=(WriteLock&&) = delete;
  WriteLock(const WriteLock&) = delete;
  ~WriteLock();  // removes the lock file if it is still ours, then drops the store lock

  // The dead holder whose lock file was taken over, if any.
  const std::optional<fs::Holder>& reclaimed() const { return reclaimed_; }
  // The store lock held with it, for work that needs the store lock too.
  const store::StoreLock& store_lock() const { return store_; }

 private:
  WriteLock(store::StoreLock store, std::string path, dev_t dev, ino_t ino)
      : store_(std::move(store)), path_(std::move(path)), dev_(dev), ino_(ino) {}
  store::StoreLock store_;
  std::string path_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  bool held_ = false;
  std::optional<fs::Holder> reclaimed_;
};

}  // namespace lore::proposals
