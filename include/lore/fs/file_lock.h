// The one lock of lore (docs/formats.md, "Locks").
//
// An flock(2) decides who holds a lock: the kernel drops it however its
// holder dies, so a lock that is taken is never stale and never needs
// breaking. A lock file may also carry a body naming its holder (Holder:
// pid, host, since), for diagnostics only; every body is judged by one rule
// (Judge) and every refusal worded by one function (BusyError).
//
// The locks of lore are policies over this one:
//   store::StoreLock         the store folder itself (kFolder): record writes,
//                            commits, proposals, import, export
//   consolidate::RunLock     staging/.consolidation.lock (kOwnedFile, a body)
//   proposals::WriteLock     the store lock, plus proposals-write.lock: the
//                            original tool's link-and-body file, a codec of
//                            Holder judged by Judge
//   FileLock (kFile)         .distill.lock, team/sync.lock, the extract
//                            cursors' locks, .proposals-summary.lock
//   LockFd                   a log's own descriptor while a line is appended
//                            or the log is read
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/fs/fd.h"

namespace lore::fs {

enum class LockMode { kShared, kExclusive };

// A timeout that waits for as long as it takes.
inline constexpr std::chrono::milliseconds kWaitForever{-1};

// Takes an flock on an open descriptor, waiting at most `timeout` (negative:
// forever; zero: one try). kBusy when the time runs out: "timed out waiting
// for <what>: <path>".
Status LockFd(int fd, LockMode mode, const std::string& path,
              std::chrono::milliseconds timeout = kWaitForever, std::string_view what = "a lock");
// Drops the flock of `fd` taken with LockFd; the descriptor stays open.
void UnlockFd(int fd);

// Who holds a lock, as the lock's body says.
struct Holder {
  int64_t pid = 0;
  std::string host;
  std::string since;  // when it was taken, as the body wrote it ("" when not said)
};

enum class HolderState {
  kLive,        // its process runs on this host
  kDead,        // on this host, and its process is gone, or its pid now names a
                // process that started after the lock was taken (reused)
  kForeign,     // another host's: lore cannot see its processes and never breaks it
  kUnreadable,  // the body names no holder (empty, torn, not lore's)
};

// The one judgement of a lock's holder. `taken_at` is when the lock was taken
// (the lock file's mtime: its body is written once the holder runs).
HolderState Judge(const std::optional<Holder>& holder,
                  std::chrono::system_clock::time_point taken_at);

// The one wording of "busy", for a lock whose body names its holder: `what`
// names the lock ("the proposals write lock"), `path` its file.
Error BusyError(std::string_view what, const std::string& path, const std::optional<Holder>& holder,
                HolderState state);
// The same for an flock without a body: "timed out waiting for <what>".
Error BusyError(std::string_view what, const std::string& path);

// What a FileLock locks.
enum class LockTarget {
  kFile,       // a file, created 0600 when missing; it stays when released
  kOwnedFile,  // a file that exists only while held: created when missing,
               // emptied when taken (what a holder that died left is kept as
               // left_body()), removed by its holder on release
  kFolder,     // an existing folder, never created (kNotFound when missing)
};

struct LockOptions {
  LockMode mode = LockMode::kExclusive;
  std::chrono::milliseconds timeout = kWaitForever;  // zero: one try
  LockTarget target = LockTarget::kFile;
  std::string_view what = "a lock";  // how errors name it
};

// An flock held for the life of the object (or until Release).
class FileLock {
 public:
  // Opens `path` (never through a symlink) and locks it. Once locked, checks
  // that `path` still names what was locked (a holder that removed its
  // owned file after we opened it, a folder an import exchanged) and
  // otherwise starts over on what is there now. kBusy when the time runs
  // out (BusyError(what, path)); kIo when the path keeps changing.
  static Result<FileLock> Acquire(const std::string& path, const LockOptions& options);
  // A kFile lock.
  static Result<FileLock> Acquire(const std::string& path, LockMode mode,
                                  std::chrono::milliseconds timeout = kWaitForever);
  // A kFile lock, one try: kBusy when another process holds it.
  static Result<FileLock> TryAcquire(const std::string& path, LockMode mode);

  FileLock(FileLock&& o) noexcept;
  FileLock& operator=(FileLock&& o) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock() { Release(); }

  // A kOwnedFile's body as the lock was taken: what a holder that died left
  // ("" when nothing).
  const std::string& left_body() const { return left_body_; }
  // Replaces a kOwnedFile's body (in place: others lock this inode) and
  // fdatasyncs it.
  Status Publish(std::string_view body);
  // Removes a kOwnedFile that is still ours, then drops the flock.
  // Idempotent; the destructor calls it.
  void Release();

  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }

 private:
  FileLock(std::string path, Fd fd, LockTarget target)
      : path_(std::move(path)), fd_(std::move(fd)), target_(target) {}
  Status TakeOver();
  std::string path_;
  Fd fd_;  // closing the descriptor releases the lock
  LockTarget target_ = LockTarget::kFile;
  std::string left_body_;
};

// A lock file as it is now, read without taking the lock: its body and its
// mtime. nullopt when there is no such file.
struct LockFileView {
  std::string body;
  std::chrono::system_clock::time_point mtime;
};
Result<std::optional<LockFileView>> PeekLockFile(const std::string& path);

}  // namespace lore::fs
