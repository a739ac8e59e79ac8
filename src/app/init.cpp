#include "lore/app/init.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iterator>

#include "lore/agent_setup/diff.h"

namespace lore::app {
namespace as = agent_setup;
namespace {

std::string EnvOrEmpty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

std::string Home() { return EnvOrEmpty("HOME"); }

}  // namespace

const std::vector<std::string_view>& InitAgents() { return as::Agents(); }

std::vector<as::Scope> InitScopes(std::string_view agent) {
  if (agent == "claude-code") return {std::begin(as::kScopes), std::end(as::kScopes)};
  return {as::Scope::kProject, as::Scope::kUser};
}

as::Scope InitScopeNamed(std::string_view name) {
  for (as::Scope s : as::kScopes) {
    if (as::ScopeName(s) == name) return s;
  }
  return as::Scope::kProject;
}

std::string_view InitScopeName(as::Scope scope) { return as::ScopeName(scope); }

std::string_view PieceStateName(as::PieceState state) { return as::StateName(state); }

ChosenScope ChooseInitScope(const std::string& agent, const std::string& project,
                            const std::function<bool()>& other_contributors) {
  for (as::Scope s : InitScopes(agent)) {
    auto plan = as::PlanInstall(agent, project, s, Home());
    if (plan && as::HasLoreHooks(*plan)) return {s, "where lore's hooks already are"};
  }
  if (agent != "claude-code") {
    return {as::Scope::kProject,
            "the project's own files; --scope user sets it up for every project"};
  }
  if (other_contributors()) {
    return {as::Scope::kLocal,
            "a git checkout with other contributors: nothing a teammate sees; --scope project "
            "shares it"};
  }
  return {as::Scope::kProject, "the project's shared files; --scope local keeps them yours"};
}

Result<as::Plan> PlanInit(std::string_view agent, const std::string& project, as::Scope scope) {
  return as::PlanInstall(agent, project, scope, Home());
}

Result<as::Plan> PlanInitRemoval(std::string_view agent, const std::string& project,
                                 as::Scope scope) {
  return as::PlanRemove(agent, project, scope, Home());
}

std::vector<as::Scope> ScopesWithLore(const std::string& agent, const std::string& project) {
  std::vector<as::Scope> out;
  for (as::Scope s : InitScopes(agent)) {
    auto p = as::PlanRemove(agent, project, s, Home());
    if (p && p->changed()) out.push_back(s);
  }
  return out;
}

Result<std::vector<as::Applied>> ApplyInit(const as::Plan& plan, text::TimePoint now) {
  return as::Apply(plan, now);
}

std::vector<std::pair<as::Scope, std::string>> HooksInOtherScopes(const std::string& agent,
                                                                  const as::Plan& plan) {
  std::vector<std::pair<as::Scope, std::string>> out;
  for (as::Scope s : InitScopes(agent)) {
    if (s == plan.scope) continue;
    auto other = as::PlanInstall(agent, plan.project, s, Home());
    if (!other || !as::HasLoreHooks(*other)) continue;
    std::string file;
    for (const as::Piece& p : other->pieces) {
      if (p.name.rfind("hook ", 0) == 0 && p.state != as::PieceState::kMissing) file = p.file;
    }
    out.emplace_back(s, file);
  }
  return out;
}

std::vector<std::string> PluginEnabledIn(const std::string& project) {
  return as::PluginEnabledIn(project, Home());
}

Result<as::Trust> FolderTrust(const std::string& agent, const as::Plan& plan) {
  return as::CheckTrust(agent, plan.project, plan.scope, Home(), EnvOrEmpty("CODEX_HOME"));
}

bool AllInstalled(const as::Plan& plan) {
  for (const as::Piece& p : plan.pieces) {
    if (p.state != as::PieceState::kInstalled) return false;
  }
  return true;
}

size_t PiecesPresent(const as::Plan& plan) {
  size_t n = 0;
  for (const as::Piece& p : plan.pieces) n += p.state != as::PieceState::kMissing;
  return n;
}

std::vector<const as::Piece*> PiecesOf(const as::Plan& plan, const std::string& rel,
                                       as::PieceState state) {
  std::vector<const as::Piece*> out;
  for (const as::Piece& p : plan.pieces) {
    if (p.file == rel && p.state == state) out.push_back(&p);
  }
  return out;
}

std::string_view LorePermission() { return as::kLorePermission; }

bool AddsLorePermission(const as::Piece& piece) {
  return piece.name == "permission " + std::string(as::kLorePermission) &&
         piece.state == as::PieceState::kMissing;
}

std::string FileDiff(const as::FilePlan& file) {
  return as::LineDiff(file.old_text, file.new_text);
}

LoreBinary CheckLoreBinary(const std::string& cwd) {
  LoreBinary b;
  b.on_path = as::ResolveOnPath("lore", EnvOrEmpty("PATH"), cwd);
  char exe[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  b.running = n > 0 ? std::string(exe, static_cast<size_t>(n)) : "/proc/self/exe";
  b.same = !b.on_path.empty() && as::SameFile(b.on_path, "/proc/self/exe");
  return b;
}

InitCheck CheckInit(const std::string& agent, const std::string& project, const std::string& cwd) {
  InitCheck c;
  c.binary = CheckLoreBinary(cwd);
  for (as::Scope s : InitScopes(agent)) {
    auto plan = as::PlanInstall(agent, project, s, Home());
    if (plan) {
      c.plans.push_back(std::move(*plan));
    } else {
      c.failed.emplace_back(s, plan.error());
    }
  }
  for (size_t i = 0; i < c.plans.size() && !c.active; ++i) {
    if (AllInstalled(c.plans[i])) c.active = i;
  }
  for (size_t i = 0; i < c.plans.size(); ++i) {
    if (!c.active || (!AllInstalled(c.plans[*c.active]) &&
                      PiecesPresent(c.plans[i]) > PiecesPresent(c.plans[*c.active]))) {
      c.active = i;
    }
  }
  const as::Plan* active = c.active ? &c.plans[*c.active] : nullptr;
  c.installed = active && AllInstalled(*active);
  // Hooks in two scopes run twice: not "all installed", whatever else is.
  for (const as::Plan& p : c.plans) {
    if (as::HasLoreHooks(p)) c.hook_scopes.emplace_back(as::ScopeName(p.scope));
  }
  // Codex and Gemini CLI read lore's entries only in a trusted folder.
  if (active) {
    auto t = FolderTrust(agent, *active);
    if (t) {
      c.trust = *t;
    } else {
      c.trust_error = t.error().Format();
    }
  }
  c.trusted = c.trust_error.empty() && (!c.trust || c.trust->trusted);
  c.ok = c.binary.same && c.installed && c.failed.empty() && c.hook_scopes.size() <= 1 && c.trusted;
  c.project = active ? active->project : project;
  return c;
}

}  // namespace lore::app
