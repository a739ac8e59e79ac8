// lore-llm: the LLM side of lore. `lore consolidate --engine llm` replaces
// itself with `lore-llm consolidate <repo> [--flush]` and `lore distill --llm`
// with `lore-llm distill <repo>`, so that the hot-path lore binary never
// loads libcurl.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/guard.h"
#include "cli/report.h"
#include "lore/app/consolidate.h"
#include "lore/app/distill.h"
#include "lore/app/extract.h"
#include "lore/app/store.h"
#include "lore/llm/digest_writer.h"
#include "lore/llm/extract_engine.h"
#include "lore/llm/http.h"
#include "lore/llm/llm_engine.h"
#include "lore/store/store.h"
#include "lore/version.h"

namespace {

namespace app = lore::app;
using lore::cli::WriteError;
using lore::cli::WriteWarning;

void PrintLines(const std::vector<std::string>& lines) {
  for (const auto& line : lines) std::cout << line << "\n";
  std::cout.flush();
}

// The model's run of app::Consolidate (lore consolidate --engine llm).
int Consolidate(const std::string& repo, bool flush) {
  auto opened = app::OpenStoreWithSettings(repo);
  if (!opened) return WriteError(opened.error());
  lore::llm::InitHttp();
  lore::llm::LlmEngine engine(opened->store);
  auto c = app::Consolidate(*opened, engine, flush);
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
  auto settings = lore::consolidate::LoadSettings(*store);
  if (!settings) return WriteError(settings.error());
  lore::llm::InitHttp();
  lore::distill::Options options;
  options.digest = [&](const std::vector<lore::distill::Page>& pages,
                       const std::vector<std::string>& linkable) {
    return lore::llm::WriteDigest(*store, *settings, pages, linkable);
  };
  auto r = app::Distill(*store, options);
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
    if (auto s = store->Ensure(now, lore::store::RawCheck::kSkip); !s) return WriteError(s.error());
  }
  lore::llm::InitHttp();
  auto engine = lore::llm::MakeExtractEngine(*store);
  if (!engine) return WriteError(engine.error());
  app::ExtractRequest req;
  req.options.transcript = transcript;
  req.options.session = session;
  req.options.dry_run = dry_run;
  req.options.now = now;
  auto r = app::Extract(*store, req, *engine);
  if (!r) return WriteError(r.error());
  std::cout << r->json << "\n";
  return 0;
}

}  // namespace

static int Run(int argc, char** argv) {
  CLI::App app{"lore-llm: the LLM side of lore (consolidation, distilling)", "lore-llm"};
  app.set_version_flag("--version", std::string("lore-llm ") + lore::kVersion);
  app.require_subcommand(1, 1);
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    lore::cli::WriteStderr(app::Line(e.what()));
    return app::kExitUsage;
  }
  if (dist->parsed()) return Distill(repo);
  if (ext->parsed()) return Extract(repo, transcript, session, dry_run);
  return Consolidate(repo, flush);
}

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore: ", lore::cli::kExitInternal,
                               [&] { return Run(argc, argv); });
}
