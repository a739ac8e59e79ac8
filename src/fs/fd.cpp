#include "lore/fs/fd.h"

#include "fs/open_beneath.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
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
    case ENXIO:  // a FIFO without a reader or a socket, opened for writing
      return Error{ErrorCode::kInvalidInput,
                   std::string(op) + ": not a regular file (a FIFO, a device or a socket)", path, 0,
                   "replace it with a regular file"};
    case ENAMETOOLONG:
      return Error{ErrorCode::kIo, what, path, 0,
                   "use a shorter path: set LORE_HOME to a folder with a short path"};
    default:
      return Error{ErrorCode::kIo, what, path, 0, ""};
  }
}

namespace {

struct KindInfo {
  uint64_t cap;
  const char* name;    // "an index page"
  const char* repair;  // for a file over the cap
};

constexpr uint64_t kMiB = uint64_t{1} << 20;

// One row per Kind, in its order; docs/formats.md ("Reading files") explains each.
constexpr KindInfo kKinds[] = {
    {4 * kMiB, "a record", "shorten the file or move it out of the store"},
    {4 * kMiB, "an index page", "run `lore distill` to rewrite it, or move the file away"},
    {1 * kMiB, "a configuration file", "shorten the file"},
    {64 * kMiB, "a state file", "move the file away (lore rewrites it)"},
    {16 * kMiB, "a plan", "pass a smaller plan"},
    {16 * kMiB, "a body", "pass a smaller body"},
    {8 * kMiB, "an agent settings file", "shorten the file"},
    {256 * kMiB, "a transcript read whole", "pass a smaller transcript"},
    {1024 * kMiB, "a log read whole", "move the log away or split it"},
    {1024 * kMiB, "an archived file", "move the file away"},
};

static_assert(sizeof kKinds / sizeof kKinds[0] == static_cast<size_t>(Kind::kArchive) + 1,
              "one row per Kind");

const KindInfo& Info(Kind kind) { return kKinds[static_cast<int>(kind)]; }

std::string Size(uint64_t n) {
  if (n >= kMiB) return std::to_string(n / kMiB) + " MiB";
  return std::to_string(n) + " bytes";
}

Error TooLarge(uint64_t size, Kind kind, const std::string& path, bool at_least) {
  const KindInfo& k = Info(kind);
  return Error{ErrorCode::kInvalidInput,
               std::string("file too large (") + (at_least ? "over " : "") + std::to_string(size) +
                   " bytes" + "; the cap for " + k.name + " is " + Size(k.cap) + ")",
               path, 0, k.repair};
}

int RetryOpen(int dirfd, const char* path, int flags, mode_t mode) {
  int fd;
  do {
    fd = ::openat(dirfd, path, flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// The file open as `fd` (opened with `flags`), refused unless it is a regular
// file or, with O_DIRECTORY, a directory.
Result<Fd> CheckRegular(Fd fd, int flags, const std::string& path) {
  if (flags & O_DIRECTORY) return fd;
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) return tl::unexpected(NotRegularError(st.st_mode, path));
  return fd;
}

// The first component of `rel` beneath `root` that is a symlink, for the
// error of a refused open; `rel` itself when none is found (it changed).
std::string SymlinkIn(const std::string& root, std::string_view rel) {
  std::string at = root;
  while (!rel.empty()) {
    size_t slash = rel.find('/');
    std::string_view part = rel.substr(0, slash);
    rel = slash == std::string_view::npos ? std::string_view() : rel.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    at = Join(at, part);
    struct stat st;
    if (::lstat(at.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) return at;
  }
  return at;
}

Error SymlinkError(const std::string& root, std::string_view rel) {
  return Error{ErrorCode::kSymlink, "refusing to follow a symlink inside the store",
               SymlinkIn(root, rel), 0,
               "replace the symlink with a real directory or file (lore refuses symlinks in "
               "store paths)"};
}

// openat2(2) beneath `dirfd`: -1 with errno ENOSYS where the kernel (or a
// seccomp filter) lacks it.
int OpenAt2(int dirfd, const char* rel, int flags, mode_t mode) {
#ifdef SYS_openat2
  struct open_how how;
  std::memset(&how, 0, sizeof how);
  how.flags = static_cast<uint64_t>(flags);
  how.mode = (flags & O_CREAT) ? mode : 0;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long fd;
  do {
    fd = ::syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == EPERM) errno = ENOSYS;  // seccomp filters answer EPERM; walk instead
  return static_cast<int>(fd);
#else
  (void)dirfd, (void)rel, (void)flags, (void)mode;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace

namespace internal {

int OpenByWalk(int rootfd, std::string_view rel, int flags, mode_t mode) {
  // Every folder opened with O_NOFOLLOW|O_DIRECTORY from the one before.
  Fd dir;
  int at = rootfd;
  while (true) {
    size_t slash = rel.find('/');
    std::string part(rel.substr(0, slash));
    if (slash == std::string_view::npos)
      return RetryOpen(at, part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
    rel.remove_prefix(slash + 1);
    if (part.empty() || part == ".") continue;
    int next = RetryOpen(at, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
    if (next < 0) {
      if (errno == ENOTDIR) {  // a symlink (O_NOFOLLOW|O_DIRECTORY) or a file
        struct stat st;
        bool link =
            ::fstatat(at, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
        errno = link ? ELOOP : ENOTDIR;
      }
      return -1;
    }
    dir = Fd(next);
    at = dir.get();
  }
}

}  // namespace internal

uint64_t Cap(Kind kind) { return Info(kind).cap; }

const char* FileTypeName(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISREG(mode)) return "a regular file";
  return "not a file";
}

Error NotRegularError(mode_t mode, const std::string& path) {
  return Error{ErrorCode::kInvalidInput,
               std::string("not a regular file (") + FileTypeName(mode) + ")", path, 0,
               S_ISDIR(mode) ? "move the directory away" : "replace it with a regular file"};
}

Result<Fd> Open(const std::string& path, int flags, mode_t mode) {
  flags |= O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  int fd = RetryOpen(AT_FDCWD, path.c_str(), flags, mode);
  if (fd < 0) return tl::unexpected(ErrnoError(errno, "cannot open", path));
  return CheckRegular(Fd(fd), flags, path);
}

Result<Fd> OpenNamedFile(const std::string& path) {
  int fd = RetryOpen(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0) return tl::unexpected(ErrnoError(errno, "cannot open", path));
  return CheckRegular(Fd(fd), O_RDONLY, path);
}

Result<Fd> OpenBeneath(const std::string& root, std::string_view rel, int flags, mode_t mode) {
  const std::string path = Join(root, rel);
  if (rel.empty() || rel.front() == '/' || rel == ".." || rel.rfind("../", 0) == 0 ||
      rel.find("/../") != std::string_view::npos ||
      (rel.size() >= 3 && rel.substr(rel.size() - 3) == "/..")) {
    return Fail(ErrorCode::kInvalidInput, "not a path inside the store", path, 0,
                "name a file inside the store");
  }
  flags |= O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  int rootfd = RetryOpen(AT_FDCWD, root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (rootfd < 0) return tl::unexpected(ErrnoError(errno, "cannot open directory", root));
  Fd dir(rootfd);
  const std::string rel_s(rel);
  int fd = OpenAt2(dir.get(), rel_s.c_str(), flags, mode);
  if (fd < 0 && errno == ENOSYS) fd = internal::OpenByWalk(dir.get(), rel, flags, mode);
  if (fd < 0) {
    const int err = errno;
    if (err == ELOOP || err == EXDEV) return tl::unexpected(SymlinkError(root, rel));
    if (err == ENOTDIR) {  // what O_DIRECTORY|O_NOFOLLOW answers for a symlink
      struct stat st;
      if (::lstat(SymlinkIn(root, rel).c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return tl::unexpected(SymlinkError(root, rel));
    }
    return tl::unexpected(ErrnoError(err, "cannot open", path));
  }
  return CheckRegular(Fd(fd), flags, path);
}

Result<std::string> ReadAll(int fd, const std::string& path, Kind kind) {
  const uint64_t cap = Cap(kind);
  std::string out;
  struct stat st;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    if (static_cast<uint64_t>(st.st_size) > cap)
      return tl::unexpected(TooLarge(static_cast<uint64_t>(st.st_size), kind, path, false));
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
    if (out.size() + static_cast<size_t>(n) > cap)  // it grew while read
      return tl::unexpected(TooLarge(cap, kind, path, true));
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

Result<std::optional<uint64_t>> UnterminatedSize(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size == 0) return std::optional<uint64_t>();
  char last = '\n';
  LORE_ASSIGN(size_t got, ReadAt(fd, &last, 1, size - 1, path));
  if (got != 1 || last == '\n') return std::optional<uint64_t>();
  return std::optional<uint64_t>(size);
}

Result<std::string> ReadFile(const std::string& path, Kind kind) {
  LORE_ASSIGN(Fd fd, Open(path, O_RDONLY));
  return ReadAll(fd.get(), path, kind);
}

Result<std::string> ReadFileBeneath(const std::string& root, std::string_view rel, Kind kind) {
  LORE_ASSIGN(Fd fd, OpenBeneath(root, rel, O_RDONLY));
  return ReadAll(fd.get(), Join(root, rel), kind);
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
