// lore-llm: the LLM side of lore. `lore consolidate --engine llm` replaces
// itself with `lore-llm consolidate <repo> [--flush]` and `lore distill --llm`
// with `lore-llm distill <repo>`, so that the hot-path lore binary never
// loads libcurl.
#include <unistd.h>

#include <csignal>
#include <functional>
#include <memory>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/guard.h"
#include "cli/report.h"
#include "lore/app/consolidate.h"
#include "lore/app/distill.h"
#include "lore/app/engine.h"
#include "lore/app/extract.h"
#include "lore/app/store.h"
#include "lore/llm/claude_code.h"
#include "lore/llm/digest_writer.h"
#include "lore/llm/extract_engine.h"
#include "lore/llm/http.h"
#include "lore/llm/llm_engine.h"
#include "lore/version.h"
#include "proc/process.h"

namespace {

namespace app = lore::app;
using lore::cli::WriteError;
using lore::cli::WriteWarning;

void PrintLines(const std::vector<std::string>& lines) {
  for (const auto& line : lines) std::cout << line << "\n";
  std::cout.flush();
}

// What a run used goes into the day's record, whatever its outcome.
void CountUsage(const lore::store::Store& store, const lore::llm::Usage& used) {
  if (auto w = app::CountModelUsage(store, used.total())) WriteWarning(*w);
}

// The model's run of app::Consolidate (lore consolidate --engine llm).
int Consolidate(const std::string& repo, bool flush) {
  auto opened = app::OpenStoreWithSettings(repo);
  if (!opened) return WriteError(opened.error());
  auto lock = app::BeginModelRun(opened->store);
  if (!lock) return WriteError(lock.error());
  lore::llm::InitHttp();
  std::unique_ptr<lore::consolidate::Engine> engine;
  std::function<lore::llm::Usage()> used;
  std::unique_ptr<lore::llm::Model> model;
  if (opened->settings.llm_provider == "claude-code") {
    auto exe = lore::proc::SelfExe();
    if (!exe) return WriteError(exe.error());
    auto e = std::make_unique<lore::llm::ClaudeCodeEngine>(opened->store, *exe);
    used = [p = e.get()] { return p->used(); };
    engine = std::move(e);
  } else {
    auto ms =
        lore::llm::ModelSettingsFor(opened->settings, opened->store, "", "use --engine rules");
    if (!ms) return WriteError(ms.error());
    auto m = lore::llm::MakeModel(std::move(*ms));
    if (!m) return WriteError(m.error());
    model = std::move(*m);
    used = [p = model.get()] { return p->used(); };
    engine = std::make_unique<lore::llm::LlmEngine>(opened->store, *model);
  }
  auto c = app::Consolidate(*opened, *engine, flush);
  CountUsage(opened->store, used());
  if (!c) return WriteError(c.error());
  for (const auto& w : c->warnings) WriteWarning(w);
  PrintLines(c->lines);
  for (const auto& w : app::FinishConsolidation(opened->store, *c)) WriteWarning(w);
  return c->exit_code;
}

// The deterministic distiller with index.md's body written by the model.
int Distill(const std::string& repo) {
  auto store = app::LocateStore(repo);
  if (!store) return WriteError(store.error());
  auto settings = app::LoadSettings(*store);
  if (!settings) return WriteError(settings.error());
  auto lock = app::BeginModelRun(*store);
  if (!lock) return WriteError(lock.error());
  lore::llm::InitHttp();
  lore::distill::Options options;
  lore::llm::Usage used;
  options.digest = [&](const auto& pages, const auto& linkable) {
    return lore::llm::WriteDigest(*store, *settings, pages, linkable, &used);
  };
  auto r = app::Distill(*store, options);
  CountUsage(*store, used);
  if (!r) return WriteError(r.error());
  for (const auto& w : r->warnings) WriteWarning(w);
  std::cout << r->text << "\n";
  return 0;
}

// Phase 1 with the model: the same streaming, cursor and staging as the
// rules engine (extract/extract.h), the lists written by the model.
int Extract(const std::string& repo, const std::string& transcript, const std::string& session,
            bool dry_run) {
  auto store = app::LocateStore(repo);
  if (!store) return WriteError(store.error());
  const auto now = std::chrono::system_clock::now();
  if (!dry_run) {
    if (auto s = app::EnsureStore(*store, now); !s) return WriteError(s.error());
  }
  auto lock = app::BeginModelRun(*store);
  if (!lock) return WriteError(lock.error());
  lore::llm::InitHttp();
  auto engine = lore::llm::MakeExtractEngine(*store);
  if (!engine) return WriteError(engine.error());
  app::ExtractRequest req;
  req.options.transcript = transcript;
  req.options.session = session;
  req.options.dry_run = dry_run;
  req.options.now = now;
  auto r = app::Extract(*store, req, *engine);
  if (!dry_run) CountUsage(*store, engine->used());
  if (!r) return WriteError(r.error());
  std::cout << r->json << "\n";
  return 0;
}

}  // namespace

static int Run(int argc, char** argv) {
  CLI::App app{"lore-llm: the LLM side of lore (consolidation, distilling)", "lore-llm"};
  app.set_version_flag("--version", std::string("lore-llm ") + lore::kVersionLine);
  app.require_subcommand(1, 1);
  std::signal(SIGPIPE,
              SIG_IGN);  // a claude child or relay peer that goes away is an error, not a kill
  std::string repo;
  bool flush = false;
  CLI::App* cons = app.add_subcommand(
      "consolidate", "Consolidate staged entries with the LLM engine (foreground)");
  cons->add_option("repo", repo, "A git remote URL or the path of a checkout")->required();
  cons->add_flag("--flush", flush, "Run even under the staging thresholds");
  CLI::App* dist = app.add_subcommand(
      "distill", "Rewrite okf/ as 'lore distill' does, with index.md's body written by the model");
  dist->add_option("repo", repo, "A git remote URL or the path of a checkout")->required();
  std::string transcript, session;
  bool dry_run = false;
  CLI::App* ext = app.add_subcommand(
      "extract", "Extract a transcript's new lines into one staged entry with the model");
  ext->add_option("repo", repo, "A git remote URL or the path of a checkout")->required();
  ext->add_option("--transcript", transcript, "The agent's session transcript")->required();
  ext->add_option("--session", session, "The session id");
  ext->add_flag("--dry-run", dry_run, "Print the entry; stage nothing");
  std::string socket;
  CLI::App* relay = app.add_subcommand(
      "tool-relay", "Connect a claude-code consolidation's MCP tools (started by claude)");
  relay->add_option("socket", socket, "The run's socket")->required();
  relay->group("");  // not for people
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    lore::cli::WriteStderr(app::Line(e.what()));
    return app::kExitUsage;
  }
  if (relay->parsed()) {
    auto s = lore::llm::RelayStdio(socket);
    return s ? 0 : WriteError(s.error());
  }
  if (dist->parsed()) return Distill(repo);
  if (ext->parsed()) return Extract(repo, transcript, session, dry_run);
  return Consolidate(repo, flush);
}

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal, [&] { return Run(argc, argv); });
}
