// `lore init <agent> [--project DIR] [--dry-run]` and `lore init --check`:
// sets lore up in a project for a coding agent (docs/agents.md). The use cases
// (app/init.h) choose the scope, plan, write and check; this file prints.
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/engine.h"
#include "lore/app/init.h"
#include "lore/app/store.h"
#include "lore/json/value.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

namespace as = agent_setup;

struct InitArgs {
  std::string agent;
  std::string project;
  bool dry_run = false;
  bool check = false;
  bool json = false;
  bool remove = false;  // --remove: take out what lore init added
  std::string engine;   // --engine: "" leaves config.toml alone
  std::string scope;    // --scope: "" chooses (app::ChooseInitScope)
};

// Codex and Gemini CLI ignore lore's entries in a folder the person has not
// trusted: the lines that say so and how to trust it (lore never writes it).
std::vector<std::string> TrustLines(const std::string& agent, const as::Trust& t) {
  if (!t.needed || t.trusted) return {};
  const std::string name = agent == "codex" ? "Codex" : "Gemini CLI";
  std::vector<std::string> out;
  out.push_back(
      "  note: " + name + " ignores lore's " +
      (agent == "codex" ? std::string("project entries (.codex/)") : std::string("MCP server")) +
      " until this folder is trusted, and it is not (" + t.detail + "): trust it in " + t.file +
      (agent == "codex" ? " with the table" : ", adding to its object") + ":");
  size_t start = 0;
  while (start <= t.entry.size()) {
    size_t end = t.entry.find('\n', start);
    if (end == std::string::npos) end = t.entry.size();
    out.push_back("    " + t.entry.substr(start, end - start));
    start = end + 1;
  }
  out.push_back(std::string("    (or start ") + (agent == "codex" ? "codex" : "gemini") +
                " in the folder and answer its trust question; lore init never trusts a folder "
                "for you)");
  return out;
}

void PrintTrust(const std::string& agent, const as::Plan& plan) {
  auto t = app::FolderTrust(agent, plan);
  if (!t) {
    Print("  note: cannot tell whether the folder is trusted: " + t.error().Format());
    return;
  }
  for (const std::string& line : TrustLines(agent, *t)) Print(line);
}

// True when the project's git history names more than one author: a checkout
// others work in too, where lore's files should stay the person's own.
bool OtherContributors(const std::string& project) {
  auto out = proc::Output({"git", "-C", project, "log", "--format=%ae", "-n", "2000"}, project,
                          1 << 18, 5000);
  if (!out) return false;
  std::set<std::string> authors;
  size_t start = 0;
  while (start < out->size()) {
    size_t end = out->find('\n', start);
    if (end == std::string::npos) end = out->size();
    if (end > start) authors.insert(out->substr(start, end - start));
    start = end + 1;
  }
  return authors.size() > 1;
}

// The other scopes that hold lore's hooks: Claude Code would run both.
void NoteOtherScopes(const std::string& agent, const as::Plan& plan) {
  for (const auto& [s, file] : app::HooksInOtherScopes(agent, plan)) {
    Print("  note: lore's hooks are also in the " + std::string(app::InitScopeName(s)) +
          " scope (" + file +
          "), and the agent runs both: remove them there, or run lore init --scope " +
          std::string(app::InitScopeName(s)));
  }
}

std::string Cwd() {
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? cwd : ".";
}

std::string BinaryLine(const app::LoreBinary& b) {
  if (b.on_path.empty()) {
    return "no 'lore' on PATH: the hooks cannot run (put " + b.running +
           " on PATH, e.g. a link in ~/.local/bin)";
  }
  if (b.same) return "'lore' on PATH is " + b.on_path + ", this lore";
  return "'lore' on PATH is " + b.on_path + ", not this lore (" + b.running +
         "): the hooks run that one";
}

std::string Names(const std::vector<const as::Piece*>& pieces) {
  std::string s;
  for (const as::Piece* p : pieces) s += (s.empty() ? "" : ", ") + p->name;
  return s;
}

void PrintDifferent(const as::Plan& plan) {
  for (const as::Piece& p : plan.pieces) {
    if (p.state == as::PieceState::kDifferent && p.name != "command lore-review" &&
        p.detail.find("lore init replaces it") == std::string::npos) {
      Print("  kept " + p.name + " in " + p.file + ": " + p.detail);
    }
  }
}

Json PiecesJson(const as::Plan& plan) {
  Json pieces = Json::array();
  for (const as::Piece& p : plan.pieces) {
    Json e;
    e["file"] = p.file;
    e["piece"] = p.name;
    e["state"] = std::string(app::PieceStateName(p.state));
    if (!p.detail.empty()) e["detail"] = p.detail;
    pieces.push_back(std::move(e));
  }
  return pieces;
}

