// Verbs of issue 6: stage, consolidate, status (docs/consolidation.md).
#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/consolidate/journal.h"
#include "lore/consolidate/report.h"
#include "lore/consolidate/rules_engine.h"
#include "lore/consolidate/run_state.h"
#include "lore/consolidate/runner.h"
#include "lore/distill/distill.h"
#include "lore/extract/extract.h"
#include "lore/fs/fd.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

namespace cons = lore::consolidate;

struct ConsolidateArgs {
  std::string repo;
  bool flush = false;
  bool foreground = false;
  bool team_locked = false;  // run by lore-team under the team's advisory lock
  std::string engine;        // empty: from config.toml
};

// After a consolidation that changed memory, okf/ is distilled again, so that
// the bundle the SessionStart context names is never behind memory. A failure
// is a warning and is recorded on the run (lore status, the next context).
void RefreshBundle(const store::Store& store, const cons::ConsolidateReport& report) {
  bool changed = false;
  for (const auto& r : report.runs) changed = changed || (r.outcome == "ok" && !r.changed.empty());
  if (!changed) return;
  auto summary = distill::Distill(store);
  std::string error = summary ? "" : summary.error().Format();
  if (!summary) ReportWarning(summary.error());
  if (auto s = cons::RecordDistill(store, error); !s) ReportWarning(s.error());
}

Result<store::Store> OpenStore(const std::string& repo) {
  LORE_ASSIGN(store::Store store, store::Store::Locate(repo, store::Env::FromProcess()));
  LORE_TRY(store.Ensure(std::chrono::system_clock::now(), store::RawCheck::kSkip));
  return store;
}

std::vector<std::string> ForegroundArgv(const std::string& exe, const ConsolidateArgs& a) {
  std::vector<std::string> argv{exe, "consolidate", a.repo, "--foreground"};
  if (a.flush) argv.push_back("--flush");
  if (!a.engine.empty()) argv.insert(argv.end(), {"--engine", a.engine});
  return argv;
}

// After `stage`: starts a background consolidation when the folder is at a
// threshold and none is running. Problems are warnings: the entry is staged.
void MaybeTrigger(const store::Store& store, const std::string& repo) {
  auto settings = cons::LoadSettings(store);
  if (!settings) return ReportWarning(settings.error());
  auto staged = cons::ListStaged(store);
  if (!staged) return ReportWarning(staged.error());
  if (!cons::AtThreshold(cons::Totals(*staged), *settings)) return;
  auto lock = cons::InspectRunLock(store);
  if (lock && *lock && (*lock)->alive) return;  // the running one coalesces
  auto exe = proc::SelfExe();
  if (!exe) return ReportWarning(exe.error());
  ConsolidateArgs run;
  run.repo = repo;
  run.foreground = true;
  if (auto s = proc::StartDetached(ForegroundArgv(*exe, run), "consolidation"); !s) {
    ReportWarning(s.error());
  }
}

int RunStage(const std::string& repo) {
  auto input = ReadStdin();
  if (!input) return ReportError(input.error());
  auto store = OpenStore(repo);
  if (!store) return ReportError(store.error());
  auto id = cons::Stage(*store, *input, std::chrono::system_clock::now());
  if (!id) return ReportError(id.error());
  Print(*id);
  MaybeTrigger(*store, repo);
  return kExitOk;
}

// Replaces this process with lore-llm.
int ExecLlm(const ConsolidateArgs& a) {
  std::vector<std::string> args{"consolidate", a.repo};
  if (a.flush) args.push_back("--flush");
  return ExecLoreLlm(std::move(args), "use --engine rules");
}

int RunConsolidate(const ConsolidateArgs& a) {
  auto store = OpenStore(a.repo);
  if (!store) return ReportError(store.error());
  if (!a.foreground) {
    auto exe = proc::SelfExe();
    if (!exe) return ReportError(exe.error());
    if (auto s = proc::StartDetached(ForegroundArgv(*exe, a), "consolidation"); !s)
      return ReportError(s.error());
    Print("started a consolidation in the background; 'lore status' shows it");
    return kExitOk;
  }
  if (!a.team_locked && TeamConfigured(*store)) {
    // One machine of the team at a time: lore-team takes the advisory lock
    // and runs this again with --team-locked (alone when the server is away).
    std::vector<std::string> args{"consolidate", a.repo};
    if (a.flush) args.push_back("--flush");
    if (!a.engine.empty()) args.insert(args.end(), {"--engine", a.engine});
    return ExecLoreTeam(std::move(args));
  }
  auto settings = cons::LoadSettings(*store);
  if (!settings) return ReportError(settings.error());
  std::string engine = a.engine.empty() ? settings->engine : a.engine;
  if (engine == "llm") return ExecLlm(a);
  cons::RulesEngine rules;
  auto report = cons::Consolidate(*store, *settings, rules, {a.flush});
  if (!report) return ReportError(report.error());
  for (const auto& w : report->warnings) ReportWarning(w);
  auto text = cons::DescribeReport(*report, *settings);
  for (const auto& line : text.lines) Print(line);
  cons::RemoveTrash(report->trash);  // after the report: the caller need not wait for it
  RefreshBundle(*store, *report);
  return text.exit_code;
}

