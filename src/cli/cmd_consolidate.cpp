// Verbs of issue 6: stage, consolidate, status (docs/consolidation.md).
#include <unistd.h>

#include <memory>

#include "cli/command.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/app/consolidate.h"
#include "lore/app/status.h"
#include "lore/app/store.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

struct ConsolidateArgs {
  std::string repo;
  bool flush = false;
  bool foreground = false;
  bool team_locked = false;  // run by lore-team under the team's advisory lock
  std::string engine;        // empty: from config.toml
};

Result<store::Store> OpenStore(const std::string& repo) { return app::OpenStore(repo); }

std::vector<std::string> ForegroundArgv(const std::string& exe, const ConsolidateArgs& a) {
  std::vector<std::string> argv{exe, "consolidate", a.repo, "--foreground"};
  if (a.flush) argv.push_back("--flush");
  if (!a.engine.empty()) argv.insert(argv.end(), {"--engine", a.engine});
  return argv;
}

// After `stage`: starts a background consolidation when the folder is at a
// threshold and none is running. Problems are warnings: the entry is staged.
void MaybeTrigger(const store::Store& store, const std::string& repo) {
  auto due = app::ConsolidationDue(store);
  if (!due) return ReportWarning(due.error());
  if (!*due) return;
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
  auto id = app::Stage(*store, *input, std::chrono::system_clock::now());
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
  auto settings = app::LoadSettings(*store);
  if (!settings) return ReportError(settings.error());
  std::string engine = a.engine.empty() ? settings->engine : a.engine;
  if (engine == "llm") return ExecLlm(a);
  app::OpenedStore opened{std::move(*store), std::move(*settings)};
  auto c = app::ConsolidateWithRules(opened, a.flush);
  if (!c) return ReportError(c.error());
  for (const auto& w : c->warnings) ReportWarning(w);
  for (const auto& line : c->lines) Print(line);
  for (const auto& w : app::FinishConsolidation(opened.store, *c)) ReportWarning(w);
  return c->exit_code;
}

int RunStatus(const std::string& repo, bool json) {
  auto opened = app::OpenStoreWithSettings(repo);
  if (!opened) return ReportError(opened.error());
  auto v = app::Status(opened->store, opened->settings, app::Recovery::kFinish);
  if (!v) return ReportError(v.error());
  for (const auto& w : v->warnings) ReportWarning(w);
  if (json) {
    Print(app::StatusJson(*v).dump());
  } else {
    for (const auto& line : app::StatusText(*v, repo)) Print(line);
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
      r.Add("status",
            "Show the proposals awaiting review, staged entries, the running consolidation and "
            "the last run",
            [status_repo, json]() { return RunStatus(*status_repo, *json); });
  status->add_option("repo", *status_repo, "A git remote URL or the path of a checkout")
      ->required();
  status->add_flag("--json", *json, "Print one JSON object");
}

}  // namespace lore::cli
