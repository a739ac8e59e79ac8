// AtomicFile: replace a file's contents all at once or not at all.
//
// Bytes go to a temporary file beside the target; Commit() fsyncs it, renames
// it over the target and fsyncs the directory. Destroying an uncommitted
// AtomicFile removes the temporary file, so a crash or an error leaves either
// the old file or the new one, never a torn mix.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/fs/fd.h"

namespace lore::fs {

class AtomicFile {
 public:
  // Creates the temporary file for `path` (0600 unless `mode` says otherwise).
  // Refuses when `path` is a symlink.
  static Result<AtomicFile> Create(std::string path, mode_t mode = 0600);

  AtomicFile(AtomicFile&&) noexcept = default;
  AtomicFile& operator=(AtomicFile&&) noexcept = delete;
  ~AtomicFile();

  Status Write(std::string_view data);
  // Makes the new contents durable and visible at `path`.
  Status Commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }

 private:
  AtomicFile(std::string path, std::string temp, Fd fd)
      : path_(std::move(path)), temp_(std::move(temp)), fd_(std::move(fd)) {}

  std::string path_;
  std::string temp_;
  Fd fd_;
  bool committed_ = false;
};

// Writes `data` to `path` through an AtomicFile.
Status WriteFileAtomic(const std::string& path, std::string_view data, mode_t mode = 0600);

}  // namespace lore::fs
