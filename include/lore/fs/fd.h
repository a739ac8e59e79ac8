// RAII file descriptors and the small set of file operations every module uses.
// All functions refuse to follow a symlink in the last path component
// (O_NOFOLLOW) and map errno to an Error naming the path and the repair.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <string>
#include <string_view>

#include "lore/error.h"

namespace lore::fs {

// Owns one file descriptor; closes it on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& o) noexcept : fd_(o.Release()) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) Reset(o.Release());
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release() {
    int f = fd_;
    fd_ = -1;
    return f;
  }
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

// The repair advice for a permission failure (seed 003).
inline constexpr const char* kPermissionRepair =
    "rerun outside the sandbox or with escalated permissions";

// Builds an Error from errno `err` for an operation `op` on `path`:
// EACCES/EPERM/EROFS -> kPermission, ELOOP -> kSymlink, ENOENT -> kNotFound,
// else kIo (ENOSPC and ENAMETOOLONG with their repair).
Error ErrnoError(int err, std::string_view op, const std::string& path);

// open(2) with O_CLOEXEC|O_NOFOLLOW added to `flags`.
Result<Fd> Open(const std::string& path, int flags, mode_t mode = 0600);

// Reads the whole of an open descriptor.
Result<std::string> ReadAll(int fd, const std::string& path);
// Reads `want` bytes at `offset` into `out` with pread (retried when
// interrupted or short); fewer only at the end of the file. The file offset
// does not move. An error names `path`.
Result<size_t> ReadAt(int fd, char* out, size_t want, uint64_t offset, const std::string& path);
// Reads a whole regular file (not through a symlink).
Result<std::string> ReadFile(const std::string& path);
// Writes all bytes, retrying short writes and EINTR.
Status WriteAll(int fd, std::string_view data, const std::string& path);

// lstat(2). A missing file is an Error with code kNotFound.
Result<struct stat> LStat(const std::string& path);
// False only when `path` is known to be absent (ENOENT, ENOTDIR): see fd.cpp.
bool Exists(const std::string& path);
// An error when `path` is a symlink; OK when it is anything else or missing.
Status RefuseSymlink(const std::string& path, std::string_view role);

// Creates directory `path` with `mode` if missing (parents too, each 0700).
// Refuses when `path` exists as a symlink or a non-directory.
Status MakeDirs(const std::string& path, mode_t mode = 0700);

// fsync(2) of an open file, retried on EINTR; `path` names it in the error.
Status SyncFile(int fd, const std::string& path);
// fsync of a directory, so that a rename or create in it is durable.
Status SyncDir(const std::string& dir);

// Path helpers (purely lexical).
std::string Join(std::string_view a, std::string_view b);
std::string Dirname(std::string_view path);
std::string Basename(std::string_view path);
// Makes `path` absolute against the current directory and removes "." and
// ".." components and duplicate slashes lexically.
std::string Absolute(std::string_view path);

}  // namespace lore::fs
