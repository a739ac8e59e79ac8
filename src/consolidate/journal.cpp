#include "consolidate/journal.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "consolidate/paths.h"
#include "fs/atomic_file.h"
#include "lore/consolidate/staging.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/value.h"
#include "lore/store/store_lock.h"
#include "lore/testing/point.h"

namespace lore::consolidate {
namespace {

struct JournalFile {
  std::string shadow;  // store-relative, inside the run folder
  std::string target;  // store-relative, under memory/ or knowledge/
  uint64_t ino = 0;    // the shadow's inode: the target holds it once applied
};

struct Journal {
  std::string run_id;
  std::vector<JournalFile> files;
  std::vector<std::string> consumed_ids;
};

// Record writes hold the store lock for milliseconds; an export holds it
// (shared) while it reads the store.
constexpr std::chrono::milliseconds kCommitLockTimeout{60000};

constexpr const char* kJournalRepair =
    "move staging/.consolidation.journal away and check memory/ and knowledge/ by hand "
    "(the run it describes may be half applied)";

std::string RunDirRel(const std::string& run_id) {
  return std::string(kStagingDir) + "/.run-" + run_id;
}
std::string JournalPath(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kJournalName);
}

// Shadow files are written without an fsync each: one syncfs(2) of the whole
// file system makes them all durable before the journal is written.
Status WriteShadow(const std::string& path, std::string_view bytes, uint64_t* ino) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600));
  LORE_TRY(fs::WriteAll(fd.get(), bytes, path));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  *ino = st.st_ino;
  return Ok();
}

// Asks the file system to place each run folder made in `staging/` as if it
// were a top-level folder (FS_TOPDIR_FL; ext4's Orlov allocator then picks a
// block group with many free inodes), so that the run's shadow files are not
// created next to files deleted in the last minutes. ext4 without a journal
// skips every inode freed in the last 60-360 s, scanning them one by one on
// each create: thousands of deletions nearby (a previous run's trash, a test
// suite under /tmp) made each shadow cost up to 0.5 ms. Best effort: a file
// system without the flag keeps its own placement.
void SpreadRunFolders(const std::string& staging) {
  auto fd = fs::Open(staging, O_RDONLY | O_DIRECTORY);
  if (!fd) return;
  int flags = 0;
  if (::ioctl(fd->get(), FS_IOC_GETFLAGS, &flags) != 0 || (flags & FS_TOPDIR_FL)) return;
  flags |= FS_TOPDIR_FL;
  ::ioctl(fd->get(), FS_IOC_SETFLAGS, &flags);
}

Status SyncFileSystem(const std::string& dir) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(dir, O_RDONLY | O_DIRECTORY));
  if (::syncfs(fd.get()) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot sync the file system of", dir));
  return Ok();
}

// Creates the folders between the store and `target_rel`, refusing symlinks;
// `done` remembers the folders already checked.
Status PrepareParents(const store::Store& store, const std::string& target_rel,
                      std::set<std::string>& done) {
  size_t pos = 0;
  while ((pos = target_rel.find('/', pos)) != std::string::npos) {
    std::string rel = target_rel.substr(0, pos++);
    if (!done.insert(rel).second) continue;
    std::string dir = store.Path(rel);
    LORE_TRY(fs::RefuseSymlink(dir, "record folder"));
    LORE_TRY(fs::MakeDirs(dir, 0700));
  }
  return Ok();
}

Result<Journal> ParseJournal(const std::string& text, const std::string& path) {
  Json j = Json::parse(text, nullptr, false);
  auto bad = [&]() {
    return Fail(ErrorCode::kCorrupt, "consolidation journal is malformed", path, 0, kJournalRepair);
  };
  if (j.is_discarded() || !j.is_object() || !j.contains("run_id") || !j["run_id"].is_string() ||
      !j.contains("files") || !j["files"].is_array() || !j.contains("consumed_ids") ||
      !j["consumed_ids"].is_array()) {
    return bad();
  }
  Journal out;
  out.run_id = j["run_id"].get<std::string>();
  if (!IsStagedId(out.run_id)) return bad();
  std::string shadow_prefix = RunDirRel(out.run_id) + "/";
  for (const auto& f : j["files"]) {
    if (!f.is_array() || f.size() != 3 || !f[0].is_string() || !f[1].is_string() ||
        !f[2].is_number_unsigned()) {
      return bad();
    }
    JournalFile file{f[0].get<std::string>(), f[1].get<std::string>(), f[2].get<uint64_t>()};
    if (file.shadow.rfind(shadow_prefix, 0) != 0 || file.shadow.find("..") != std::string::npos ||
        file.shadow.find('/', shadow_prefix.size()) != std::string::npos ||
        !CheckStorePath(file.target, PathUse::kCommit)) {
      return bad();
    }
    out.files.push_back(std::move(file));
  }
  for (const auto& id : j["consumed_ids"]) {
    if (!id.is_string() || !IsStagedId(id.get<std::string>())) return bad();
    out.consumed_ids.push_back(id.get<std::string>());
  }
  return out;
}

