#include "lore/consolidate/runner.h"

#include <unistd.h>

#include <cerrno>
#include <exception>

#include "consolidate/journal.h"
#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/sys/process.h"
#include "lore/sys/uuid.h"
#include "lore/testing/point.h"

namespace lore::consolidate {
namespace {

using Clock = std::chrono::system_clock;

// Runs of the engine on one snapshot of staged entries before a run that
// keeps finding its targets changed gives up.
constexpr int kMaxAttempts = 3;

std::string FlushPath(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kFlushName);
}

// Removes the flush marker; true when there was one.
bool TakeFlushRequest(const store::Store& store) { return ::unlink(FlushPath(store).c_str()) == 0; }

Error ReclaimWarning(const RunLock::Attempt& a, const std::string& path) {
  std::string who = a.reclaimed ? "pid " + std::to_string(a.reclaimed->pid) + " on " +
                                      a.reclaimed->pod_name + ", started " + a.reclaimed->started_at
                                : "unreadable body";
  return Error{ErrorCode::kBusy, "reclaimed the lock of a consolidation that died (" + who + ")",
               path, 0, "its staged entries were kept; this run consumes them"};
}

// Moves an entry that does not parse out of the way, so that it cannot block
// every run after it.
Error SetAside(const store::Store& store, const std::string& id, const Error& why) {
  std::string dir = fs::Join(store.Path(kStagingDir), kInvalidDir);
  std::string to = fs::Join(dir, id + ".json");
  if (fs::MakeDirs(dir, 0700)) ::rename(StagedPath(store, id).c_str(), to.c_str());
  return Error{ErrorCode::kCorrupt, "set aside an invalid staged entry (" + why.what + ")", to, 0,
               "fix it and move it back into staging/, or delete it"};
}

struct Loaded {
  std::vector<ConsumedEntry> entries;
  std::vector<std::string> invalid;
};

Loaded LoadEntries(const store::Store& store, const std::vector<StagedFile>& files,
                   std::vector<Error>& warnings) {
  Loaded out;
  for (const auto& f : files) {
    std::string path = StagedPath(store, f.id);
    auto text = fs::ReadFile(path, fs::Kind::kState);
    if (!text) {
      if (text.error().code == ErrorCode::kNotFound) continue;
      warnings.push_back(text.error());
      continue;
    }
    auto entry = ParseStagedEntry(*text, path);
    if (!entry) {
      warnings.push_back(SetAside(store, f.id, entry.error()));
      out.invalid.push_back(f.id);
      continue;
    }
    out.entries.push_back({f.id, std::move(*entry)});
  }
  return out;
}

RunRecord OneRun(const store::Store& store, const Settings& settings, Engine& engine, RunLock& lock,
                 const std::vector<StagedFile>& files, std::vector<Error>& warnings) {
  RunRecord rec;
  auto now = Clock::now();
  rec.run_id = sys::NewUuidV7(now);
  rec.engine = std::string(engine.name());
  rec.started_at = text::UtcMillis(now);
  auto finish = [&](const Error* e) {
    rec.finished_at = text::UtcMillis(Clock::now());
    rec.outcome = e ? "failed" : "ok";
    if (e) rec.error = e->Format();
    if (auto s = WriteLastRun(store, rec); !s) warnings.push_back(s.error());
    return rec;
  };
  Loaded loaded = LoadEntries(store, files, warnings);
  rec.invalid_ids = loaded.invalid;
  for (const auto& c : loaded.entries) rec.consumed_ids.push_back(c.id);
  if (auto s = lock.Publish({::getpid(), sys::HostName(), rec.started_at, rec.consumed_ids}); !s) {
    return finish(&s.error());
  }
  if (auto s = testing::Point(testing::kAfterSnapshot); !s) return finish(&s.error());
  if (loaded.entries.empty()) return finish(nullptr);
  // A target changed by someone else between the run's read and its commit
  // (a record edit) is never overwritten: the engine runs again on the new
  // state, a few times at most, then the run fails with nothing changed.
  for (int attempt = 1;; ++attempt) {
    Workspace ws(store.dir());
    RunInput in{rec.run_id, now, loaded.entries, &settings, &store};
    // A bug in an engine fails the run, said in its state (the next session's
    // "memory may be stale" line), instead of ending the process unrecorded.
    auto notes = [&]() -> Result<std::vector<std::string>> {
      try {
        return engine.Run(in, ws);
      } catch (const std::exception& x) {
        return tl::unexpected(
            Error{ErrorCode::kInternal,
                  std::string("the ") + std::string(engine.name()) + " engine failed: " + x.what(),
                  store.Path(kStagingDir), 0,
                  "nothing was changed; the staged entries stay; report this "
                  "bug"});
      }
    }();
    if (!notes) return finish(&notes.error());
    auto changes = ws.Changes();
    auto commit = CommitRun(store, rec.run_id, changes, ws.Baselines(), rec.consumed_ids);
    if (!commit) return finish(&commit.error());
    if (commit->committed) {
      rec.notes.insert(rec.notes.end(), notes->begin(), notes->end());
      for (const auto& c : changes) rec.changed.push_back(c.rel);
      break;
    }
    if (attempt == kMaxAttempts) {
      Error e = ConflictError(store, commit->changed, attempt);
      return finish(&e);
    }
    rec.notes.push_back("ran again: " + commit->changed + " changed while the run worked");
  }
  if (auto s = testing::Point(testing::kAfterCommit); !s) return finish(&s.error());
  return finish(nullptr);
}

// Whether the staging folder calls for a run.
Result<bool> Due(const store::Store& store, const Settings& settings, bool flush,
                 std::vector<StagedFile>* files = nullptr) {
  LORE_ASSIGN(auto staged, ListStaged(store));
  bool due = !staged.empty() && (flush || AtThreshold(Totals(staged), settings));
  if (files) *files = std::move(staged);
  return due;
}

// One tenure of the lock: recover, then run while due. False when busy.
Result<bool> HoldAndRun(const store::Store& store, const Settings& settings, Engine& engine,
                        bool flush, ConsolidateReport& report) {
  LORE_ASSIGN(auto attempt, RunLock::TryAcquire(store));
  if (!attempt.lock) {
    report.busy = true;
    report.holder = attempt.holder;
    return false;
  }
  RunLock& lock = *attempt.lock;
  if (attempt.reclaimed || attempt.reclaimed_empty)
    report.warnings.push_back(ReclaimWarning(attempt, lock.path()));
  LORE_TRY(testing::Point(testing::kAfterLock));
  LORE_ASSIGN(std::string rolled, Recover(store));
  if (!rolled.empty()) {
    report.warnings.push_back(
        Error{ErrorCode::kIo, "finished the commit of run " + rolled + ", which was interrupted",
              fs::Join(store.Path(kStagingDir), kJournalName), 0,
              "nothing to do: memory/ and knowledge/ are now fully updated"});
  }
  size_t first_run = report.runs.size();
  for (;;) {
    flush = TakeFlushRequest(store) || flush;
    std::vector<StagedFile> files;
    LORE_ASSIGN(bool due, Due(store, settings, flush, &files));
    if (!due) break;
    report.runs.push_back(OneRun(store, settings, engine, lock, files, report.warnings));
    if (report.runs.back().outcome != "ok") break;  // retried by the next trigger
  }
  lock.Release();
  // What the commits displaced (old versions, consumed entries) is moved
  // aside; the caller frees it after reporting (on a busy disk that costs
  // milliseconds per file).
  for (size_t i = first_run; i < report.runs.size(); ++i) {
    if (report.runs[i].outcome != "ok") continue;
    std::string trash = RemoveRunFolder(store, report.runs[i].run_id, Removal::kLater);
    if (!trash.empty()) report.trash.push_back(std::move(trash));
  }
  return true;
}

}  // namespace

