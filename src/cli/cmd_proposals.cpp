// Verbs of seed 000: propose (queue a candidate learning) and proposals
// (list the queue); review lives in cmd_review.cpp.
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/proposal_cli.h"
#include "lore/app/store.h"
#include "lore/config/config.h"
#include "lore/json/dump_js.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/present.h"
#include "lore/proposals/propose_input.h"
#include "lore/proposals/queue.h"
#include "lore/sys/uuid.h"

namespace lore::cli {
namespace {


// Exit codes of `lore propose` (FORMATS.md section 4).
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

Result<proposals::Settings> SettingsFor(const store::Store& store, const proposals::Proposal& p) {
  LORE_ASSIGN(config::Config cfg, config::Config::Load(store.config_path()));
  LORE_ASSIGN(proposals::Settings s, proposals::LoadSettings(cfg));
  if (p.quota_per_wave) s.quota_per_wave = *p.quota_per_wave;
  if (p.confidence_floor) s.confidence_floor = *p.confidence_floor;
  return s;
}

int RunPropose(const ProposeArgs& a) {
  proposals::Proposal p = proposals::CheckFlags(a.flags, EnvOr("LORE_WAVE"));
  if (!p.errors.empty()) {
    Json out = Json::object();
    out["status"] = "error";
    out["validation"] = p.errors;
    return Emit(out, kInvalid);
  }
  auto store = app::LocateStore(a.repo);
  if (!store) return EmitError(store.error());
  auto settings = SettingsFor(*store, p);
  if (!settings) return EmitError(settings.error());
  if (p.fields.confidence < settings->confidence_floor && a.dry_run) {
    Json out = Json::object();
    out["status"] = "rejected-low-confidence";
    out["floor"] = settings->confidence_floor;
    out["provided"] = p.fields.confidence;
    return Emit(out, kBelowFloor);
  }
  if (a.dry_run) {
    Json out = Json::object();
    out["status"] = "dry-run-ok";
    out["dryRun"] = true;
    out["type"] = p.fields.type;
    out["subject"] = p.fields.subject;
    out["wave"] = p.fields.wave_id;
    return Emit(out, kQueued);
  }
  if (!settings->enabled) {
    return EmitContext("proposals are disabled (memory.proposals.enabled = false in " +
                       store->config_path() + ")");
  }
  if (!p.wave_known) return EmitContext("no wave known: pass --wave W or set LORE_WAVE");
  const auto now = std::chrono::system_clock::now();
  if (auto s = store->Ensure(now, store::RawCheck::kSkip); !s) return EmitError(s.error());
  const Json record = proposals::MakeRecord(p.fields, sys::NewUuidV4(), now);
  auto r = proposals::Enqueue(proposals::Paths::InStore(store->dir()), record, *settings);
  if (!r) return EmitError(r.error());
  if (r->reclaimed) {
    ReportWarning(Error{
        ErrorCode::kBusy,
        "reclaimed a stale proposals write lock of dead pid " + std::to_string(r->reclaimed->pid),
        store->Path("proposals-write.lock"), 0, ""});
  }
  Json out = Json::object();
  switch (r->outcome) {
    case proposals::Outcome::kQueued:
      out["status"] = "queued";
      out["position"] = std::to_string(r->position) + "/" + std::to_string(r->quota);
      out["wave"] = p.fields.wave_id;
      out["id"] = record["id"];
      return Emit(out, kQueued);
    case proposals::Outcome::kQuotaExceeded:
      out["status"] = "quota-exceeded";
      out["quota"] = r->quota;
      out["dropped"] = r->dropped;
      out["wave"] = p.fields.wave_id;
      return Emit(out, kQuota);
    case proposals::Outcome::kBelowFloor:
      out["status"] = "rejected-low-confidence";
      out["floor"] = settings->confidence_floor;
      out["provided"] = p.fields.confidence;
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
  for (auto t : proposals::Types()) types += (types.empty() ? "" : ", ") + std::string(t);
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
  sub->add_option("--quota-per-wave", a->flags.quota_per_wave, "Override memory.proposals.quota_per_wave");
  sub->add_option("--confidence-floor", a->flags.confidence_floor, "Override memory.proposals.confidence_floor");
  sub->footer(
      "Exit codes: 0 queued (or dry run), 1 quota exceeded, 2 below the confidence floor,\n"
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

void PrintHuman(const proposals::Collected& c) {
  const auto& s = c.stats;
  std::string out = std::to_string(c.order.size()) + " proposal" +
                    (c.order.size() == 1 ? "" : "s") + " queued (counters: queued " +
                    std::to_string(s.queued) + ", dropped " + std::to_string(s.dropped) +
                    ", below floor " + std::to_string(s.below_floor) + ", fs errors " +
                    std::to_string(s.fs_error) + "; malformed lines " +
                    std::to_string(s.parse_errors) + ")\n";
  size_t n = 0;
  for (size_t i : c.order) {
    const auto& e = c.scan.records[i];
    out += "\n" + std::to_string(++n) + ". " + proposals::Label(e.record) + "\n   " +
           proposals::Description(e.record) + "\n   id " + (e.id.empty() ? "(none)" : e.id);
    if (e.record.contains("wave_id") && e.record["wave_id"].is_string()) {
      out += "  wave " + e.record["wave_id"].get<std::string>();
    }
    if (e.record.contains("created_at") && e.record["created_at"].is_string()) {
      out += "  " + e.record["created_at"].get<std::string>();
    }
    out += "\n";
  }
  Print(out, false);
}

void AddProposals(Registry& r) {
  auto a = std::make_shared<ListArgs>();
  CLI::App* sub = r.Add("proposals", "List the queued proposals and their counters", [a]() {
    auto store = app::OpenStore(a->repo);
    if (!store) return ReportError(store.error());
    auto c = proposals::Collect(proposals::Paths::InStore(store->dir()), a->min_confidence);
    if (!c) return ReportError(c.error());
    for (const auto& path : c->unreadable) {
      ReportWarning(Error{ErrorCode::kCorrupt,
                          "summary file does not parse; its counters are left out", path, 0,
                          "fix or remove it"});
    }
    if (a->json) {
      Print(json::DumpJs(proposals::ToJson(*c)));
    } else {
      PrintHuman(*c);
    }
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