std::string RenderJournal(const Journal& j) {
  Json files = Json::array();
  for (const auto& f : j.files) files.push_back(Json::array({f.shadow, f.target, f.ino}));
  return Json{{"run_id", j.run_id}, {"files", files}, {"consumed_ids", j.consumed_ids}}.dump() +
         "\n";
}

// Puts one shadow in place, unless it already is.
Status Place(const store::Store& store, const JournalFile& f) {
  std::string shadow = store.Path(f.shadow), target = store.Path(f.target);
  struct stat t, s;
  bool has_target = ::lstat(target.c_str(), &t) == 0;
  if (has_target && t.st_ino == f.ino) return Ok();  // done before
  if (::lstat(shadow.c_str(), &s) != 0 || s.st_ino != f.ino) {
    return Fail(ErrorCode::kCorrupt, "the consolidation journal does not match the files", target,
                0, kJournalRepair);
  }
  if (has_target && S_ISREG(t.st_mode) &&
      ::renameat2(AT_FDCWD, shadow.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    return Ok();
  }
  if (has_target && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP &&
      S_ISREG(t.st_mode)) {
    return tl::unexpected(
        fs::ErrnoError(errno, "cannot move the consolidated file into place", target));
  }
  if (::rename(shadow.c_str(), target.c_str()) !=
      0) {  // a new file, or no exchange on this file system
    return tl::unexpected(
        fs::ErrnoError(errno, "cannot move the consolidated file into place", target));
  }
  return Ok();
}

// Everything after the commit point; safe to repeat.
Status Apply(const store::Store& store, const Journal& j) {
  std::set<std::string> dirs, prepared;
  bool first = true;
  for (const auto& f : j.files) {
    LORE_TRY(PrepareParents(store, f.target, prepared));
    LORE_TRY(Place(store, f));
    dirs.insert(fs::Dirname(store.Path(f.target)));
    if (first) LORE_TRY(testing::Point(testing::kMidCommit));
    first = false;
  }
  for (const auto& d : dirs) LORE_TRY(fs::SyncDir(d));
  std::string consumed_dir = store.Path(RunDirRel(j.run_id) + "/consumed");
  LORE_TRY(fs::MakeDirs(consumed_dir, 0700));
  for (const auto& id : j.consumed_ids) {
    std::string p = StagedPath(store, id);
    if (::rename(p.c_str(), fs::Join(consumed_dir, id + ".json").c_str()) != 0 && errno != ENOENT) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot remove the consumed staged entry", p));
    }
  }
  std::string staging = store.Path(kStagingDir);
  LORE_TRY(fs::SyncDir(staging));
  std::string journal = JournalPath(store);
  if (::unlink(journal.c_str()) != 0 && errno != ENOENT) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot remove", journal));
  }
  return fs::SyncDir(staging);
}

// Removes run folders that never committed, and trash left by a remover
// that died (older than ten minutes, so never one at work).
void Sweep(const store::Store& store) {
  std::string staging = store.Path(kStagingDir);
  auto entries = fs::ListDirBeneath(store.dir(), kStagingDir, fs::ListStat::kFull);
  if (!entries) return;
  time_t now = ::time(nullptr);
  for (const auto& e : *entries) {
    const std::string& name = e.name;
    bool old = now - e.mtime > 600;
    if (name.starts_with(".run-") || (name.starts_with(".trash-") && old)) {
      (void)fs::RemoveTree(fs::Join(staging, name));
    } else if (name[0] == '.' && name.find(".tmp.") != std::string::npos && e.is_file && old) {
      ::unlink(fs::Join(staging, name).c_str());  // a stager that died mid-write
    }
  }
}

}  // namespace

