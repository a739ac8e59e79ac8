// `lore learnings`: list the store's learnings, contradict one, prune the
// expired ones (docs/learnings.md).
#include <unistd.h>

#include <chrono>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/store.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/learnings/file.h"
#include "lore/learnings/list.h"
#include "lore/learnings/update.h"

namespace lore::cli {
namespace {

struct LearningsArgs {
  std::string repo, id;
  bool json = false, all = false;
};

// The store's learnings files; nullopt (and *code set) on an error.
std::optional<learnings::Files> FilesOf(const std::string& repo, int* code) {
  auto store = app::LocateStore(repo);
  if (!store) {
    *code = ReportError(store.error());
    return std::nullopt;
  }
  return learnings::Files::InStore(store->dir());
}

int RunList(const LearningsArgs& a) {
  int code = kExitOk;
  auto files = FilesOf(a.repo, &code);
  if (!files) return code;
  learnings::FileScan scan;
  if (fs::Exists(files->dir)) {
    auto read = learnings::ReadLearnings(files->learnings);
    if (!read) return ReportError(read.error());
    scan = std::move(*read);
  }
  learnings::ListOptions o;
  o.now = std::chrono::system_clock::now();
  o.all = a.all;
  learnings::Listing out = a.json ? learnings::ListJson(scan, o) : learnings::ListTable(scan, o);
  if (out.malformed > 0) {
    ReportWarning(Error{
        ErrorCode::kCorrupt,
        std::to_string(out.malformed) + (out.malformed == 1
                                             ? " line is not a JSON object and is not listed in"
                                             : " lines are not JSON objects and are not listed in"),
        files->learnings, 0, "they are kept as they are; fix or remove them by hand"});
  }
  Print(out.text, false);
  return kExitOk;
}

int RunContradict(const LearningsArgs& a) {
  int code = kExitOk;
  auto files = FilesOf(a.repo, &code);
  if (!files) return code;
  if (!fs::Exists(files->dir)) {
    return ReportError(Error{ErrorCode::kNotFound, "no learning has id " + a.id, files->learnings,
                             0, "run 'lore learnings <repo> --all' to see the ids"});
  }
  auto r = learnings::Contradict(*files, a.id);
  if (!r) return ReportError(r.error());
  if (a.json) {
    Json j = Json::object();
    j["id"] = r->id;
    j["before"] = r->before;
    j["after"] = r->after;
    Print(json::DumpJs(j));
  } else {
    Print("learning " + r->id + ": confidence " + json::JsNumber(r->before) + " -> " +
          json::JsNumber(r->after) +
          (r->after <= 0 ? " (the next 'lore learnings prune' removes it)" : ""));
  }
  return kExitOk;
}

int RunPrune(const LearningsArgs& a) {
  int code = kExitOk;
  auto files = FilesOf(a.repo, &code);
  if (!files) return code;
  learnings::PruneResult r;
  if (fs::Exists(files->dir)) {
    learnings::PruneOptions o;
    o.now = std::chrono::system_clock::now();
    auto done = learnings::Prune(*files, o);
    if (!done) return ReportError(done.error());
    r = std::move(*done);
  }
  if (a.json) {
    Json j = Json::object();
    j["pruned"] = r.pruned;
    j["kept"] = r.kept;
    j["archivedBytes"] = r.archived_bytes;
    j["prunedIds"] = r.pruned_ids;
    Print(json::DumpJs(j));
  } else {
    Print("pruned " + std::to_string(r.pruned) + (r.pruned == 1 ? " learning" : " learnings") +
          " (" + std::to_string(r.archived_bytes) +
          " bytes archived to learnings-archive.jsonl); " + std::to_string(r.kept) +
          (r.kept == 1 ? " line" : " lines") + " kept");
  }
  return kExitOk;
}

}  // namespace

void RegisterLearningsCommands(Registry& r) {
  auto a = std::make_shared<LearningsArgs>();
  struct Verbs {
    CLI::App* contradict = nullptr;
    CLI::App* prune = nullptr;
  };
  auto v = std::make_shared<Verbs>();
  CLI::App* sub =
      r.Add("learnings", "List the store's live learnings; contradict or prune them", [a, v]() {
        if (v->contradict->parsed()) return RunContradict(*a);
        if (v->prune->parsed()) return RunPrune(*a);
        if (a->repo.empty()) {
          (void)fs::WriteAll(
              STDERR_FILENO,
              "lore: learnings needs a repository\nRun 'lore help learnings' for usage.\n",
              "<stderr>");
          return kExitUsage;
        }
        return RunList(*a);
      });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout");
  sub->add_flag("--json", a->json, "Print a JSON array of the learnings as stored");
  sub->add_flag("--all", a->all, "Also list expired and zero-confidence learnings (marked)");
  sub->require_subcommand(0, 1);
  CLI::App* contradict = v->contradict =
      sub->add_subcommand("contradict", "Lower a learning's confidence by 0.2 (floor 0)");
  contradict->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  contradict->add_option("id", a->id, "The learning's id (or a unique prefix of 4 or more)")
      ->required();
  contradict->add_flag("--json", a->json, "Print {id, before, after}");
  CLI::App* prune = v->prune = sub->add_subcommand(
      "prune",
      "Remove expired and zero-confidence learnings (archived to learnings-archive.jsonl)");
  prune->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  prune->add_flag("--json", a->json, "Print {pruned, kept, archivedBytes, prunedIds}");
  sub->footer(
      "Exit 0 on success, 1 on an error (an unknown id included), 2 on a usage error.\n"
      "Expired: past expires_at, or at confidence 0 or less. See docs/learnings.md.");
}

}  // namespace lore::cli
