#include "lore/fs/tree.h"

#include <dirent.h>
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

Status Walk(const std::string& root, const std::string& rel, std::vector<TreeEntry>* out) {
  std::string dir = rel.empty() ? root : Join(root, rel);
  LORE_ASSIGN(std::vector<std::string> names, ListDir(dir));
  for (const auto& name : names) {
    TreeEntry e;
    e.rel = rel.empty() ? name : rel + "/" + name;
    LORE_ASSIGN(struct stat st, LStat(Join(root, e.rel)));
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

Result<std::vector<TreeEntry>> WalkTree(const std::string& root) {
  std::vector<TreeEntry> out;
  LORE_TRY(Walk(root, "", &out));
  return out;
}

Status RemoveTree(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Ok();
    return tl::unexpected(ErrnoError(errno, "cannot stat", path));
  }
  if (S_ISDIR(st.st_mode)) {
    LORE_ASSIGN(std::vector<std::string> names, ListDir(path));
    for (const auto& name : names) LORE_TRY(RemoveTree(Join(path, name)));
    if (::rmdir(path.c_str()) != 0) {
      return tl::unexpected(ErrnoError(errno, "cannot remove directory", path));
    }
    return Ok();
  }
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return tl::unexpected(ErrnoError(errno, "cannot remove", path));
  }
  return Ok();
}

}  // namespace lore::fs