// Every scope is read; the one reported first is the one fully installed,
// else the one holding most of lore's pieces.
int RunCheck(const InitArgs& a, const std::string& project) {
  const app::InitCheck c = app::CheckInit(a.agent, project, Cwd());
  const app::LoreBinary& b = c.binary;
  const std::vector<as::Plan>& plans = c.plans;
  const as::Plan* active = c.active ? &plans[*c.active] : nullptr;
  const std::vector<std::string>& hook_scopes = c.hook_scopes;
  const std::optional<as::Trust>& trust = c.trust;
  const std::string& trust_error = c.trust_error;
  const std::string& project_abs = c.project;
  const bool installed = c.installed, trusted = c.trusted, ok = c.ok;
  if (a.json) {
    Json j;
    j["agent"] = a.agent;
    j["project"] = project_abs;
    j["scope"] = active ? Json(std::string(app::InitScopeName(active->scope))) : Json();
    j["pieces"] = active ? PiecesJson(*active) : Json::array();
    j["scopes"] = Json::object();
    for (const as::Plan& p : plans) {
      Json e;
      e["installed"] = app::AllInstalled(p);
      e["pieces"] = PiecesJson(p);
      j["scopes"][std::string(app::InitScopeName(p.scope))] = std::move(e);
    }
    for (const auto& [s, err] : c.failed) {
      Json e;
      e["error"] = err.Format();
      j["scopes"][std::string(app::InitScopeName(s))] = std::move(e);
    }
    if (a.agent == "claude-code") j["plugin_enabled_in"] = app::PluginEnabledIn(project_abs);
    j["lore_on_path"] = b.on_path.empty() ? Json() : Json(b.on_path);
    j["running"] = b.running;
    j["same_binary"] = b.same;
    j["hooks_in_scopes"] = hook_scopes;
    if (trust && trust->needed) {
      Json tj;
      tj["trusted"] = trust->trusted;
      tj["file"] = trust->file;
      if (!trust->trusted) {
        tj["entry"] = trust->entry;
        tj["detail"] = trust->detail;
      }
      j["folder_trust"] = std::move(tj);
    } else if (!trust_error.empty()) {
      Json tj;
      tj["error"] = trust_error;
      j["folder_trust"] = std::move(tj);
    }
    j["ok"] = ok;
    Print(j.dump(-1, ' ', false, Json::error_handler_t::replace));
    return ok ? kExitOk : kExitError;
  }
  Print("lore init --check " + a.agent + ": " + project_abs);
  for (const as::Plan& p : plans) {
    std::string name(app::InitScopeName(p.scope));
    if (app::PiecesPresent(p) == 0) {
      Print(" scope " + name + ": nothing of lore's");
      continue;
    }
    Print(" scope " + name + (app::AllInstalled(p) ? ": installed" : ":"));
    for (const as::Piece& piece : p.pieces) {
      std::string state(app::PieceStateName(piece.state));
      state.resize(10, ' ');
      Print("  " + state + piece.name + " (" + piece.file + ")" +
            (piece.detail.empty() ? "" : ": " + piece.detail));
    }
  }
  for (const auto& [s, err] : c.failed) {
    Print(" scope " + std::string(app::InitScopeName(s)) + ": cannot be read: " + err.Format());
  }
  Print(std::string("  ") + (b.same ? "same      " : "different ") + "binary: " + BinaryLine(b));
  if (trust && trust->needed) {
    if (trust->trusted) {
      Print("  trusted   folder: " + project_abs + " (" + trust->file + ")");
    } else {
      Print("  untrusted folder: " + trust->detail);
    }
  } else if (!trust_error.empty()) {
    Print("  unknown   folder trust: " + trust_error);
  }
  if (a.agent == "claude-code") {
    for (const std::string& file : app::PluginEnabledIn(project_abs)) {
      Print("  note: lore's Claude Code plugin is enabled in " + file +
            " too: its hooks run as well");
    }
  }
  std::string scopes;
  for (const std::string& sc : hook_scopes) {
    scopes += (scopes.empty() ? "" : &sc == &hook_scopes.back() ? " and " : ", ") + sc;
  }
  if (hook_scopes.size() > 1) {
    Print("not fully installed: lore's hooks are in the " + scopes +
          " scopes, and the agent runs each, so every hook runs twice: keep one, e.g. 'lore init " +
          a.agent + " --remove --scope " + hook_scopes.back() + "'");
  } else if (installed && c.failed.empty() && !trusted && trust) {
    Print("installed, but not read: " + std::string(a.agent == "codex" ? "Codex" : "Gemini CLI") +
          " ignores lore in a folder it does not trust");
    for (const std::string& line : TrustLines(a.agent, *trust)) Print(line);
  } else if (ok) {
    Print("all installed (scope " + std::string(app::InitScopeName(active->scope)) + ")");
  } else if (installed && c.failed.empty()) {
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
    auto added = app::PiecesOf(plan, f.rel, as::PieceState::kMissing);
    auto replaced = app::PiecesOf(plan, f.rel, as::PieceState::kDifferent);
    std::string what = f.exists ? "would update " : "would create ";
    std::string names = Names(added.empty() ? replaced : added);
    Print(what + f.rel + (names.empty() ? "" : " (" + names + ")") +
          (f.exists ? ", keeping a backup" : ""));
    Print(app::FileDiff(f), false);
  }
  PrintDifferent(plan);
  return kExitOk;
}

