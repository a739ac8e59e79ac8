#include "lore/consolidate/workspace.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <functional>

#include "lore/fs/fd.h"
#include "lore/fs/tree.h"

namespace lore::consolidate {

namespace {

Error NotRegular(const struct stat& st, const std::string& path) {
  bool link = S_ISLNK(st.st_mode);
  return Error{link ? ErrorCode::kSymlink : ErrorCode::kCorrupt,
               link ? "record is a symlink" : "record is not a regular file", path, 0,
               "replace it with a regular file (lore refuses symlinks in store paths)"};
}

FileId IdOf(const struct stat& st) {
  return FileId{true,
                static_cast<uint64_t>(st.st_dev),
                static_cast<uint64_t>(st.st_ino),
                static_cast<int64_t>(st.st_size),
                static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
                static_cast<int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec,
                0};
}

// Never 0, so that a read file differs from one only stat'ed.
uint64_t HashBytes(std::string_view bytes) { return std::hash<std::string_view>{}(bytes) | 1; }

// The identity of `path` now, without reading it. A symlink or non-regular
// file is an error.
Result<FileId> IdentifyFile(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return FileId{};
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  }
  if (!S_ISREG(st.st_mode)) return tl::unexpected(NotRegular(st, path));
  return IdOf(st);
}

}  // namespace

Result<FileRead> ReadIdentified(const std::string& path) {
  auto fd = fs::Open(path, O_RDONLY | O_NONBLOCK);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return FileRead{};
    if (fd.error().code == ErrorCode::kSymlink) {
      struct stat st;
      if (::lstat(path.c_str(), &st) == 0) return tl::unexpected(NotRegular(st, path));
    }
    return tl::unexpected(fd.error());
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) return tl::unexpected(NotRegular(st, path));
  FileRead out{IdOf(st), std::nullopt};
  LORE_ASSIGN(std::string bytes, fs::ReadAll(fd->get(), path, fs::Kind::kRecord));
  out.id.content = HashBytes(bytes);
  out.bytes = std::move(bytes);
  return out;
}

Result<FileId> IdentifyContent(const std::string& path) {
  LORE_ASSIGN(FileRead r, ReadIdentified(path));
  return r.id;
}

Result<Workspace::Entry*> Workspace::Load(const std::string& rel) {
  auto it = files_.find(rel);
  if (it != files_.end()) return &it->second;
  LORE_ASSIGN(FileRead r, ReadIdentified(fs::Join(dir_, rel)));
  Entry e;
  e.id = r.id;
  e.original = std::move(r.bytes);
  e.current = e.original;
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
    LORE_ASSIGN(auto entries, fs::ListExisting(dir_, rel_dir));
    for (const auto& e : entries) {
      std::string_view name = e.name;
      if (name.size() > 3 && name.ends_with(".md") && name[0] != '.') {
        disk.emplace_back(name.substr(0, name.size() - 3));
      }
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

Result<int64_t> Workspace::ChangedAt(const std::string& rel) {
  if (auto it = files_.find(rel); it != files_.end()) {
    if (it->second.current != it->second.original) return INT64_MAX;
    if (!it->second.id.exists) return INT64_MIN;
    return it->second.id.mtime_ns;
  }
  LORE_ASSIGN(FileId id, IdentifyFile(fs::Join(dir_, rel)));
  return id.exists ? id.mtime_ns : INT64_MIN;
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
