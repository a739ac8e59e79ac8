// `lore learnings`: list the store's learnings, contradict one, prune the
// expired ones (docs/learnings.md).
#include <chrono>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/learnings.h"
#include "lore/app/store.h"
#include "lore/json/dump_js.h"

namespace lore::cli {
namespace {

struct LearningsArgs {
  std::string repo, id;
  bool json = false, all = false;
};

int RunList(const LearningsArgs& a) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto listed = app::ListLearnings(*store, a.json, a.all, std::chrono::system_clock::now());
  if (!listed) return ReportError(listed.error());
  if (listed->warning) ReportWarning(*listed->warning);
  Print(listed->text, false);
  return kExitOk;
}

int RunContradict(const LearningsArgs& a) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto r = app::ContradictLearning(*store, a.id);
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
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto r = app::PruneLearnings(*store, std::chrono::system_clock::now());
  if (!r) return ReportError(r.error());
  if (a.json) {
    Json j = Json::object();
    j["pruned"] = r->pruned;
    j["kept"] = r->kept;
    j["archivedBytes"] = r->archived_bytes;
    j["prunedIds"] = r->pruned_ids;
    Print(json::DumpJs(j));
  } else {
    Print("pruned " + std::to_string(r->pruned) + (r->pruned == 1 ? " learning" : " learnings") +
          " (" + std::to_string(r->archived_bytes) +
          " bytes archived to learnings-archive.jsonl); " + std::to_string(r->kept) +
          (r->kept == 1 ? " line" : " lines") + " kept");
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
          PrintError("lore: learnings needs a repository\nRun 'lore help learnings' for usage.\n");
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