int RunInstall(const InitArgs& a, const as::Plan& plan) {
  const app::LoreBinary b = app::CheckLoreBinary(Cwd());
  if (!plan.changed()) {
    Print("lore init " + a.agent + ": up to date (" + plan.project + ")");
    PrintDifferent(plan);
    PrintTrust(a.agent, plan);
    if (!b.same) Print("  note: " + BinaryLine(b));
    return kExitOk;
  }
  auto applied = app::ApplyInit(plan, std::chrono::system_clock::now());
  if (!applied) return ReportError(applied.error());
  Print("lore init " + a.agent + ": " + plan.project);
  for (const as::Applied& done : *applied) {
    auto added = app::PiecesOf(plan, done.rel, as::PieceState::kMissing);
    auto replaced = app::PiecesOf(plan, done.rel, as::PieceState::kDifferent);
    std::string names = Names(added.empty() ? replaced : added);
    std::string line = "  " + done.rel + (done.backup.empty() ? ": created" : ": updated");
    if (!names.empty()) line += " (" + names + ")";
    if (!done.backup.empty()) line += "; backup " + done.backup;
    Print(line);
  }
  for (const as::Piece& p : plan.pieces) {
    if (app::AddsLorePermission(p)) {
      Print("  lore's MCP tools run without a permission prompt (permissions.allow \"" +
            std::string(app::LorePermission()) + "\" in " + p.file + ")");
      if (plan.scope == as::Scope::kProject) {
        Print(
            "  note: Claude Code applies the permission rules of a project's shared settings "
            "once the folder is trusted (its first interactive start asks); the local scope's "
            "apply at once");
      }
    }
  }
  PrintDifferent(plan);
  PrintTrust(a.agent, plan);
  if (!b.same) Print("  note: " + BinaryLine(b));
  return kExitOk;
}

