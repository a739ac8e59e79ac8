// lore-llm: the LLM side of lore. `lore consolidate --engine llm` replaces
// itself with `lore-llm consolidate <repo> [--flush]` and `lore distill --llm`
// with `lore-llm distill <repo>`, so that the hot-path lore binary never
// loads libcurl.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/guard.h"
#include "lore/consolidate/journal.h"
#include "lore/consolidate/report.h"
#include "lore/consolidate/runner.h"
#include "lore/distill/distill.h"
#include "lore/extract/extract.h"
#include "lore/llm/digest_writer.h"
#include "lore/llm/extract_engine.h"
#include "lore/llm/http.h"
#include "lore/llm/llm_engine.h"
#include "lore/store/store.h"
#include "lore/version.h"

namespace {

int Report(const lore::Error& e, const char* prefix = "lore-llm: ") {
  std::string line = prefix + e.Format();
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << line << "\n";
  return 1;
}

int Consolidate(const std::string& repo, bool flush) {
  namespace cons = lore::consolidate;
  auto store = lore::store::Store::Locate(repo, lore::store::Env::FromProcess());
  if (!store) return Report(store.error());
  if (auto s = store->Ensure(std::chrono::system_clock::now(), lore::store::RawCheck::kSkip); !s) {
    return Report(s.error());
  }
  auto settings = cons::LoadSettings(*store);
  if (!settings) return Report(settings.error());
  lore::llm::InitHttp();
  lore::llm::LlmEngine engine(*store);
  auto report = cons::Consolidate(*store, *settings, engine, {flush});
  if (!report) return Report(report.error());
  for (const auto& w : report->warnings) Report(w, "lore-llm: warning: ");
  auto text = cons::DescribeReport(*report, *settings);
  for (const auto& line : text.lines) std::cout << line << "\n";
  std::cout.flush();
  cons::RemoveTrash(report->trash);  // after the report: the caller need not wait for it
  return text.exit_code;
}

// The deterministic distiller with index.md's body written by the model.
int Distill(const std::string& repo) {
  auto store = lore::store::Store::Locate(repo, lore::store::Env::FromProcess());
  if (!store) return Report(store.error());
  auto settings = lore::consolidate::LoadSettings(*store);
  if (!settings) return Report(settings.error());
  lore::llm::InitHttp();
  lore::distill::Options options;
  options.digest = [&](const std::vector<lore::distill::Page>& pages,
                       const std::vector<std::string>& linkable) {
    return lore::llm::WriteDigest(*store, *settings, pages, linkable);
  };
  auto r = lore::distill::Distill(*store, options);
  if (!r) return Report(r.error());
  for (const auto& w : r->warnings) Report(w, "lore-llm: warning: ");
  std::cout << lore::distill::Describe(*r, store->okf_dir()) << "\n";
  return 0;
}

// Phase 1 with the model: the same streaming, cursor and staging as the
// rules engine (extract/extract.h), the lists written by the model.
int Extract(const std::string& repo, const std::string& transcript, const std::string& session,
            bool dry_run) {
  auto store = lore::store::Store::Locate(repo, lore::store::Env::FromProcess());
  if (!store) return Report(store.error());
  const auto now = std::chrono::system_clock::now();
  if (!dry_run) {
    if (auto s = store->Ensure(now, lore::store::RawCheck::kSkip); !s) return Report(s.error());
  }
  lore::llm::InitHttp();
  auto engine = lore::llm::MakeExtractEngine(*store);
  if (!engine) return Report(engine.error());
  lore::extract::Options o;
  o.transcript = transcript;
  o.session = session;
  o.dry_run = dry_run;
  o.now = now;
  auto outcome = lore::extract::Extract(*store, o, *engine);
  if (!outcome) return Report(outcome.error());
  std::cout << lore::extract::OutcomeJson(*outcome, dry_run) << "\n";
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
    std::cerr << "lore-llm: " << e.what() << "\n";
    return 2;
  }
  if (dist->parsed()) return Distill(repo);
  if (ext->parsed()) return Extract(repo, transcript, session, dry_run);
  return Consolidate(repo, flush);
}

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore-llm: ", lore::cli::kExitInternal,
                               [&] { return Run(argc, argv); });
}
