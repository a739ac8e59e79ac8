// lore import: unpack aside, check, guard the settings, then swap the new
// store in under the store lock (docs/agents.md).
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <random>

#include "archive/import_settings.h"
#include "archive/propose_imported.h"
#include "archive/unpack.h"
#include "doc/frontmatter.h"
#include "fs/exchange.h"
#include "fs/temp_name.h"
#include "lore/archive/archive.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/store/layout.h"
#include "lore/store/store_lock.h"
#include "store/key.h"

namespace lore::archive {
namespace {

// How long an import waits for record writes, a commit or an export.
constexpr std::chrono::milliseconds kSwapLockTimeout{60000};

// True when `dir` holds nothing but what `lore ensure` creates: an empty
// raw.jsonl, okf/index.md without a body, empty folders, hidden bookkeeping.
Result<bool> IsEmptyStore(const std::string& dir) {
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(dir));
  for (const auto& e : entries) {
    if (!IsTruth(e.rel) || e.type == fs::EntryType::kDirectory) continue;
    if (e.rel == store::kRawFile && e.type == fs::EntryType::kFile && e.size == 0) continue;
    if (e.rel == store::kIndexFile && e.type == fs::EntryType::kFile) {
      std::string path = fs::Join(dir, e.rel);
      LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kIndexPage));
      auto split = doc::SplitFrontmatter(text, path);
      if (split && !doc::HasContent(split->body)) continue;
    }
    return false;
  }
  return true;
}

// A temporary beside the stores, named by fs's scheme (so that `lore check
// --repair` can tell a dead import's leftovers from a live one's work).
std::string HiddenSibling(const std::string& root, const std::string& base, fs::TempKind kind) {
  return fs::TempPath(fs::Join(root, base), kind);
}

// renameat2(2) with `flags`; false with errno set when it failed.
bool Rename2(const std::string& from, const std::string& to, unsigned flags) {
  return ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), flags) == 0;
}

bool NoRenameFlags(int err) { return err == EINVAL || err == ENOSYS || err == EOPNOTSUPP; }