Json StatusJson(const cons::StagingTotals& totals, const cons::Settings& s,
                const std::optional<cons::LockView>& lock,
                const std::optional<cons::RunRecord>& last,
                const std::optional<extract::ExtractFailure>& failed_extract) {
  Json j;
  j["staged"] = {{"files", totals.files}, {"bytes", totals.bytes}};
  j["thresholds"] = {{"files", s.threshold_files}, {"bytes", s.threshold_bytes}};
  j["due"] = cons::AtThreshold(totals, s);
  j["running"] = nullptr;
  if (lock && lock->alive) {
    j["running"] = {{"pid", lock->body.pid},
                    {"pod_name", lock->body.pod_name},
                    {"started_at", lock->body.started_at},
                    {"consumed_ids", lock->body.consumed_ids}};
  }
  j["stale_lock"] = lock && !lock->alive;
  j["last_run"] = last ? Json::parse(cons::RenderRunRecord(*last)) : Json();
  // The hooks run extract detached, where nobody reads its stderr.
  j["failed_extract"] = Json();
  if (failed_extract) {
    j["failed_extract"] = {{"at", failed_extract->at},
                           {"session_id", failed_extract->session_id},
                           {"error", failed_extract->error}};
  }
  return j;
}

void PrintStatusText(const Json& j, const cons::StagingTotals& totals, const cons::Settings& s) {
  Print("staged: " + cons::DescribeTotals(totals, s) + (j["due"].get<bool>() ? ", due" : ""));
  if (j["running"].is_null()) {
    Print(j["stale_lock"].get<bool>()
              ? "running: none (a dead run's lock remains; the next run reclaims it)"
              : "running: none");
  } else {
    const Json& r = j["running"];
    Print("running: pid " + std::to_string(r["pid"].get<int64_t>()) + " on " +
          r["pod_name"].get<std::string>() + " since " + r["started_at"].get<std::string>() +
          ", consuming " + std::to_string(r["consumed_ids"].size()) + " entries");
  }
  if (const Json& f = j["failed_extract"]; !f.is_null()) {
    Print("memory may be stale: extracting session " + f["session_id"].get<std::string>() +
          " failed at " + f["at"].get<std::string>() + ": " + f["error"].get<std::string>());
  }
  if (j["last_run"].is_null()) {
    Print("last run: none");
    return;
  }
  const Json& l = j["last_run"];
  std::string line = "last run: " + l["run_id"].get<std::string>() + " (" +
                     l["engine"].get<std::string>() + ") " + l["outcome"].get<std::string>() +
                     " at " + l["finished_at"].get<std::string>() + ", consumed " +
                     std::to_string(l["consumed_ids"].size()) + ", changed " +
                     std::to_string(l["changed"].size()) + " files";
  if (!l["error"].is_null()) line += ": " + l["error"].get<std::string>();
  Print(line);
}

int RunStatus(const std::string& repo, bool json) {
  auto store = OpenStore(repo);
  if (!store) return ReportError(store.error());
  auto settings = cons::LoadSettings(*store);
  if (!settings) return ReportError(settings.error());
  auto recovered = cons::RecoverIfIdle(*store);
  if (!recovered) return ReportError(recovered.error());
  for (const auto& w : *recovered) ReportWarning(w);
  auto staged = cons::ListStaged(*store);
  if (!staged) return ReportError(staged.error());
  auto lock = cons::InspectRunLock(*store);
  if (!lock) return ReportError(lock.error());
  auto last = cons::ReadLastRun(*store);
  if (!last) return ReportError(last.error());
  std::optional<extract::ExtractFailure> failed_extract;
  if (auto f = extract::LastExtractFailure(*store); !f) {
    ReportWarning(f.error());  // the rest of the status still holds
  } else {
    failed_extract = *f;
  }
  auto totals = cons::Totals(*staged);
  Json j = StatusJson(totals, *settings, *lock, *last, failed_extract);
  if (json) {
    Print(j.dump());
  } else {
    PrintStatusText(j, totals, *settings);
  }
  return kExitOk;
}

}  // namespace

void RegisterConsolidateCommands(Registry& r) {
  auto stage_repo = std::make_shared<std::string>();
  CLI::App* stage =
      r.Add("stage", "Stage the activity extract on stdin for consolidation; print its id",
            [stage_repo]() { return RunStage(*stage_repo); });
  stage->add_option("repo", *stage_repo, "A git remote URL or the path of a checkout")->required();

  auto a = std::make_shared<ConsolidateArgs>();
  CLI::App* cons_cmd =
      r.Add("consolidate", "Consolidate staged entries into memory/ and knowledge/",
            [a]() { return RunConsolidate(*a); });
  cons_cmd->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  cons_cmd->add_flag("--flush", a->flush, "Run even under the staging thresholds");
  cons_cmd
      ->add_flag("--team-locked", a->team_locked, "Set by lore-team, which holds the team's lock")
      ->group("");
  cons_cmd->add_flag("--foreground", a->foreground,
                     "Run in this process and report (default: detach)");
  cons_cmd->add_option("--engine", a->engine, "rules (no model) or llm (default: config.toml)")
      ->check(CLI::IsMember({"rules", "llm"}));

  auto status_repo = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* status =
      r.Add("status", "Show staged entries, the running consolidation and the last run",
            [status_repo, json]() { return RunStatus(*status_repo, *json); });
  status->add_option("repo", *status_repo, "A git remote URL or the path of a checkout")
      ->required();
  status->add_flag("--json", *json, "Print one JSON object");
}

}  // namespace lore::cli
