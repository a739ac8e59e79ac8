// Replacing a file's contents all at once or not at all: the one
// write-temporary-then-rename writer of lore.
//
// Bytes go to a temporary file beside the target (named by fs::TempPath, so
// that it carries the writer's pid and `lore check --repair` can sweep it if
// the writer dies); Commit() fsyncs it, renames it over the target and fsyncs
// the directory. Destroying an uncommitted AtomicFile removes the temporary
// file, so a crash or an error leaves either the old file or the new one,
// never a torn mix. The target is never followed if it is a symlink (refused),
// and the temporary is created with O_EXCL|O_NOFOLLOW.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/fs/fd.h"

namespace lore::fs {

// How much Commit() waits for the disk.
enum class Durability {
  // fsync of the file before the rename and of the directory after it: once
  // Commit() returns, the new contents survive a power cut. The default.
  kDurable,
  // Only the rename: readers still see the old or the new contents, never a
  // mix, but a power cut may lose the update. For derived or diagnostic files
  // on a hot path (a validation cache, counters) whose loss costs nothing but
  // a recomputation; never for data a user gave lore.
  kVisibleOnly,
};

class AtomicFile {
 public:
  // Creates the temporary file for `path` (0600 unless `mode` says otherwise,
  // whatever the umask). Refuses when `path` is a symlink.
  static Result<AtomicFile> Create(std::string path, mode_t mode = 0600,
                                   Durability durability = Durability::kDurable);

  AtomicFile(AtomicFile&&) noexcept = default;
  AtomicFile& operator=(AtomicFile&&) noexcept = delete;
  ~AtomicFile();

  Status Write(std::string_view data);
  // Makes the new contents visible (and, when kDurable, durable) at `path`.
  Status Commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }
  int fd() const { return fd_.get(); }

 private:
  AtomicFile(std::string path, std::string temp, Fd fd, Durability durability)
      : path_(std::move(path)),
        temp_(std::move(temp)),
        fd_(std::move(fd)),
        durability_(durability) {}

  std::string path_;
  std::string temp_;
  Fd fd_;
  Durability durability_;
  bool committed_ = false;
};

// Writes `data` to `path` through an AtomicFile.
Status WriteFileAtomic(const std::string& path, std::string_view data, mode_t mode = 0600,
                       Durability durability = Durability::kDurable);

// Creates `path`, which must not exist (O_EXCL, never through a symlink),
// with `mode` whatever the umask, writes `data` and fsyncs it. For files
// inside a folder that is built aside and renamed into place as a whole (the
// caller fsyncs the folder with SyncDir before renaming it). On failure the
// half-written file is removed.
Status WriteNewFile(const std::string& path, std::string_view data, mode_t mode = 0600);

}  // namespace lore::fs