// Exchanges `temp` (the new store) with `dir` (the old one, now at `temp`).
// Where the file system cannot exchange, falls back to two renames (the old
// store moved aside, the new one moved in, the old one put back on failure).
Status Exchange(const std::string& root, const std::string& key, const std::string& temp,
                const std::string& dir) {
  LORE_ASSIGN(bool exchanged, fs::ExchangePaths(temp, dir));
  if (exchanged) return Ok();
  std::string old = HiddenSibling(root, key, fs::TempKind::kReplaced);
  if (::rename(dir.c_str(), old.c_str()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot move the old store aside", dir));
  }
  if (::rename(temp.c_str(), dir.c_str()) != 0) {
    int err = errno;
    (void)::rename(old.c_str(), dir.c_str());
    return tl::unexpected(fs::ErrnoError(err, "cannot move the imported store into place", dir));
  }
  if (::rename(old.c_str(), temp.c_str()) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot move the old store away", old));
  }
  return Ok();
}

// Checks the unpacked store as lore checks any store; errors name the entry.
Status CheckUnpacked(const std::string& root, const std::string& temp, const std::string& archive) {
  auto s = store::Store::AtDir(root, fs::Basename(temp)).Check();
  if (s) return Ok();
  Error e = s.error();
  if (e.path.rfind(temp, 0) == 0) e.path = "store" + e.path.substr(temp.size());
  e.what += " (in archive " + archive + ")";
  e.repair = "repair the store before exporting it, or fix that file in the archive";
  return tl::unexpected(e);
}

// The key named by the options or the manifest, checked.
Result<std::string> TargetKey(const ImportOptions& o, const Unpacked& u,
                              const std::string& archive) {
  std::string key = o.key.empty() ? u.manifest.key : o.key;
  auto checked = store::KeyFromIdentity(key);
  if (key.empty() || !checked || *checked != key) {
    return Fail(ErrorCode::kInvalidInput, "archive names no valid store key ('" + key + "')",
                archive, 0, "name the target store with --repo <repo>");
  }
  return key;
}

struct Target {
  std::string root, key, dir, temp, archive;
};

// Under the lock of the existing store `t.dir`: judges it, guards the
// settings, exchanges. `temp` then holds the old store.
Status ReplaceExisting(const Target& t, const ImportOptions& o, const Unpacked& u,
                       ImportReport* report) {
  LORE_ASSIGN(store::StoreLock lock,
              store::StoreLock::Acquire(t.dir, fs::LockMode::kExclusive, kSwapLockTimeout));
  if (o.overwrite == Overwrite::kRefuse) {
    LORE_ASSIGN(bool empty, IsEmptyStore(t.dir));
    if (!empty) {
      return Fail(ErrorCode::kExists, "store is not empty; import refused", t.dir, 0,
                  "import into another store with --repo <repo>, or pass --force to replace "
                  "this one (its current contents are lost)");
    }
  }
  LORE_TRY(GuardSettings(t.temp, t.dir, o.with_config, t.archive, report));
  report->injected = InjectedChanges(t.dir, t.temp);
  RestoreDirTimes(u);
  LORE_TRY(Exchange(t.root, t.key, t.temp, t.dir));
  return fs::SyncDir(t.root);
}

// Puts the new store in place. False (nothing done) when a store appeared at
// `t.dir` meanwhile.
Result<bool> PlaceNew(const Target& t, const ImportOptions& o, const Unpacked& u,
                      ImportReport* report) {
  LORE_TRY(GuardSettings(t.temp, t.dir, o.with_config, t.archive, report));
  report->injected = InjectedChanges(t.dir, t.temp);
  RestoreDirTimes(u);
  if (!Rename2(t.temp, t.dir, RENAME_NOREPLACE)) {
    if (errno == EEXIST || errno == ENOTEMPTY) return false;
    if (!NoRenameFlags(errno) || ::rename(t.temp.c_str(), t.dir.c_str()) != 0) {
      return tl::unexpected(
          fs::ErrnoError(errno, "cannot move the imported store into place", t.dir));
    }
  }
  LORE_TRY(fs::SyncDir(t.root));
  return true;
}

Status Swap(const Target& t, const ImportOptions& o, const Unpacked& u, ImportReport* report) {
  LORE_TRY(fs::RefuseSymlink(t.dir, "store directory"));
  if (!fs::Exists(t.dir)) {
    LORE_ASSIGN(bool placed, PlaceNew(t, o, u, report));
    if (placed) return Ok();
    *report = ImportReport{};  // a store appeared meanwhile: judge it
    // The settings were guarded against no store: undo that first.
    std::string aside = fs::Join(t.temp, kImportedConfig);
    if (fs::Exists(aside)) {
      (void)::unlink(fs::Join(t.temp, store::kConfigFile).c_str());
      if (::rename(aside.c_str(), fs::Join(t.temp, store::kConfigFile).c_str()) != 0) {
        return tl::unexpected(fs::ErrnoError(errno, "cannot restore", aside));
      }
    }
  }
  LORE_TRY(ReplaceExisting(t, o, u, report));
  // `temp` now holds the old store; the lock (on its inode) is released.
  // The import is done: a store that cannot be removed is only left over.
  (void)fs::RemoveTree(t.temp);
  return Ok();
}

}  // namespace

Result<ImportReport> Import(const std::string& archive_path, const std::string& stores_root,
                            const ImportOptions& options) {
  Target t;
  t.archive = fs::Absolute(archive_path);
  t.root = stores_root;
  LORE_TRY(fs::RefuseSymlink(fs::Dirname(stores_root), "parent of the stores root"));
  LORE_TRY(fs::MakeDirs(stores_root, 0700));
  t.temp = HiddenSibling(stores_root, "import", fs::TempKind::kNew);
  if (::mkdir(t.temp.c_str(), 0700) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot create directory", t.temp));
  }
  auto result = [&]() -> Result<ImportReport> {
    LORE_ASSIGN(Unpacked u, Unpack(t.archive, t.temp, options.limits));
    LORE_ASSIGN(t.key, TargetKey(options, u, t.archive));
    t.dir = fs::Join(stores_root, t.key);
    LORE_TRY(CheckUnpacked(stores_root, t.temp, t.archive));
    LORE_ASSIGN(ProposedImport proposed,
                ProposeImported(t.temp, t.archive, std::chrono::system_clock::now()));
    ImportReport report;
    LORE_TRY(Swap(t, options, u, &report));
    report.proposed_pages = proposed.pages;
    report.proposed_learnings = proposed.learnings;
    report.summary = Summary{t.key, t.dir, u.files, u.bytes};
    return report;
  }();
  if (!result) (void)fs::RemoveTree(t.temp);
  return result;
}

}  // namespace lore::archive
