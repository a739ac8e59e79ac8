// Verbs of seed 000: propose (queue a candidate learning) and proposals
// (list the queue); review lives in cmd_review.cpp.
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/proposal_cli.h"
#include "lore/app/proposals.h"
#include "lore/app/propose.h"
#include "lore/app/store.h"
#include "lore/json/dump_js.h"

namespace lore::cli {
namespace {

// Exit codes of `lore propose` (docs/proposals.md).
constexpr int kQueued = 0, kQuota = 1, kBelowFloor = 2, kWrongContext = 3, kInvalid = 4;

int Emit(const Json& out, int code) {
  Print(json::DumpJs(out));
  return code;
}

int EmitError(const Error& e) {
  ReportError(e);
  Json out = Json::object();
  out["status"] = "error";
  out["error"] = e.Format();
  return Emit(out, kInvalid);
}

int EmitContext(const std::string& detail) {
  Json out = Json::object();
  out["status"] = "rejected-wrong-context";
  out["detail"] = detail;
  return Emit(out, kWrongContext);
}

struct ProposeArgs {
  std::string repo;
  proposals::ProposeFlags flags;
  bool dry_run = false;
};

int RunPropose(const ProposeArgs& a) {
  using Status = app::Proposed::Status;
  app::ProposeRequest req{a.flags, EnvOr("LORE_WAVE"), a.dry_run};
  auto r = app::Propose(
      req, [&] { return app::LocateStore(a.repo); }, std::chrono::system_clock::now());
  if (!r) return EmitError(r.error());
  if (r->warning) ReportWarning(*r->warning);
  const proposals::Fields& f = r->fields;
  Json out = Json::object();
  switch (r->status) {
    case Status::kInvalid:
      out["status"] = "error";
      out["validation"] = r->errors;
      return Emit(out, kInvalid);
    case Status::kDisabled:
      return EmitContext("proposals are disabled (memory.proposals.enabled = false in " +
                         r->config_path + ")");
    case Status::kNoWave:
      return EmitContext("no wave known: pass --wave W or set LORE_WAVE");
    case Status::kDryRun:
      out["status"] = "dry-run-ok";
      out["dryRun"] = true;
      out["type"] = f.type;
      out["subject"] = f.subject;
      out["wave"] = f.wave_id;
      return Emit(out, kQueued);
    case Status::kQueued:
      out["status"] = "queued";
      out["position"] = std::to_string(r->position) + "/" + std::to_string(r->quota);
      out["wave"] = f.wave_id;
      out["id"] = r->id;
      return Emit(out, kQueued);
    case Status::kAlreadyQueued:
      out["status"] = "already-queued";
      out["id"] = r->id;
      out["detail"] =
          "a pending proposal has the same type, subject and insight; nothing was "
          "appended";
      return Emit(out, kQueued);
    case Status::kQuotaExceeded:
      out["status"] = "quota-exceeded";
      out["quota"] = r->quota;
      out["dropped"] = r->dropped;
      out["wave"] = f.wave_id;
      return Emit(out, kQuota);
    case Status::kBelowFloor:
      out["status"] = "rejected-low-confidence";
      out["floor"] = r->floor;
      out["provided"] = f.confidence;
      return Emit(out, kBelowFloor);
  }
  return kInvalid;
}

void AddPropose(Registry& r) {
  auto a = std::make_shared<ProposeArgs>();
  CLI::App* sub = r.Add("propose", "Queue a candidate learning for review (prints one JSON line)",
                        [a]() { return RunPropose(*a); });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  std::string types;
  for (auto t : app::ProposalTypes()) types += (types.empty() ? "" : ", ") + std::string(t);
  sub->add_option("--type", a->flags.type, "One of: " + types);
  sub->add_option("--subject", a->flags.subject, "What it is about (1-100 chars, one line)");
  sub->add_option("--insight", a->flags.insight, "The learning (1-2000 chars, one line)");
  sub->add_option("--evidence", a->flags.evidence, "What shows it (1-5000 chars, one line)");
  sub->add_option("--confidence", a->flags.confidence, "A number from 0 to 1");
  sub->add_option("--file-paths", a->flags.file_paths, "Related files, comma-separated; may repeat")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--wave", a->flags.wave, "The wave id (default: $LORE_WAVE)");
  sub->add_option("--agent", a->flags.agent, "The proposing agent (stored as proposed_by_agent)");
  sub->add_flag("--dry-run", a->dry_run, "Check the proposal, write nothing");
  sub->add_option("--quota-per-wave", a->flags.quota_per_wave,
                  "Override memory.proposals.quota_per_wave");
  sub->add_option("--confidence-floor", a->flags.confidence_floor,
                  "Override memory.proposals.confidence_floor");
  sub->footer(
      "Exit codes: 0 queued (or dry run, or already queued), 1 quota exceeded, 2 below the "
      "confidence floor,\n"
      "3 wrong context (proposals disabled or no wave known), 4 invalid input or internal error.");
  r.OnParseError(sub, [](const std::string& message) {
    Json out = Json::object();
    out["status"] = "error";
    out["validation"] = std::vector<std::string>{message};
    return Emit(out, kInvalid);
  });
}

struct ListArgs {
  std::string repo;
  bool json = false;
  std::optional<double> min_confidence;
};

void AddProposals(Registry& r) {
  auto a = std::make_shared<ListArgs>();
  CLI::App* sub = r.Add("proposals", "List the queued proposals and their counters", [a]() {
    auto store = app::OpenStore(a->repo);
    if (!store) return ReportError(store.error());
    auto listed = app::ListProposals(*store, a->min_confidence, a->json);
    if (!listed) return ReportError(listed.error());
    for (const Error& w : listed->warnings) ReportWarning(w);
    Print(listed->text, false);
    return kExitOk;
  });
  sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  sub->add_flag("--json", a->json, "Print {queue, stats, perWaveSummaries} as JSON");
  sub->add_option("--min-confidence", a->min_confidence,
                  "Show only proposals at or above this confidence (and those without one)");
}

}  // namespace

void RegisterProposalCommands(Registry& r) {
  AddPropose(r);
  AddProposals(r);
  RegisterReviewCommand(r);
}

}  // namespace lore::cli