bool ConsolidateReport::failed() const {
  for (const auto& r : runs) {
    if (r.outcome != "ok") return true;
  }
  return false;
}

Result<ConsolidateReport> Consolidate(const store::Store& store, const Settings& settings,
                                      Engine& engine, const ConsolidateOptions& options) {
  ConsolidateReport report;
  LORE_TRY(EnsureStagingDir(store));
  bool flush = options.flush;
  for (int tenure = 0; tenure < 1000; ++tenure) {
    LORE_ASSIGN(bool held, HoldAndRun(store, settings, engine, flush, report));
    if (!held) {
      // Flushing while another run holds the lock: ask it to flush, then try
      // once more. Still busy means the holder will see the request (it
      // looks after releasing the lock, which is after this attempt).
      if (!flush || report.flush_left) break;
      LORE_TRY(fs::WriteFileAtomic(FlushPath(store), ""));
      report.flush_left = true;
      continue;
    }
    report.busy = false;
    report.holder.reset();
    report.flush_left = false;
    if (report.failed()) break;
    // An entry staged while we released: its trigger saw the lock held.
    flush = fs::Exists(FlushPath(store));
    LORE_ASSIGN(bool due, Due(store, settings, flush));
    if (!due) break;
  }
  LORE_ASSIGN(auto left, ListStaged(store));
  report.left = Totals(left);
  return report;
}

Result<std::vector<Error>> RecoverIfIdle(const store::Store& store) {
  std::vector<Error> out;
  if (!fs::Exists(fs::Join(store.Path(kStagingDir), kJournalName))) return out;
  LORE_ASSIGN(auto attempt, RunLock::TryAcquire(store));
  if (!attempt.lock) return out;
  if (attempt.reclaimed || attempt.reclaimed_empty)
    out.push_back(ReclaimWarning(attempt, attempt.lock->path()));
  LORE_ASSIGN(std::string rolled, Recover(store));
  if (!rolled.empty()) {
    out.push_back(Error{ErrorCode::kIo,
                        "finished the commit of run " + rolled + ", which was interrupted",
                        fs::Join(store.Path(kStagingDir), kJournalName), 0,
                        "nothing to do: memory/ and knowledge/ are now fully updated"});
  }
  attempt.lock->Release();
  return out;
}

}  // namespace lore::consolidate
