// `lore init <agent> [--project DIR] [--dry-run]` and `lore init --check`:
// sets lore up in a project for a coding agent (docs/agents.md). The library
// (agent_setup/) plans, merges and writes; this file prints.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/engine.h"
#include "lore/app/store.h"
#include "lore/agent_setup/diff.h"
#include "lore/agent_setup/install.h"
#include "lore/agent_setup/review_command.h"
#include "lore/json/value.h"

namespace lore::cli {
namespace {

namespace as = agent_setup;

struct InitArgs {
  std::string agent;
  std::string project;
  bool dry_run = false;
  bool check = false;
  bool json = false;
  std::string engine;  // --engine: "" leaves config.toml alone
};

std::string Cwd() {
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? cwd : ".";
}

// The lore the hooks run (`lore` on this process's PATH) against this one.
struct BinaryCheck {
  std::string on_path;  // empty: none
  std::string running;
  bool same = false;
};

BinaryCheck CheckBinary() {
  BinaryCheck b;
  const char* path = std::getenv("PATH");
  b.on_path = as::ResolveOnPath("lore", path ? path : "", Cwd());
  char exe[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  b.running = n > 0 ? std::string(exe, static_cast<size_t>(n)) : "/proc/self/exe";
  b.same = !b.on_path.empty() && as::SameFile(b.on_path, "/proc/self/exe");
  return b;
}

std::string BinaryLine(const BinaryCheck& b) {
  if (b.on_path.empty()) {
    return "no 'lore' on PATH: the hooks cannot run (put " + b.running +
           " on PATH, e.g. a link in ~/.local/bin)";
  }
  if (b.same) return "'lore' on PATH is " + b.on_path + ", this lore";
  return "'lore' on PATH is " + b.on_path + ", not this lore (" + b.running +
         "): the hooks run that one";
}

std::vector<const as::Piece*> PiecesOf(const as::Plan& plan, const std::string& rel,
                                       as::PieceState state) {
  std::vector<const as::Piece*> out;
  for (const as::Piece& p : plan.pieces) {
    if (p.file == rel && p.state == state) out.push_back(&p);
  }
  return out;
}

std::string Names(const std::vector<const as::Piece*>& pieces) {
  std::string s;
  for (const as::Piece* p : pieces) s += (s.empty() ? "" : ", ") + p->name;
  return s;
}

void PrintDifferent(const as::Plan& plan) {
  for (const as::Piece& p : plan.pieces) {
    if (p.state == as::PieceState::kDifferent && p.file != as::kReviewCommandRel) {
      Print("  kept " + p.name + " in " + p.file + ": " + p.detail);
    }
  }
}

int RunCheck(const InitArgs& a, const as::Plan& plan) {
  BinaryCheck b = CheckBinary();
  bool ok = b.same;
  for (const as::Piece& p : plan.pieces) ok = ok && p.state == as::PieceState::kInstalled;
  if (a.json) {
    Json j;
    j["agent"] = a.agent;
    j["project"] = plan.project;
    j["pieces"] = Json::array();
    for (const as::Piece& p : plan.pieces) {
      Json e;
      e["file"] = p.file;
      e["piece"] = p.name;
      e["state"] = std::string(as::StateName(p.state));
      if (!p.detail.empty()) e["detail"] = p.detail;
      j["pieces"].push_back(std::move(e));
    }
    j["lore_on_path"] =
        b.on_path.empty() ? Json() : Json(b.on_path);
    j["running"] = b.running;
    j["same_binary"] = b.same;
    j["ok"] = ok;
    Print(j.dump(-1, ' ', false, Json::error_handler_t::replace));
    return ok ? kExitOk : kExitError;
  }
  Print("lore init --check " + a.agent + ": " + plan.project);
  for (const as::Piece& p : plan.pieces) {
    std::string state(as::StateName(p.state));
    state.resize(10, ' ');
    Print("  " + state + p.name + " (" + p.file + ")" + (p.detail.empty() ? "" : ": " + p.detail));
  }
  Print(std::string("  ") + (b.same ? "same      " : "different ") + "binary: " + BinaryLine(b));
  bool pieces_ok = true;
  for (const as::Piece& p : plan.pieces)
    pieces_ok = pieces_ok && p.state == as::PieceState::kInstalled;
  if (ok) {
    Print("all installed");
  } else if (pieces_ok) {
    Print("all installed, but the hooks do not run this lore (see PATH above)");
  } else {
    Print("not fully installed: run 'lore init " + a.agent + "'");
  }
  return ok ? kExitOk : kExitError;
}

int RunDryRun(const InitArgs& a, const as::Plan& plan) {
  if (!plan.changed()) {
    Print("lore init " + a.agent + ": up to date (" + plan.project + "); nothing would change");
    PrintDifferent(plan);
    return kExitOk;
  }
  Print("lore init " + a.agent + " --dry-run: " + plan.project + " (nothing written)");
  for (const as::FilePlan& f : plan.files) {
    if (!f.changed) continue;
    auto added = PiecesOf(plan, f.rel, as::PieceState::kMissing);
    auto replaced = PiecesOf(plan, f.rel, as::PieceState::kDifferent);
    std::string what = f.exists ? "would update " : "would create ";
    std::string names = Names(added.empty() ? replaced : added);
    Print(what + f.rel + (names.empty() ? "" : " (" + names + ")") +
          (f.exists ? ", keeping a backup" : ""));
    Print(as::LineDiff(f.old_text, f.new_text), false);
  }
  PrintDifferent(plan);
  return kExitOk;
}

int RunInstall(const InitArgs& a, const as::Plan& plan) {
  BinaryCheck b = CheckBinary();
  if (!plan.changed()) {
    Print("lore init " + a.agent + ": up to date (" + plan.project + ")");
    PrintDifferent(plan);
    if (!b.same) Print("  note: " + BinaryLine(b));
    return kExitOk;
  }
  auto applied = as::Apply(plan, std::chrono::system_clock::now());
  if (!applied) return ReportError(applied.error());
  Print("lore init " + a.agent + ": " + plan.project);
  for (const as::Applied& done : *applied) {
    auto added = PiecesOf(plan, done.rel, as::PieceState::kMissing);
    auto replaced = PiecesOf(plan, done.rel, as::PieceState::kDifferent);
    std::string names = Names(added.empty() ? replaced : added);
    std::string line = "  " + done.rel + (done.backup.empty() ? ": created" : ": updated");
    if (!names.empty()) line += " (" + names + ")";
    if (!done.backup.empty()) line += "; backup " + done.backup;
    Print(line);
  }
  PrintDifferent(plan);
  if (!b.same) Print("  note: " + BinaryLine(b));
  return kExitOk;
}

int RunInit(InitArgs a) {
  if (a.agent.empty()) {
    if (!a.check) {
      std::cerr << "lore: init needs an agent: lore init claude-code [--project DIR] [--dry-run]"
                << " (or lore init --check)\n";
      return kExitUsage;
    }
    a.agent = "claude-code";
  }
  if (a.json && !a.check) {
    std::cerr << "lore: --json goes with --check\n";
    return kExitUsage;
  }
  auto plan = as::PlanInstall(a.agent, a.project.empty() ? Cwd() : a.project);
  if (!plan) {
    ReportError(plan.error());
    return plan.error().code == ErrorCode::kInvalidInput && a.agent != "claude-code" ? kExitUsage
                                                                                     : kExitError;
  }
  if (a.check) return RunCheck(a, *plan);
  if (a.dry_run) return RunDryRun(a, *plan);
  int code = RunInstall(a, *plan);
  if (code != kExitOk || a.engine.empty()) return code;
  auto store = app::LocateStore(plan->project);
  if (!store) return ReportError(store.error());
  auto chosen = app::ChooseEngine(*store, a.engine);
  if (!chosen) return ReportError(chosen.error());
  Print("  " + *chosen);
  return kExitOk;
}

}  // namespace

void RegisterInitCommands(Registry& r) {
  auto a = std::make_shared<InitArgs>();
  CLI::App* sub = r.Add("init", "Set lore up in a project for a coding agent (hooks, MCP, review)",
                        [a]() { return RunInit(*a); });
  sub->add_option("agent", a->agent, "The agent: claude-code");
  sub->add_option("--project", a->project, "The project's folder (default: the current one)");
  sub->add_flag("--dry-run", a->dry_run, "Print the planned changes; write nothing");
  sub->add_flag("--check", a->check,
                "Report what is installed, missing or different, and whether 'lore' on PATH is "
                "this binary (exit 1 unless all is in place)");
  sub->add_flag("--json", a->json, "With --check: one JSON object");
  sub->add_option("--engine", a->engine,
                  "Who extracts and consolidates: rules (no model, the default), claude-code "
                  "(your Claude login), anthropic (ANTHROPIC_API_KEY) or openai; written into "
                  "the project's store's config.toml")
      ->check(CLI::IsMember({"rules", "claude-code", "anthropic", "openai"}));
}

}  // namespace lore::cli
