#include "distill/bundle.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include <cerrno>

#include "distill/reader.h"
#include "fs/atomic_file.h"
#include "fs/exchange.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"

namespace lore::distill {
namespace {

Status MakeDir(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot create directory", path));
  }
  return Ok();
}

// Copies the okf/ entries lore did not generate into `dest`, preserving mtimes.
Status CopyOthers(const std::string& okf, const std::string& dest) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(okf));
  std::vector<std::string> dirs;  // made here: fsynced once filled
  for (const auto& e : entries) {
    std::string top = e.rel.substr(0, e.rel.find('/'));
    if (top[0] == '.' || (top == e.rel && IsGeneratedPage(top))) continue;
    std::string from = fs::Join(okf, e.rel), to = fs::Join(dest, e.rel);
    if (e.type == fs::EntryType::kDirectory) {
      LORE_TRY(MakeDir(to));
      dirs.push_back(to);
    } else if (e.type == fs::EntryType::kFile) {
      LORE_ASSIGN(std::string data, fs::ReadFile(from, fs::Kind::kRecord));
      LORE_TRY(fs::WriteNewFile(to, data));
      struct timespec t[2] = {{static_cast<time_t>(e.mtime), 0}, {static_cast<time_t>(e.mtime), 0}};
      ::utimensat(AT_FDCWD, to.c_str(), t, AT_SYMLINK_NOFOLLOW);
    } else {
      return Fail(ErrorCode::kSymlink, "okf/ holds a symlink or special file", from, 0,
                  "replace it with a regular file or remove it");
    }
  }
  for (const auto& d : dirs) LORE_TRY(fs::SyncDir(d));
  return Ok();
}

}  // namespace

Status RecoverBundle(const store::Store& store) {
  std::string okf = store.okf_dir(), fresh = store.Path(".okf.new"), old = store.Path(".okf.old");
  LORE_TRY(fs::RefuseSymlink(fresh, "leftover bundle"));
  LORE_TRY(fs::RefuseSymlink(old, "leftover bundle"));
  if (!fs::Exists(okf) && fs::Exists(store.dir())) {
    // Interrupted between the two renames of the fallback path.
    const std::string& from = fs::Exists(fresh) ? fresh : old;
    if (fs::Exists(from) && ::rename(from.c_str(), okf.c_str()) != 0) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot restore the bundle", okf));
    }
  }
  LORE_TRY(fs::RemoveTree(fresh));
  return fs::RemoveTree(old);
}

Result<bool> BundleMatches(const store::Store& store, const Pages& pages) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(store.okf_dir()));
  size_t generated = 0;
  for (const auto& e : entries) {
    if (e.type == fs::EntryType::kFile && IsGeneratedPage(e.rel)) ++generated;
  }
  if (generated != pages.size()) return false;
  for (const auto& [name, bytes] : pages) {
    auto st = fs::LStat(store.Path("okf/" + name));
    if (!st || !S_ISREG(st->st_mode) || static_cast<size_t>(st->st_size) != bytes.size())
      return false;
    if ((st->st_mode & 0777) != 0600) return false;
    LORE_ASSIGN(std::string current,
                fs::ReadFileBeneath(store.dir(), "okf/" + name, fs::Kind::kRecord));
    if (current != bytes) return false;
  }
  return true;
}

Status WriteBundle(const store::Store& store, const Pages& pages) {
  std::string okf = store.okf_dir(), fresh = store.Path(".okf.new"), old = store.Path(".okf.old");
  LORE_TRY(fs::RemoveTree(fresh));
  LORE_TRY(MakeDir(fresh));
  auto built = [&]() -> Status {
    for (const auto& [name, bytes] : pages)
      LORE_TRY(fs::WriteNewFile(fs::Join(fresh, name), bytes));
    LORE_TRY(CopyOthers(okf, fresh));
    return fs::SyncDir(fresh);
  }();
  if (!built) {
    (void)fs::RemoveTree(fresh);
    return built;
  }
  auto exchanged = fs::ExchangePaths(fresh, okf);
  if (!exchanged) {
    (void)fs::RemoveTree(fresh);
    return tl::unexpected(exchanged.error());
  }
  if (*exchanged) {
    LORE_TRY(fs::SyncDir(store.dir()));
    return fs::RemoveTree(fresh);  // now the old bundle
  }
  // A file system without RENAME_EXCHANGE: two renames; RecoverBundle
  // finishes the job if a crash falls between them.
  if (::rename(okf.c_str(), old.c_str()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot move the old bundle aside", okf));
  }
  if (::rename(fresh.c_str(), okf.c_str()) != 0) {
    int err = errno;
    (void)::rename(old.c_str(), okf.c_str());
    return tl::unexpected(fs::ErrnoError(err, "cannot move the new bundle into place", okf));
  }
  LORE_TRY(fs::SyncDir(store.dir()));
  return fs::RemoveTree(old);
}

}  // namespace lore::distill