// --remove: what lore added to one scope, taken out (with a backup of each
// file changed). Without --scope, the one scope that holds lore's pieces.
int RunRemove(const InitArgs& a, const std::string& project) {
  std::vector<as::Scope> scopes;
  if (!a.scope.empty()) {
    scopes.push_back(app::InitScopeNamed(a.scope));
  } else {
    scopes = app::ScopesWithLore(a.agent, project);
    if (scopes.size() > 1) {
      std::string names;
      for (as::Scope s : scopes)
        names += (names.empty() ? "" : ", ") + std::string(app::InitScopeName(s));
      ReportError(Error{
          ErrorCode::kInvalidInput, "lore is set up in more than one scope (" + names + ")", "", 0,
          "say which to take it out of: lore init " + a.agent + " --remove --scope <scope>"});
      return kExitUsage;
    }
    if (scopes.empty()) scopes.push_back(as::Scope::kProject);
  }
  auto plan = app::PlanInitRemoval(a.agent, project, scopes.front());
  if (!plan) return ReportError(plan.error());
  const std::string head = "lore init " + a.agent + " --remove: scope " +
                           std::string(app::InitScopeName(plan->scope)) + " (" + plan->project +
                           ")";
  if (!plan->changed()) {
    Print(head + ": nothing of lore's there; nothing changed");
    PrintDifferent(*plan);
    return kExitOk;
  }
  if (a.dry_run) {
    Print(head + " --dry-run (nothing written)");
    for (const as::FilePlan& f : plan->files) {
      if (!f.changed) continue;
      Print((f.remove ? "would remove " : "would update ") + f.rel + " (" +
            Names(app::PiecesOf(*plan, f.rel, as::PieceState::kInstalled)) + "), keeping a backup");
      if (!f.remove) Print(app::FileDiff(f), false);
    }
    PrintDifferent(*plan);
    return kExitOk;
  }
  auto applied = app::ApplyInit(*plan, std::chrono::system_clock::now());
  if (!applied) return ReportError(applied.error());
  Print(head);
  for (const as::Applied& done : *applied) {
    std::string names = Names(app::PiecesOf(*plan, done.rel, as::PieceState::kInstalled));
    Print("  " + done.rel + (done.removed ? ": removed" : ": updated") +
          (names.empty() ? "" : " (took out " + names + ")") + "; backup " + done.backup);
  }
  PrintDifferent(*plan);
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
  const std::string project = a.project.empty() ? Cwd() : a.project;
  const auto& agents = app::InitAgents();
  if (std::find(agents.begin(), agents.end(), a.agent) == agents.end()) {
    auto plan = app::PlanInit(a.agent, project, as::Scope::kProject);  // the unknown agent's error
    if (!plan) ReportError(plan.error());
    return kExitUsage;
  }
  if (a.agent != "claude-code" && a.scope == "local") {
    ReportError(
        Error{ErrorCode::kInvalidInput,
              "the local scope is Claude Code's; " + a.agent + " has a project and a user scope",
              "", 0, "use --scope project or --scope user"});
    return kExitUsage;
  }
  if (a.remove) {
    if (a.check || !a.engine.empty()) {
      std::cerr << "lore: --remove goes alone (with --scope, --project, --dry-run)\n";
      return kExitUsage;
    }
    return RunRemove(a, project);
  }
  if (a.check) {
    if (!a.scope.empty()) {
      std::cerr << "lore: --check reports every scope; leave --scope out\n";
      return kExitUsage;
    }
    return RunCheck(a, project);
  }
  app::ChosenScope chosen{app::InitScopeNamed(a.scope), "as --scope asked"};
  if (a.scope.empty()) {
    chosen = app::ChooseInitScope(a.agent, project, [&] { return OtherContributors(project); });
  }
  const as::Scope scope = chosen.scope;
  const std::string& why = chosen.why;
  auto plan = app::PlanInit(a.agent, project, scope);
  if (!plan) {
    ReportError(plan.error());
    return kExitError;
  }
  Print("lore init " + a.agent + ": scope " + std::string(app::InitScopeName(scope)) + " (" + why +
        ")");
  NoteOtherScopes(a.agent, *plan);
  if (a.agent == "claude-code") {
    for (const std::string& file : app::PluginEnabledIn(plan->project)) {
      Print("  note: lore's Claude Code plugin is enabled in " + file +
            ", and its hooks run beside these: use one (claude plugin disable lore@lore, or "
            "skip lore init)");
    }
  }
  if (a.dry_run) return RunDryRun(a, *plan);
  int code = RunInstall(a, *plan);
  if (code != kExitOk || a.engine.empty()) return code;
  auto store = app::LocateStore(plan->project);
  if (!store) return ReportError(store.error());
  auto engine = app::ChooseEngine(*store, a.engine);
  if (!engine) return ReportError(engine.error());
  Print("  " + *engine);
  return kExitOk;
}

}  // namespace

void RegisterInitCommands(Registry& r) {
  auto a = std::make_shared<InitArgs>();
  CLI::App* sub = r.Add("init", "Set lore up in a project for a coding agent (hooks, MCP, review)",
                        [a]() { return RunInit(*a); });
  sub->add_option("agent", a->agent, "The agent: claude-code, codex, gemini, cursor or opencode");
  sub->add_option("--project", a->project, "The project's folder (default: the current one)");
  sub->add_flag("--dry-run", a->dry_run, "Print the planned changes; write nothing");
  sub->add_flag("--check", a->check,
                "Report what is installed, missing or different, and whether 'lore' on PATH is "
                "this binary (exit 1 unless all is in place)");
  sub->add_flag("--json", a->json, "With --check: one JSON object");
  sub->add_flag("--remove", a->remove,
                "Take out what lore init added to one scope (its hooks, permission rule, MCP "
                "server, review command), keeping every other setting and a backup of each file "
                "changed (every agent; default scope: the one holding lore's pieces)");
  sub->add_option("--scope", a->scope,
                  "Where the set-up goes: project (.claude/settings.json, .mcp.json: shared "
                  "with everyone who clones it), local (.claude/settings.local.json, "
                  "~/.claude.json: yours, this project) or user (~/.claude/: yours, every "
                  "project). Default: where lore's hooks already are, else local in a git "
                  "checkout with other contributors, else project")
      ->check(CLI::IsMember({"project", "local", "user"}));
  sub->add_option("--engine", a->engine,
                  "Who extracts and consolidates: rules (no model, the default), claude-code "
                  "(your Claude login), anthropic (ANTHROPIC_API_KEY) or openai; written into "
                  "the project's store's config.toml")
      ->check(CLI::IsMember({"rules", "claude-code", "anthropic", "openai"}));
}

}  // namespace lore::cli
