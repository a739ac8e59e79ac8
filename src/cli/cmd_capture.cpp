// Verbs of seed 003: ensure, append-review, append-slicing, pointer, check.
#include <memory>

#include "cli/capture_append.h"
#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/capture.h"
#include "lore/app/check.h"
#include "lore/app/store.h"

namespace lore::cli {
namespace {

struct RepoArg {
  std::string repo;
};

CLI::App* AddRepoVerb(Registry& r, const std::string& name, const std::string& summary,
                      std::function<int(const store::Store&)> body) {
  auto args = std::make_shared<RepoArg>();
  CLI::App* sub = r.Add(name, summary, [args, body]() {
    auto store = app::LocateStore(args->repo);
    if (!store) return ReportError(store.error());
    return body(*store);
  });
  sub->add_option("repo", args->repo, "A git remote URL or the path of a checkout")->required();
  return sub;
}

// Lists every problem; with `repair`, first removes the leftovers of dead
// writers and repairs what can be repaired without losing a line (each named
// on stdout), and then checks again. Leftovers are
// reported as warnings: they are garbage beside the truth, not damage to it,
// so they never make a sound store fail its check (docs/capture.md).
int RunCheck(const store::Store& store, bool repair) {
  app::Checked c = app::Check(store, repair);
  for (const auto& path : c.removed) Print("removed: " + path);
  for (const auto& line : c.repaired) Print("repaired: " + line);
  if (c.repair_error) ReportError(*c.repair_error);
  for (const auto& e : c.problems) ReportError(e);
  for (const auto& w : c.warnings) ReportWarning(w);
  if (!c.problems.empty() || c.repair_error) return kExitError;
  Print("ok: " + store.dir());
  return kExitOk;
}

// Lists every private span and secret in the store's files and file names,
// one line each ("<file>:<line>: secret (<rule>)", "<file>: secret in the
// file name (<rule>)"; never the secret, a name that holds one is shown
// cleaned): exit 1 when any.
int RunCheckSecrets(const store::Store& store) {
  auto found = app::FindSecrets(store);
  if (!found) return ReportError(found.error());
  for (const auto& f : *found) {
    const std::string what = "(" + f.rule + ")";
    Print(f.line == 0 ? f.path + ": secret in the file name " + what
                      : f.path + ":" + std::to_string(f.line) + ": secret " + what);
  }
  if (!found->empty()) {
    return ReportError(Error{ErrorCode::kCorrupt,
                             std::to_string(found->size()) + " private spans or secrets found",
                             store.dir(), 0, "see docs/secrets.md for how to clean a store"});
  }
  Print("ok: no secrets in " + store.dir());
  return kExitOk;
}

}  // namespace

int AppendFromStdin(const store::Store& store, capture::Kind kind) {
  auto input = ReadStdin();
  if (!input) return ReportError(input.error());
  auto r = app::Capture(store, *input, kind, std::chrono::system_clock::now());
  if (!r) return ReportError(r.error());
  return kExitOk;
}

void RegisterCaptureCommands(Registry& r) {
  AddRepoVerb(r, "ensure", "Create the store if missing, check it, print its paths as JSON",
              [](const store::Store& store) {
                auto report = app::Ensure(store, capture::ReportStyle::kCompact,
                                          std::chrono::system_clock::now());
                if (!report) return ReportError(report.error());
                Print(*report);
                return kExitOk;
              });
  AddRepoVerb(
      r, "append-review", "Append the review record on stdin to raw.jsonl",
      [](const store::Store& store) { return AppendFromStdin(store, capture::Kind::kReview); });
  AddRepoVerb(
      r, "append-slicing", "Append the slicing record on stdin to raw.jsonl",
      [](const store::Store& store) { return AppendFromStdin(store, capture::Kind::kSlicing); });
  AddRepoVerb(r, "pointer", "Print the absolute path of the store's okf/index.md",
              [](const store::Store& store) {
                if (auto s = store.Ensure(std::chrono::system_clock::now()); !s) {
                  return ReportError(s.error());
                }
                Print(store.index_path());
                return kExitOk;
              });
  auto repair = std::make_shared<bool>(false);
  auto secrets = std::make_shared<bool>(false);
  CLI::App* check =
      AddRepoVerb(r, "check", "Check the whole store and list every problem found",
                  [repair, secrets](const store::Store& store) {
                    return *secrets ? RunCheckSecrets(store) : RunCheck(store, *repair);
                  });
  check->add_flag("--secrets", *secrets,
                  "Instead, list every private span and secret left in the store's files "
                  "(file:line and rule, never the secret); exit 1 when any");
  check->add_flag("--repair", *repair,
                  "Remove what writers that died left behind (stale temporary files and "
                  "folders), move torn last lines of logs and unreadable cursors into "
                  "quarantine/, delete a damaged search index, then check again");
}

}  // namespace lore::cli