Result<CommitOutcome> CommitRun(const store::Store& store, const std::string& run_id,
                                const std::vector<Workspace::Change>& changes,
                                const std::map<std::string, FileId>& baselines,
                                const std::vector<std::string>& consumed_ids) {
  Journal j{run_id, {}, consumed_ids};
  std::string run_dir = store.Path(RunDirRel(run_id));
  SpreadRunFolders(store.Path(kStagingDir));
  LORE_TRY(fs::MakeDirs(run_dir, 0700));
  auto fail = [&](Error e) {
    (void)fs::RemoveTree(run_dir);
    return tl::unexpected(std::move(e));
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    const auto& c = changes[i];
    if (!CheckStorePath(c.rel, PathUse::kCommit)) {
      return fail(Error{ErrorCode::kInternal,
                        "refusing to commit a path outside memory/ and knowledge/", c.rel, 0,
                        "report this bug"});
    }
    JournalFile f{RunDirRel(run_id) + "/" + std::to_string(i), c.rel, 0};
    if (auto s = WriteShadow(store.Path(f.shadow), c.bytes, &f.ino); !s) return fail(s.error());
    j.files.push_back(std::move(f));
  }
  if (auto s = SyncFileSystem(run_dir); !s) return fail(s.error());
  if (auto s = testing::Point(testing::kBeforeCommit); !s) return fail(s.error());
  // From the re-check to the end of Apply no record write can land: they
  // take the same lock.
  auto lock = store::StoreLock::Acquire(store.dir(), fs::LockMode::kExclusive, kCommitLockTimeout);
  if (!lock) return fail(lock.error());
  for (const auto& id : consumed_ids) {
    if (!fs::Exists(StagedPath(store, id))) {
      return fail(Error{ErrorCode::kBusy, "a staged entry of the run vanished while it ran",
                        StagedPath(store, id), 0,
                        "nothing was changed; check whether the store was replaced (lore import) "
                        "and run the consolidation again"});
    }
  }
  for (const auto& c : changes) {
    auto it = baselines.find(c.rel);
    auto now = IdentifyContent(store.Path(c.rel));
    if (!now) return fail(now.error());
    if (it == baselines.end() || !(it->second == *now)) {
      (void)fs::RemoveTree(run_dir);
      return CommitOutcome{false, c.rel};
    }
  }
  if (auto s = fs::WriteFileAtomic(JournalPath(store), RenderJournal(j)); !s) {
    // A failure after the rename (the folder's fsync) leaves the journal in
    // place: that is the commit, and Apply (or the next Recover) needs the
    // shadow files it names.
    if (!fs::Exists(JournalPath(store))) return fail(s.error());
  }
  // Committed: from here on, a failure is finished by Recover().
  LORE_TRY(Apply(store, j));
  return CommitOutcome{true, {}};
}

Error ConflictError(const store::Store& store, const std::string& rel, int attempts) {
  return Error{ErrorCode::kBusy,
               "changed while the consolidation ran (" + std::to_string(attempts) +
                   (attempts == 1 ? " attempt)" : " attempts)"),
               store.Path(rel), 0,
               "nothing was changed; the staged entries stay for the next consolidation"};
}

std::string RemoveRunFolder(const store::Store& store, const std::string& run_id, Removal how) {
  std::string dir = store.Path(RunDirRel(run_id));
  if (how == Removal::kLater) {
    std::string trash = store.Path(std::string(kStagingDir) + "/.trash-" + run_id);
    if (::rename(dir.c_str(), trash.c_str()) == 0) {
      // Sweep's ten minutes count from now, not from the run's last write.
      ::utimensat(AT_FDCWD, trash.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
      return trash;
    }
  }
  (void)fs::RemoveTree(dir);
  return {};
}

void RemoveTrash(const std::vector<std::string>& trash) {
  for (const auto& t : trash) (void)fs::RemoveTree(t);
}

Status CheckJournal(const store::Store& store) {
  const std::string path = JournalPath(store);
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return Ok();
    return tl::unexpected(text.error());
  }
  LORE_TRY(ParseJournal(*text, path));
  return Ok();
}

Result<std::string> Recover(const store::Store& store) {
  std::string path = JournalPath(store);
  auto text = fs::ReadFile(path, fs::Kind::kState);
  std::string run_id;
  if (text) {
    LORE_ASSIGN(Journal j, ParseJournal(*text, path));
    // Under the store lock, as the commit it finishes: a record write waiting
    // meanwhile lands after it, never under it.
    LORE_ASSIGN(auto lock, store::StoreLock::Acquire(store.dir(), fs::LockMode::kExclusive,
                                                     kCommitLockTimeout));
    LORE_TRY(Apply(store, j));
    run_id = j.run_id;
  } else if (text.error().code != ErrorCode::kNotFound) {
    return tl::unexpected(text.error());
  }
  Sweep(store);
  return run_id;
}

}  // namespace lore::consolidate
