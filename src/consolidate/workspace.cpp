#include "lore/consolidate/workspace.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "lore/fs/fd.h"

namespace lore::consolidate {

Result<FileId> IdentifyFile(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return FileId{};
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  }
  if (!S_ISREG(st.st_mode)) {
    return Fail(S_ISLNK(st.st_mode) ? ErrorCode::kSymlink : ErrorCode::kCorrupt,
                S_ISLNK(st.st_mode) ? "record is a symlink" : "record is not a regular file", path,
                0, "replace it with a regular file (lore refuses symlinks in store paths)");
  }
  return FileId{true, static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino),
                static_cast<int64_t>(st.st_size),
                static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

Result<Workspace::Entry*> Workspace::Load(const std::string& rel) {
  auto it = files_.find(rel);
  if (it != files_.end()) return &it->second;
  std::string path = fs::Join(dir_, rel);
  Entry e;
  LORE_ASSIGN(e.id, IdentifyFile(path));
  if (e.id.exists) {
    LORE_ASSIGN(std::string bytes, fs::ReadFile(path));
    e.original = std::move(bytes);
    e.current = e.original;
  }
  return &files_.emplace(rel, std::move(e)).first->second;
}

Result<std::optional<std::string>> Workspace::Read(const std::string& rel) {
  LORE_ASSIGN(Entry * e, Load(rel));
  return e->current;
}

Result<bool> Workspace::Exists(const std::string& rel) {
  if (auto it = files_.find(rel); it != files_.end()) return it->second.current.has_value();
  return fs::Exists(fs::Join(dir_, rel));
}

Status Workspace::Write(const std::string& rel, std::string bytes) {
  LORE_ASSIGN(Entry * e, Load(rel));
  e->current = std::move(bytes);
  return Ok();
}

Result<std::vector<std::string>> Workspace::ListSlugs(const std::string& rel_dir) {
  auto cached = listings_.find(rel_dir);
  if (cached == listings_.end()) {
    std::vector<std::string> disk;
    std::string path = fs::Join(dir_, rel_dir);
    LORE_TRY(fs::RefuseSymlink(path, "record folder"));
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d)) {
        std::string_view name = e->d_name;
        if (name.size() > 3 && name.substr(name.size() - 3) == ".md" && name[0] != '.') {
          disk.emplace_back(name.substr(0, name.size() - 3));
        }
      }
      ::closedir(d);
    } else if (errno != ENOENT) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot list", path));
    }
    cached = listings_.emplace(rel_dir, std::move(disk)).first;
  }
  std::vector<std::string> out = cached->second;
  std::string prefix = rel_dir + "/";
  for (auto it = files_.lower_bound(prefix);
       it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (!it->second.current || it->second.original) continue;  // only files created in the overlay
    std::string_view rest = std::string_view(it->first).substr(prefix.size());
    if (rest.find('/') == std::string_view::npos && rest.size() > 3 &&
        rest.substr(rest.size() - 3) == ".md") {
      out.emplace_back(rest.substr(0, rest.size() - 3));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<Workspace::Change> Workspace::Changes() const {
  std::vector<Change> out;
  for (const auto& [rel, e] : files_) {
    if (e.current && e.current != e.original) out.push_back({rel, *e.current});
  }
  return out;
}

Workspace::Snapshot Workspace::Save() const {
  Snapshot s;
  for (const auto& [rel, e] : files_) s.emplace(rel, e.current);
  return s;
}

void Workspace::Restore(const Snapshot& snapshot) {
  for (auto& [rel, e] : files_) {
    auto it = snapshot.find(rel);
    e.current = it != snapshot.end() ? it->second : e.original;
  }
}

std::map<std::string, FileId> Workspace::Baselines() const {
  std::map<std::string, FileId> out;
  for (const auto& [rel, e] : files_) out.emplace(rel, e.id);
  return out;
}

}  // namespace lore::consolidate
