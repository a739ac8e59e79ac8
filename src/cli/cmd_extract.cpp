// `lore extract`: Phase 1, an agent transcript into one staged entry
// (docs/extract.md). The rules engine runs here; `--engine llm` hands the
// verb to lore-llm. `--then-consolidate` (what the hooks start, detached)
// flushes consolidation after a successful extract, in the same process chain.
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "lore/app/extract.h"
#include "lore/app/store.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

struct ExtractArgs {
  std::string repo, transcript, session, engine;
  bool dry_run = false;
  bool then_consolidate = false;
  bool rebuild = false;
};

std::vector<std::string> LlmArgs(const ExtractArgs& a) {
  std::vector<std::string> args{"extract", a.repo, "--transcript", a.transcript};
  if (!a.session.empty()) args.insert(args.end(), {"--session", a.session});
  if (a.dry_run) args.push_back("--dry-run");
  return args;
}

// Runs lore-llm extract as a child and waits (the consolidation follows it).
int RunLlmChild(const ExtractArgs& a) {
  std::vector<std::string> args = LlmArgs(a);
  args.insert(args.begin(), proc::Beside("lore-llm"));
  auto status = proc::Run(args);
  if (!status) return ReportError(status.error());
  return *status;
}

// Replaces this process with `lore consolidate <repo> --flush --foreground`.
int ExecConsolidate(const std::string& repo) {
  auto exe = proc::SelfExe();
  if (!exe) return ReportError(exe.error());
  return ReportError(proc::Exec({*exe, "consolidate", repo, "--flush", "--foreground"}));
}

int RunRebuild(const store::Store& store, const ExtractArgs& a) {
  auto json = app::RebuildFromSessionLogs(store, a.session, std::chrono::system_clock::now());
  if (!json) return ReportError(json.error());
  Print(*json);
  if (a.then_consolidate) return ExecConsolidate(a.repo);
  return kExitOk;
}

int RunExtract(const ExtractArgs& a) {
  auto store = app::LocateWorkedIn(a.repo);
  if (!store) return ReportError(store.error());
  const auto now = std::chrono::system_clock::now();
  if (a.rebuild) {
    if (!a.transcript.empty() || a.dry_run || a.engine == "llm") {
      std::cerr << "lore: --rebuild reads the session logs with the rules engine: leave out "
                   "--transcript, --dry-run and --engine llm\n";
      return kExitUsage;
    }
    return RunRebuild(*store, a);
  }
  if (a.transcript.empty()) {
    std::cerr << "lore: extract needs --transcript FILE (or --rebuild)\n";
    return kExitUsage;
  }
  if (!a.dry_run) {
    if (auto s = app::EnsureStore(*store, now); !s) return ReportError(s.error());
  }
  auto engine = app::ExtractEngine(*store, a.engine);
  if (!engine) return ReportError(engine.error());
  if (*engine == "llm") {
    if (!a.then_consolidate) return ExecLoreLlm(LlmArgs(a), "use --engine rules");
    int rc = RunLlmChild(a);
    return rc == kExitOk ? ExecConsolidate(a.repo) : rc;
  }
  app::ExtractRequest req;
  req.options.transcript = a.transcript;
  req.options.session = a.session;
  req.options.dry_run = a.dry_run;
  req.options.now = now;
  auto r = app::ExtractWithRules(*store, req);
  if (!r) return ReportError(r.error());
  for (const auto& w : r->warnings) ReportWarning(w);
  Print(r->json);
  if (a.then_consolidate && !a.dry_run) return ExecConsolidate(a.repo);
  return kExitOk;
}

}  // namespace

void RegisterExtractCommands(Registry& r) {
  auto a = std::make_shared<ExtractArgs>();
  CLI::App* cmd =
      r.Add("extract", "Extract an agent transcript's new lines into one staged entry (Phase 1)",
            [a]() { return RunExtract(*a); });
  cmd->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  cmd->add_option("--transcript", a->transcript, "The agent's session transcript (.jsonl)");
  cmd->add_option("--session", a->session,
                  "The session id (default: the transcript's sessionId, else its file name)");
  cmd->add_option("--engine", a->engine,
                  "rules (no model) or llm (default: memory.extract_engine, rules)")
      ->check(CLI::IsMember({"rules", "llm"}));
  cmd->add_flag("--dry-run", a->dry_run, "Print the entry; stage nothing, move no cursor");
  cmd->add_flag("--rebuild", a->rebuild,
                "Stage again from the store's session logs (all, or --session's) with the rules "
                "engine of today; no transcript needed");
  cmd->add_flag("--then-consolidate", a->then_consolidate,
                "After extracting, run 'lore consolidate --flush' (what the hooks start)");
}

}  // namespace lore::cli
