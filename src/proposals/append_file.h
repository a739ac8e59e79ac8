// Appending to a JSON Lines file the way every lore writer does: an
// O_APPEND descriptor (never through a symlink), an exclusive flock held
// while open, each Append one write(2), and fdatasync on Sync().
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/fs/fd.h"

namespace lore::proposals {

// How long a writer waits for another's append (an append holds the lock
// for one write; a push or an export reading the log holds it shared).
inline constexpr std::chrono::milliseconds kAppendLockTimeout{10000};

class AppendFile {
 public:
  // Opens `path` (created 0600 when missing) and locks it, waiting at most
  // `timeout` (kBusy after it, nothing written). `path` is a file of the
  // store at `store_dir` (empty: the file's own folder, as for every log at
  // the top of a store), whose quarantine/ takes a torn last line.
  static Result<AppendFile> Open(const std::string& path,
                                 std::chrono::milliseconds timeout = kAppendLockTimeout,
                                 const std::string& store_dir = "");

  // Appends `bytes` in one write. When the file does not end with '\n', Open
  // has moved a torn last line (the end of an append whose writer was
  // killed: not whole JSON, log::TornTailStart) into the store's quarantine/
  // (quarantined() names the copy), or, when that line is whole JSON, the
  // first append starts with '\n' so that the two never join.
  Status Append(std::string_view bytes);
  // Makes the appended bytes durable (fdatasync).
  // fdatasync; on failure everything appended since Open is cut off again.
  Status Sync();

  // The file's size before our first append.
  int64_t initial_size() const { return initial_size_; }
  // True until the first append when that append will start with '\n'.
  bool needs_newline() const { return needs_newline_; }
  int fd() const { return fd_.get(); }
  const std::string& path() const { return path_; }
  // Where Open moved a torn last line ("" when none was torn).
  const std::string& quarantined() const { return quarantined_; }

 private:
  AppendFile(std::string path, fs::Fd fd) : path_(std::move(path)), fd_(std::move(fd)) {}
  Status MendTail();
  std::string path_;
  std::string store_dir_;
  std::string quarantined_;
  fs::Fd fd_;
  int64_t initial_size_ = 0;
  bool needs_newline_ = false;
};

// Opens, appends `bytes`, syncs: the whole of one append.
Status AppendAndSync(const std::string& path, std::string_view bytes);

}  // namespace lore::proposals
