#include "lore/fs/fd.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace lore::fs {

void Fd::Reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

Error ErrnoError(int err, std::string_view op, const std::string& path) {
  std::string what = std::string(op) + ": " + std::strerror(err);
  switch (err) {
    case EACCES:
    case EPERM:
    case EROFS:
      return Error{ErrorCode::kPermission, std::string(op) + ": permission denied", path, 0,
                   kPermissionRepair};
    case ELOOP:
      return Error{ErrorCode::kSymlink, std::string(op) + ": refusing to follow a symlink", path, 0,
                   "replace the symlink with a real file or directory"};
    case ENOENT:
      return Error{ErrorCode::kNotFound, what, path, 0, ""};
    case ENOSPC:
      return Error{ErrorCode::kIo, what, path, 0, "free disk space and retry"};
    case ENAMETOOLONG:
      return Error{ErrorCode::kIo, what, path, 0,
                   "use a shorter path: set LORE_HOME to a folder with a short path"};
    default:
      return Error{ErrorCode::kIo, what, path, 0, ""};
  }
}

Result<Fd> Open(const std::string& path, int flags, mode_t mode) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_CLOEXEC | O_NOFOLLOW, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) return tl::unexpected(ErrnoError(errno, "cannot open", path));
  return Fd(fd);
}

Result<std::string> ReadAll(int fd, const std::string& path) {
  std::string out;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    out.reserve(static_cast<size_t>(st.st_size));
  }
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(ErrnoError(errno, "cannot read", path));
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

Result<size_t> ReadAt(int fd, char* out, size_t want, uint64_t offset, const std::string& path) {
  size_t got = 0;
  while (got < want) {
    ssize_t n = ::pread(fd, out + got, want - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(ErrnoError(errno, "cannot read", path));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  return got;
}

Result<std::string> ReadFile(const std::string& path) {
  LORE_ASSIGN(Fd fd, Open(path, O_RDONLY));
  struct stat st;
  if (::fstat(fd.get(), &st) == 0 && S_ISDIR(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "expected a file, found a directory", path, 0,
                "move the directory away");
  }
  return ReadAll(fd.get(), path);
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(ErrnoError(errno, "cannot write", path));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Ok();
}

Result<struct stat> LStat(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  }
  return st;
}

// True when `path` exists (as anything, a dangling symlink included), and
// when lstat(2) cannot tell (a permission denial, an I/O error): false only
// for a path known to be absent, so that a caller that goes on to read or
// write it reports the real error (a permission denial with
// kPermissionRepair) instead of "no store" or "no learning".
bool Exists(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) return true;
  return errno != ENOENT && errno != ENOTDIR;
}

Status RefuseSymlink(const std::string& path, std::string_view role) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return Ok();
    return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  }
  if (S_ISLNK(st.st_mode)) {
    return Fail(ErrorCode::kSymlink, std::string(role) + " is a symlink", path, 0,
                "replace the symlink with a real directory or file (lore refuses symlinks in "
                "store paths)");
  }
  return Ok();
}

Status MakeDirs(const std::string& path, mode_t mode) {
  struct stat st;
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      return Fail(ErrorCode::kSymlink, "directory is a symlink", path, 0,
                  "replace the symlink with a real directory");
    }
    if (!S_ISDIR(st.st_mode)) {
      return Fail(ErrorCode::kCorrupt, "not a directory", path, 0,
                  "move the file away so that lore can create the directory");
    }
    return Ok();
  }
  if (errno != ENOENT) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  std::string parent = Dirname(path);
  if (parent != path && !parent.empty()) LORE_TRY(MakeDirs(parent, 0700));
  if (::mkdir(path.c_str(), mode) != 0 && errno != EEXIST) {
    return tl::unexpected(ErrnoError(errno, "cannot create directory", path));
  }
  return Ok();
}

Status SyncFile(int fd, const std::string& path) {
  while (::fsync(fd) != 0) {
    if (errno != EINTR) return tl::unexpected(ErrnoError(errno, "cannot sync", path));
  }
  return Ok();
}

Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return tl::unexpected(ErrnoError(errno, "cannot open directory", dir));
  Fd guard(fd);
  if (::fsync(fd) != 0 && errno != EINVAL) {
    return tl::unexpected(ErrnoError(errno, "cannot sync directory", dir));
  }
  return Ok();
}

std::string Join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (!b.empty() && b.front() == '/') return std::string(b);
  std::string out(a);
  if (out.back() != '/') out += '/';
  out += b;
  return out;
}

std::string Dirname(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  if (pos == std::string_view::npos) return ".";
  if (pos == 0) return "/";
  return std::string(path.substr(0, pos));
}

std::string Basename(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  auto pos = path.rfind('/');
  return std::string(pos == std::string_view::npos ? path : path.substr(pos + 1));
}

std::string Absolute(std::string_view path) {
  std::string full;
  if (!path.empty() && path.front() == '/') {
    full = std::string(path);
  } else {
    std::vector<char> buf(4096);
    while (::getcwd(buf.data(), buf.size()) == nullptr && errno == ERANGE)
      buf.resize(buf.size() * 2);
    full = Join(buf.data(), path);
  }
  std::vector<std::string_view> parts;
  std::string_view rest = full;
  while (!rest.empty()) {
    auto pos = rest.find('/');
    std::string_view part = rest.substr(0, pos);
    rest = pos == std::string_view::npos ? std::string_view() : rest.substr(pos + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (auto p : parts) {
    out += '/';
    out += p;
  }
  return out.empty() ? "/" : out;
}

}  // namespace lore::fs
