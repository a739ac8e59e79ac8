#include "lore/app/status.h"

#include <fcntl.h>
#include "consolidate/report.h"
#include "lore/consolidate/runner.h"

#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/hook/session.h"
#include "lore/json/value.h"

namespace lore::app {

namespace cons = consolidate;

Result<StatusView> Status(const store::Store& store, const cons::Settings& settings,
                          Recovery recovery) {
  StatusView v;
  v.settings = settings;
  if (recovery == Recovery::kFinish) {
    LORE_ASSIGN(v.warnings, cons::RecoverIfIdle(store));
  }
  LORE_ASSIGN(std::vector<cons::StagedFile> staged, cons::ListStaged(store));
  LORE_ASSIGN(std::optional<cons::LockView> lock, cons::InspectRunLock(store));
  LORE_ASSIGN(v.last_run, cons::ReadLastRun(store));
  if (auto f = extract::LastExtractFailure(store); !f) {
    v.warnings.push_back(f.error());
  } else {
    v.failed_extract = *f;
  }
  if (auto l = extract::LastExtract(store); !l) {
    v.warnings.push_back(l.error());
  } else {
    v.last_extract = *l;
  }
  if (auto u = extract::ReadModelUsage(store, std::chrono::system_clock::now()); !u) {
    v.warnings.push_back(u.error());
  } else {
    v.model_usage = *u;
  }
  // lore-llm holds extract/.model-run.lock (an flock) for a whole model run;
  // a shared try that fails means one is running. Nothing is created.
  if (auto fd = fs::OpenBeneath(store.dir(), "extract/.model-run.lock", O_RDONLY)) {
    auto probe = fs::LockFd(fd->get(), fs::LockMode::kShared, store.Path("extract/.model-run.lock"),
                            std::chrono::milliseconds(0));
    v.model_running = !probe && probe.error().code == ErrorCode::kBusy;
  }
  if (auto pending = hook::PendingProposals(store); !pending) {
    v.warnings.push_back(pending.error());
  } else {
    v.pending_proposals = *pending;
  }
  v.staged = cons::Totals(staged);
  v.due = cons::AtThreshold(v.staged, settings);
  if (lock && lock->alive) v.running = lock->body;
  v.stale_lock = lock && !lock->alive;
  return v;
}

Result<StatusView> ReadOnlyStatus(const store::Store& store) {
  LORE_ASSIGN(cons::Settings settings, cons::LoadSettings(store));
  return Status(store, settings, Recovery::kReadOnly);
}

Json StatusJson(const StatusView& v) {
  Json j;
  j["staged"] = {{"files", v.staged.files}, {"bytes", v.staged.bytes}};
  j["thresholds"] = {{"files", v.settings.threshold_files}, {"bytes", v.settings.threshold_bytes}};
  j["due"] = v.due;
  j["running"] = nullptr;
  if (v.running) {
    j["running"] = {{"pid", v.running->pid},
                    {"pod_name", v.running->pod_name},
                    {"started_at", v.running->started_at},
                    {"consumed_ids", v.running->consumed_ids}};
  }
  j["stale_lock"] = v.stale_lock;
  j["last_run"] = v.last_run ? Json::parse(cons::RenderRunRecord(*v.last_run)) : Json();
  j["failed_extract"] = Json();
  if (v.failed_extract) {
    j["failed_extract"] = {{"at", v.failed_extract->at},
                           {"session_id", v.failed_extract->session_id},
                           {"error", v.failed_extract->error}};
  }
  j["last_extract"] = Json();
  if (const auto& l = v.last_extract) {
    j["last_extract"] = {{"at", l->at},
                         {"session_id", l->session_id},
                         {"engine", l->engine},
                         {"outcome", l->outcome},
                         {"error", l->error}};
  }
  j["model_usage"] = {{"day", v.model_usage.day},
                      {"tokens", v.model_usage.tokens},
                      {"runs", v.model_usage.runs},
                      {"max_tokens_per_day", v.settings.llm_max_tokens_per_day},
                      {"running", v.model_running}};
  j["pending_proposals"] = v.pending_proposals;
  return j;
}

std::vector<std::string> StatusText(const StatusView& v, std::string_view repo) {
  std::vector<std::string> out;
  // First, when there are any: the person learns here that proposals wait
  // (Claude Code shows no end-of-session message at /exit).
  if (v.pending_proposals > 0) {
    out.push_back("proposals: " + std::to_string(v.pending_proposals) +
                  (v.pending_proposals == 1 ? " awaits" : " await") + " your review: lore review " +
                  hook::ShellWord(repo));
  }
  out.push_back("staged: " + cons::DescribeTotals(v.staged, v.settings) + (v.due ? ", due" : ""));
  if (!v.running) {
    out.push_back(v.stale_lock
                      ? "running: none (a dead run's lock remains; the next run reclaims it)"
                      : "running: none");
  } else {
    out.push_back("running: pid " + std::to_string(v.running->pid) + " on " + v.running->pod_name +
                  " since " + v.running->started_at + ", consuming " +
                  std::to_string(v.running->consumed_ids.size()) + " entries");
  }
  if (const auto& f = v.failed_extract) {
    out.push_back("memory may be stale: extracting session " + f->session_id + " failed at " +
                  f->at + ": " + f->error);
  }
  if (const auto& l = v.last_extract) {
    out.push_back("last extract: session " + l->session_id + " (" + l->engine + ") " + l->outcome +
                  " at " + l->at + (l->error.empty() ? "" : ": " + l->error));
  }
  if (v.model_running) out.push_back("model run: running (extraction, consolidation or digest)");
  if (v.model_usage.runs > 0) {
    out.push_back("model runs today: " + std::to_string(v.model_usage.runs) + ", " +
                  std::to_string(v.model_usage.tokens) + " tokens" +
                  (v.settings.llm_max_tokens_per_day > 0
                       ? " of " + std::to_string(v.settings.llm_max_tokens_per_day)
                       : std::string()));
  }
  if (!v.last_run) {
    out.push_back("last run: none");
    return out;
  }
  // As the record renders (the same fields as in the JSON).
  const Json l = Json::parse(cons::RenderRunRecord(*v.last_run));
  std::string line = "last run: " + l["run_id"].get<std::string>() + " (" +
                     l["engine"].get<std::string>() + ") " + l["outcome"].get<std::string>() +
                     " at " + l["finished_at"].get<std::string>() + ", consumed " +
                     std::to_string(l["consumed_ids"].size()) + ", changed " +
                     std::to_string(l["changed"].size()) + " files";
  if (!l["error"].is_null()) line += ": " + l["error"].get<std::string>();
  out.push_back(line);
  return out;
}

}  // namespace lore::app
