#include "lore/consolidate/journal.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>
#include <nlohmann/json.hpp>
#include <set>

#include "lore/consolidate/paths.h"
#include "lore/consolidate/staging.h"
#include "lore/consolidate/test_hook.h"
#include "lore/fs/atomic_file.h"
#include "lore/fs/fd.h"

namespace lore::consolidate {
namespace {

using Json = nlohmann::ordered_json;

struct Journal {
  std::string run_id;
  std::vector<std::pair<std::string, std::string>> files;  // shadow, target (store-relative)
  std::vector<std::string> consumed_ids;
};

constexpr const char* kJournalRepair =
    "move staging/.consolidation.journal away and check memory/ and knowledge/ by hand "
    "(the run it describes may be half applied)";

std::string RunDirRel(const std::string& run_id) { return std::string(kStagingDir) + "/.run-" + run_id; }

std::string JournalPath(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kJournalName);
}

// Removes a run's shadow folder (flat: lore writes only files into it).
void RemoveRunDir(const std::string& dir) {
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      if (e->d_name[0] == '.' && (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0))) continue;
      ::unlinkat(::dirfd(d), e->d_name, 0);
    }
    ::closedir(d);
  }
  ::rmdir(dir.c_str());
}

Status WriteShadow(const std::string& path, std::string_view bytes) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600));
  LORE_TRY(fs::WriteAll(fd.get(), bytes, path));
  if (::fsync(fd.get()) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot sync", path));
  return Ok();
}

// Creates the folders between the store and `target_rel`, refusing symlinks.
Status PrepareParents(const store::Store& store, const std::string& target_rel) {
  size_t pos = 0;
  while ((pos = target_rel.find('/', pos)) != std::string::npos) {
    std::string dir = store.Path(target_rel.substr(0, pos));
    LORE_TRY(fs::RefuseSymlink(dir, "record folder"));
    LORE_TRY(fs::MakeDirs(dir, 0700));
    ++pos;
  }
  return Ok();
}

Result<Journal> ParseJournal(const std::string& text, const std::string& path) {
  Json j = Json::parse(text, nullptr, false);
  auto bad = [&]() { return Fail(ErrorCode::kCorrupt, "consolidation journal is malformed", path, 0, kJournalRepair); };
  if (j.is_discarded() || !j.is_object() || !j.contains("run_id") || !j["run_id"].is_string() ||
      !j.contains("files") || !j["files"].is_array() || !j.contains("consumed_ids") ||
      !j["consumed_ids"].is_array()) {
    return bad();
  }
  Journal out;
  out.run_id = j["run_id"].get<std::string>();
  std::string shadow_prefix = RunDirRel(out.run_id) + "/";
  for (const auto& f : j["files"]) {
    if (!f.is_array() || f.size() != 2 || !f[0].is_string() || !f[1].is_string()) return bad();
    std::string from = f[0].get<std::string>(), to = f[1].get<std::string>();
    if (from.rfind(shadow_prefix, 0) != 0 || from.find("..") != std::string::npos ||
        !CheckStorePath(to, PathUse::kCommit)) {
      return bad();
    }
    out.files.emplace_back(std::move(from), std::move(to));
  }
  for (const auto& id : j["consumed_ids"]) {
    if (!id.is_string() || !IsStagedId(id.get<std::string>())) return bad();
    out.consumed_ids.push_back(id.get<std::string>());
  }
  return out;
}

std::string RenderJournal(const Journal& j) {
  Json files = Json::array();
  for (const auto& [from, to] : j.files) files.push_back(Json::array({from, to}));
  Json out = {{"run_id", j.run_id}, {"files", files}, {"consumed_ids", j.consumed_ids}};
  return out.dump() + "\n";
}

