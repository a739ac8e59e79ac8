#include "lore/fs/tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "lore/fs/fd.h"

namespace lore::fs {
namespace {

EntryType TypeOf(mode_t mode) {
  if (S_ISREG(mode)) return EntryType::kFile;
  if (S_ISDIR(mode)) return EntryType::kDirectory;
  if (S_ISLNK(mode)) return EntryType::kSymlink;
  return EntryType::kOther;
}

Result<std::vector<std::string>> ListDir(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return tl::unexpected(ErrnoError(errno, "cannot read directory", dir));
  std::vector<std::string> names;
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(std::move(name));
  }
  int err = errno;
  ::closedir(d);
  if (err != 0) return tl::unexpected(ErrnoError(err, "cannot read directory", dir));
  std::sort(names.begin(), names.end());
  return names;
}

// Entries removed while the walk runs (by a writer the caller does not
// exclude) are left out, as if the walk had started after their removal.
Status Walk(const std::string& root, const std::string& rel, std::vector<TreeEntry>* out) {
  std::string dir = rel.empty() ? root : Join(root, rel);
  auto names = ListDir(dir);
  if (!names && !rel.empty() && names.error().code == ErrorCode::kNotFound) return Ok();
  if (!names) return tl::unexpected(names.error());
  for (const auto& name : *names) {
    TreeEntry e;
    e.rel = rel.empty() ? name : rel + "/" + name;
    auto lstat = LStat(Join(root, e.rel));
    if (!lstat && lstat.error().code == ErrorCode::kNotFound) continue;
    if (!lstat) return tl::unexpected(lstat.error());
    const struct stat& st = *lstat;
    e.type = TypeOf(st.st_mode);
    e.mode = st.st_mode & 07777;
    e.size = e.type == EntryType::kFile ? static_cast<int64_t>(st.st_size) : 0;
    e.mtime = static_cast<int64_t>(st.st_mtim.tv_sec);
    bool is_dir = e.type == EntryType::kDirectory;
    std::string child = e.rel;
    out->push_back(std::move(e));
    if (is_dir) LORE_TRY(Walk(root, child, out));
  }
  return Ok();
}

}  // namespace

Result<std::vector<DirEntry>> ListDir(int dirfd, const std::string& path, ListStat stat) {
  int own = ::dup(dirfd);
  if (own < 0) return tl::unexpected(ErrnoError(errno, "cannot read directory", path));
  DIR* d = ::fdopendir(own);
  if (!d) {
    int err = errno;
    ::close(own);
    return tl::unexpected(ErrnoError(err, "cannot read directory", path));
  }
  ::rewinddir(d);
  std::vector<DirEntry> out;
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") {
      errno = 0;
      continue;
    }
    DirEntry entry{std::string(name), e->d_type == DT_DIR, e->d_type == DT_REG};
    if (e->d_type == DT_UNKNOWN || stat == ListStat::kFull) {
      struct stat st;
      if (::fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
        entry.is_dir = S_ISDIR(st.st_mode);
        entry.is_file = S_ISREG(st.st_mode);
        entry.size = entry.is_file ? static_cast<int64_t>(st.st_size) : 0;
        entry.mtime = static_cast<int64_t>(st.st_mtim.tv_sec);
        entry.mtime_ns = entry.mtime * 1000000000 + static_cast<int64_t>(st.st_mtim.tv_nsec);
      } else if (stat == ListStat::kFull) {
        errno = 0;
        continue;  // removed meanwhile
      }
    }
    out.push_back(std::move(entry));
    errno = 0;
  }
  int err = errno;
  ::closedir(d);
  if (err != 0) return tl::unexpected(ErrnoError(err, "cannot read directory", path));
  std::sort(out.begin(), out.end(),
            [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  return out;
}

Result<std::vector<DirEntry>> ListDirBeneath(const std::string& root, std::string_view rel,
                                             ListStat stat) {
  LORE_ASSIGN(Fd fd, OpenBeneath(root, rel, O_RDONLY | O_DIRECTORY));
  return ListDir(fd.get(), Join(root, rel), stat);
}

Result<std::vector<DirEntry>> ListExisting(const std::string& root, std::string_view rel,
                                           ListStat stat) {
  auto entries = ListDirBeneath(root, rel, stat);
  if (!entries && entries.error().code == ErrorCode::kNotFound) return std::vector<DirEntry>{};
  return entries;
}

Result<std::vector<DirEntry>> ListFolder(const std::string& dir, ListStat stat) {
  LORE_ASSIGN(Fd fd, Open(dir, O_RDONLY | O_DIRECTORY));
  return ListDir(fd.get(), dir, stat);
}

Result<std::vector<TreeEntry>> WalkTree(const std::string& root) {
  std::vector<TreeEntry> out;
  LORE_TRY(Walk(root, "", &out));
  return out;
}

namespace {

// Empties the directory open as `dfd` (named `path` in errors) and closes it.
// Works on descriptors, never on paths, so a symlink swapped in meanwhile is
// unlinked, not followed.
Status EmptyDir(int dfd, const std::string& path) {
  DIR* d = ::fdopendir(dfd);
  if (!d) {
    int err = errno;
    ::close(dfd);
    return tl::unexpected(ErrnoError(err, "cannot read directory", path));
  }
  Status out = Ok();
  errno = 0;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name == "." || name == "..") continue;
    bool dir = e->d_type == DT_DIR;
    if (!dir && ::unlinkat(::dirfd(d), e->d_name, 0) == 0) continue;
    if (!dir && errno != EISDIR && errno != EPERM) {
      if (errno == ENOENT) continue;
      out = tl::unexpected(ErrnoError(errno, "cannot remove", Join(path, name)));
      break;
    }
    std::string child = Join(path, name);
    int cfd = ::openat(::dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (cfd < 0) {
      if (errno == ENOENT) continue;
      if (errno == ENOTDIR || errno == ELOOP) {  // not a directory after all
        if (::unlinkat(::dirfd(d), e->d_name, 0) == 0 || errno == ENOENT) continue;
      }
      out = tl::unexpected(ErrnoError(errno, "cannot remove", child));
      break;
    }
    if (out = EmptyDir(cfd, child); !out) break;
    if (::unlinkat(::dirfd(d), e->d_name, AT_REMOVEDIR) != 0 && errno != ENOENT) {
      out = tl::unexpected(ErrnoError(errno, "cannot remove directory", child));
      break;
    }
    errno = 0;
  }
  ::closedir(d);
  return out;
}

}  // namespace

Status RemoveTree(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Ok();
    return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  }
  if (!S_ISDIR(st.st_mode)) {
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      return tl::unexpected(ErrnoError(errno, "cannot remove", path));
    }
    return Ok();
  }
  int dfd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) return tl::unexpected(ErrnoError(errno, "cannot open directory", path));
  LORE_TRY(EmptyDir(dfd, path));
  if (::rmdir(path.c_str()) != 0 && errno != ENOENT) {
    return tl::unexpected(ErrnoError(errno, "cannot remove directory", path));
  }
  return Ok();
}

}  // namespace lore::fs