// Everything after the commit point; safe to repeat.
Status Apply(const store::Store& store, const Journal& j) {
  std::set<std::string> dirs;
  bool first = true;
  for (const auto& [from, to] : j.files) {
    LORE_TRY(PrepareParents(store, to));
    std::string shadow = store.Path(from), target = store.Path(to);
    if (::rename(shadow.c_str(), target.c_str()) != 0) {
      int err = errno;
      if (err != ENOENT || fs::Exists(shadow)) {
        return tl::unexpected(fs::ErrnoError(err, "cannot move the consolidated file into place", target));
      }
    }
    dirs.insert(fs::Dirname(target));
    if (first) LORE_TRY(TestHook("mid-commit"));
    first = false;
  }
  for (const auto& d : dirs) LORE_TRY(fs::SyncDir(d));
  for (const auto& id : j.consumed_ids) {
    std::string p = StagedPath(store, id);
    if (::unlink(p.c_str()) != 0 && errno != ENOENT) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot remove the consumed staged entry", p));
    }
  }
  std::string staging = store.Path(kStagingDir);
  LORE_TRY(fs::SyncDir(staging));
  std::string journal = JournalPath(store);
  if (::unlink(journal.c_str()) != 0 && errno != ENOENT) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot remove", journal));
  }
  LORE_TRY(fs::SyncDir(staging));
  RemoveRunDir(store.Path(RunDirRel(j.run_id)));
  return Ok();
}

// Removes shadow folders of runs that never committed, and temporary files
// of stagers that died (older than ten minutes, so never one in flight).
void Sweep(const store::Store& store) {
  std::string staging = store.Path(kStagingDir);
  DIR* d = ::opendir(staging.c_str());
  if (!d) return;
  time_t now = ::time(nullptr);
  std::vector<std::string> runs;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    struct stat st;
    if (name.rfind(".run-", 0) == 0) {
      runs.push_back(name);
    } else if (name[0] == '.' && name.find(".tmp.") != std::string::npos &&
               ::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
               S_ISREG(st.st_mode) && now - st.st_mtime > 600) {
      ::unlinkat(::dirfd(d), e->d_name, 0);
    }
  }
  ::closedir(d);
  for (const auto& r : runs) RemoveRunDir(fs::Join(staging, r));
}

}  // namespace

Status CommitRun(const store::Store& store, const std::string& run_id,
                 const std::vector<Workspace::Change>& changes,
                 const std::map<std::string, FileId>& baselines,
                 const std::vector<std::string>& consumed_ids) {
  Journal j{run_id, {}, consumed_ids};
  std::string run_dir = store.Path(RunDirRel(run_id));
  LORE_TRY(fs::MakeDirs(run_dir, 0700));
  auto fail = [&](Error e) {
    RemoveRunDir(run_dir);
    return tl::unexpected(std::move(e));
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    const auto& c = changes[i];
    if (!CheckStorePath(c.rel, PathUse::kCommit)) {
      return fail(Error{ErrorCode::kInternal, "refusing to commit a path outside memory/ and knowledge/",
                        c.rel, 0, "report this bug"});
    }
    std::string from = RunDirRel(run_id) + "/" + std::to_string(i);
    if (auto s = WriteShadow(store.Path(from), c.bytes); !s) return fail(s.error());
    j.files.emplace_back(from, c.rel);
  }
  if (auto s = fs::SyncDir(run_dir); !s) return fail(s.error());
  for (const auto& c : changes) {
    auto it = baselines.find(c.rel);
    auto now = IdentifyFile(store.Path(c.rel));
    if (!now) return fail(now.error());
    if (it == baselines.end() || !(it->second == *now)) {
      return fail(Error{ErrorCode::kBusy, "changed while the consolidation ran", store.Path(c.rel), 0,
                        "nothing was changed; the staged entries stay for the next consolidation"});
    }
  }
  if (auto s = TestHook("before-commit"); !s) return fail(s.error());
  if (auto s = fs::WriteFileAtomic(JournalPath(store), RenderJournal(j)); !s) return fail(s.error());
  // Committed: from here on, a failure is finished by Recover().
  return Apply(store, j);
}

Result<std::string> Recover(const store::Store& store) {
  std::string path = JournalPath(store);
  auto text = fs::ReadFile(path);
  std::string run_id;
  if (text) {
    LORE_ASSIGN(Journal j, ParseJournal(*text, path));
    LORE_TRY(Apply(store, j));
    run_id = j.run_id;
  } else if (text.error().code != ErrorCode::kNotFound) {
    return tl::unexpected(text.error());
  }
  Sweep(store);
  return run_id;
}

}  // namespace lore::consolidate
