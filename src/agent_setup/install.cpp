// lore init: planning and writing an agent's files in a project.
#include "lore/agent_setup/install.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <functional>

#include "agent_setup/merge_common.h"
#include "fs/atomic_file.h"
#include "lore/agent_setup/review_command.h"
#include "lore/fs/fd.h"
#include "lore/json/field.h"
#include "lore/text/time.h"
#include "text/lines.h"

namespace lore::agent_setup {
namespace {

constexpr std::string_view kSettingsRel = ".claude/settings.json";
constexpr std::string_view kLocalSettingsRel = ".claude/settings.local.json";
constexpr std::string_view kMcpRel = ".mcp.json";
constexpr std::string_view kExcludeLine = "/.claude/settings.local.json";
constexpr std::string_view kExcludeComment =
    "# lore init --scope local: Claude Code's personal settings stay out of git";

// A file as it is now: missing, or a regular file (never a symlink) with its
// bytes and mode. `path` is absolute; `rel` names it in messages (relative to
// the project, or ~/...).
Result<FilePlan> ReadFileAt(const std::string& path, std::string_view rel) {
  FilePlan f;
  f.rel = std::string(rel);
  f.path = path;
  auto st = fs::LStat(f.path);
  if (!st) {
    if (st.error().code == ErrorCode::kNotFound) return f;
    return Fail(st.error());
  }
  if (S_ISLNK(st->st_mode)) {
    return Fail(ErrorCode::kSymlink, "is a symlink; lore init does not write through links", f.path,
                0,
                "replace the link by a copy of the file it points to (cp --remove-destination "
                "\"$(readlink -f " +
                    f.rel + ")\" " + f.rel +
                    "), or add lore's entries there "
                    "by hand (docs/agents.md)");
  }
  if (!S_ISREG(st->st_mode)) {
    return Fail(ErrorCode::kCorrupt, "not a regular file", f.path, 0,
                "move it aside, then run lore init again");
  }
  LORE_ASSIGN(f.old_text, fs::ReadFile(f.path, fs::Kind::kAgentSettings));
  f.exists = true;
  f.mode = st->st_mode & 07777;
  return f;
}

Status RefuseLinkedFolder(const std::string& base, std::string_view rel) {
  const std::string path = fs::Join(base, rel);
  auto st = fs::LStat(path);
  if (!st || !S_ISLNK(st->st_mode)) return Ok();  // missing, or not a link (MakeDirs judges)
  return Fail(ErrorCode::kSymlink, "is a symlink; lore init does not write through links", path, 0,
              "replace the link by a real folder, or add lore's entries by hand (docs/agents.md)");
}

using MergeFn =
    std::function<Result<MergeResult>(std::string_view, const std::string&, const std::string&)>;

Status PlanJson(Plan* plan, const std::string& path, std::string_view rel, const MergeFn& merge) {
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, rel));
  LORE_ASSIGN(MergeResult m, merge(f.old_text, f.path, f.rel));
  f.changed = m.changed;
  f.new_text = !m.changed ? f.old_text : m.text ? *m.text : Render(m.doc);
  for (Piece& p : m.pieces) plan->pieces.push_back(std::move(p));
  plan->files.push_back(std::move(f));
  return Ok();
}

// The inverse of PlanJson for --remove: lore's entries taken out; a file
// left as an empty object is removed when `drop_empty` (lore made it).
Status PlanUnjson(Plan* plan, const std::string& path, std::string_view rel, const MergeFn& unmerge,
                  bool drop_empty) {
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, rel));
  if (!f.exists) {
    LORE_ASSIGN(MergeResult none, unmerge("", f.path, f.rel));  // every piece missing
    for (Piece& p : none.pieces) plan->pieces.push_back(std::move(p));
    return Ok();
  }
  LORE_ASSIGN(MergeResult m, unmerge(f.old_text, f.path, f.rel));
  f.changed = m.changed;
  f.remove =
      m.changed && drop_empty && (m.text ? m.text->empty() : m.doc.is_object() && m.doc.empty());
  f.new_text = !m.changed || f.remove ? f.old_text : m.text ? *m.text : Render(m.doc);
  for (Piece& p : m.pieces) plan->pieces.push_back(std::move(p));
  plan->files.push_back(std::move(f));
  return Ok();
}

// --remove: the review command file goes when it is the one lore writes.
Status PlanUnreviewCommand(Plan* plan, const std::string& path, std::string_view rel) {
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, rel));
  Piece p{f.rel, "command lore-review", PieceState::kMissing, {}};
  if (f.exists && f.old_text == ReviewCommandText()) {
    p.state = PieceState::kInstalled;
    f.changed = f.remove = true;
  } else if (f.exists) {
    p.state = PieceState::kDifferent;
    p.detail = "not the review command this lore writes (lore init --remove leaves it)";
  }
  f.new_text = f.old_text;
  plan->pieces.push_back(std::move(p));
  if (f.exists) plan->files.push_back(std::move(f));
  return Ok();
}

Status PlanReviewCommand(Plan* plan, const std::string& path, std::string_view rel) {
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, rel));
  Piece p{f.rel, "command lore-review", PieceState::kMissing, {}};
  if (f.exists && f.old_text == ReviewCommandText()) {
    p.state = PieceState::kInstalled;
  } else if (f.exists) {
    p.state = PieceState::kDifferent;
    p.detail = "another version of lore's review command (lore init replaces it, keeping a backup)";
  }
  f.new_text = std::string(ReviewCommandText());
  f.changed = p.state != PieceState::kInstalled;
  plan->pieces.push_back(std::move(p));
  plan->files.push_back(std::move(f));
  return Ok();
}

// The exclude file of the git checkout at `project` (.git/info/exclude, or
// the common folder's for a worktree); empty when it is not a checkout.
std::string GitExcludeFile(const std::string& project) {
  const std::string dot_git = fs::Join(project, ".git");
  auto st = fs::LStat(dot_git);
  if (!st) return {};
  if (S_ISDIR(st->st_mode)) return fs::Join(dot_git, "info/exclude");
  if (!S_ISREG(st->st_mode)) return {};
  auto text = fs::ReadFile(dot_git, fs::Kind::kAgentSettings);
  if (!text || text->rfind("gitdir: ", 0) != 0) return {};
  std::string dir = text->substr(8);
  while (!dir.empty() && (dir.back() == '\n' || dir.back() == '\r')) dir.pop_back();
  if (dir.empty()) return {};
  if (dir.front() != '/') dir = fs::Join(project, dir);
  // A worktree's own folder names the common one, where info/exclude is read.
  if (auto common = fs::ReadFile(fs::Join(dir, "commondir"), fs::Kind::kAgentSettings)) {
    std::string c = *common;
    while (!c.empty() && (c.back() == '\n' || c.back() == '\r')) c.pop_back();
    if (!c.empty()) dir = c.front() == '/' ? c : fs::Join(dir, c);
  }
  return fs::Join(dir, "info/exclude");
}

// The local scope's settings file kept out of git, in the checkout's own
// exclude file (never the shared .gitignore).
Status PlanGitExclude(Plan* plan) {
  const std::string path = GitExcludeFile(plan->project);
  if (path.empty()) return Ok();
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, ".git/info/exclude"));
  Piece p{f.rel, "git exclude " + std::string(kLocalSettingsRel), PieceState::kMissing, {}};
  for (std::string_view line : text::Lines(f.old_text)) {
    if (line == kExcludeLine || line == kExcludeLine.substr(1)) p.state = PieceState::kInstalled;
  }
  f.new_text = f.old_text;
  if (p.state == PieceState::kMissing) {
    if (!f.new_text.empty() && f.new_text.back() != '\n') f.new_text += '\n';
    f.new_text += std::string(kExcludeComment) + "\n";
    f.new_text += std::string(kExcludeLine) + "\n";
    f.changed = true;
  }
  plan->pieces.push_back(std::move(p));
  plan->files.push_back(std::move(f));
  return Ok();
}

// --remove: the two lines PlanGitExclude appends (the comment, then the
// path), where they stand together; a line the person wrote alone stays.
Status PlanUnexclude(Plan* plan) {
  const std::string path = GitExcludeFile(plan->project);
  if (path.empty()) return Ok();
  LORE_ASSIGN(FilePlan f, ReadFileAt(path, ".git/info/exclude"));
  Piece p{f.rel, "git exclude " + std::string(kLocalSettingsRel), PieceState::kMissing, {}};
  const std::string pair = std::string(kExcludeComment) + "\n" + std::string(kExcludeLine) + "\n";
  const size_t at = f.old_text.find(pair);
  if (at != std::string::npos && (at == 0 || f.old_text[at - 1] == '\n')) {
    p.state = PieceState::kInstalled;
    f.new_text = f.old_text.substr(0, at) + f.old_text.substr(at + pair.size());
    f.changed = true;
  } else {
    f.new_text = f.old_text;
  }
  plan->pieces.push_back(std::move(p));
  if (f.exists) plan->files.push_back(std::move(f));
  return Ok();
}

// "2026-12-01T12:16:36Z" -> "20261201T121636Z".
std::string Stamp(std::chrono::system_clock::time_point now) {
  std::string s;
  for (char c : text::UtcSeconds(now)) {
    if (c != '-' && c != ':') s += c;
  }
  return s;
}

Result<std::string> Backup(const FilePlan& f, const std::string& stamp) {
  const std::string base = f.path + ".lore-backup-" + stamp;
  for (int n = 1; n <= 100; ++n) {
    std::string name = n == 1 ? base : base + "-" + std::to_string(n);
    if (fs::Exists(name)) continue;
    LORE_TRY(fs::WriteNewFile(name, f.old_text, 0600));
    return name;
  }
  return Fail(ErrorCode::kExists, "too many backups with this time stamp", base, 0,
              "remove old .lore-backup-* files, then run lore init again");
}

// Refuses when the file is no longer what PlanInstall read.
Status Unchanged(const FilePlan& f) {
  auto st = fs::LStat(f.path);
  bool exists = st.has_value();
  if (!exists && st.error().code != ErrorCode::kNotFound) return Fail(st.error());
  bool same = exists == f.exists;
  if (same && exists) {
    auto now = fs::ReadFile(f.path, fs::Kind::kAgentSettings);
    same = now && *now == f.old_text;
  }
  if (same) return Ok();
  return Fail(ErrorCode::kBusy, "changed while lore init ran", f.path, 0,
              "run lore init again (nothing of this file was written)");
}

}  // namespace

bool Plan::changed() const {
  for (const FilePlan& f : files) {
    if (f.changed) return true;
  }
  return false;
}

std::string_view ScopeName(Scope s) {
  switch (s) {
    case Scope::kProject:
      return "project";
    case Scope::kLocal:
      return "local";
    case Scope::kUser:
      return "user";
  }
  return "project";
}

bool HasLoreHooks(const Plan& plan) {
  for (const Piece& p : plan.pieces) {
    if (p.name.rfind("hook ", 0) == 0 && p.state != PieceState::kMissing) return true;
  }
  return false;
}

namespace {

// Codex, Gemini CLI, Cursor and OpenCode: the MCP server, and the
// SessionStart hook where the agent has hooks (docs/agents.md).
Status PlanOtherAgent(Plan* plan, std::string_view agent, const std::string& home) {
  const bool user = plan->scope == Scope::kUser;
  const std::string base = user ? home : plan->project;
  auto rel = [&](const std::string& r) { return user ? "~/" + r : r; };
  auto at = [&](const std::string& r) { return fs::Join(base, r); };
  using Text = std::string_view;
  using Path = const std::string&;
  if (agent == "codex") {
    LORE_TRY(RefuseLinkedFolder(base, ".codex"));
    LORE_TRY(PlanJson(plan, at(".codex/config.toml"), rel(".codex/config.toml"), MergeCodexConfig));
    LORE_TRY(
        PlanJson(plan, at(".codex/hooks.json"), rel(".codex/hooks.json"),
                 [](Text t, Path p, Path r) { return MergeHooks(t, p, r, SessionStartHooks()); }));
  } else if (agent == "gemini") {
    LORE_TRY(RefuseLinkedFolder(base, ".gemini"));
    LORE_TRY(PlanJson(plan, at(".gemini/settings.json"), rel(".gemini/settings.json"),
                      [](Text t, Path p, Path r) -> Result<MergeResult> {
                        LORE_ASSIGN(MergeResult hooks,
                                    MergeHooks(t, p, r, SessionStartHooks(), kGeminiHookTimeoutMs));
                        LORE_ASSIGN(MergeResult out, MergeMcp(Render(hooks.doc), p, r));
                        out.pieces.insert(out.pieces.begin(), hooks.pieces.begin(),
                                          hooks.pieces.end());
                        out.changed = out.changed || hooks.changed;
                        return out;
                      }));
  } else if (agent == "cursor") {
    LORE_TRY(RefuseLinkedFolder(base, ".cursor"));
    LORE_TRY(PlanJson(plan, at(".cursor/mcp.json"), rel(".cursor/mcp.json"),
                      [](Text t, Path p, Path r) { return MergeMcp(t, p, r); }));
  } else {  // opencode
    const std::string file = user ? ".config/opencode/opencode.json" : "opencode.json";
    if (user) LORE_TRY(RefuseLinkedFolder(base, ".config/opencode"));
    LORE_TRY(PlanJson(plan, at(file), rel(file), MergeOpencode));
  }
  return Ok();
}

// --remove for Codex, Gemini CLI, Cursor and OpenCode: the inverse of
// PlanOtherAgent, file by file; a file left with nothing goes (lore made it).
Status PlanUnOtherAgent(Plan* plan, std::string_view agent, const std::string& home) {
  const bool user = plan->scope == Scope::kUser;
  const std::string base = user ? home : plan->project;
  auto rel = [&](const std::string& r) { return user ? "~/" + r : r; };
  auto at = [&](const std::string& r) { return fs::Join(base, r); };
  using Text = std::string_view;
  using Path = const std::string&;
  if (agent == "codex") {
    LORE_TRY(PlanUnjson(plan, at(".codex/config.toml"), rel(".codex/config.toml"),
                        UnmergeCodexConfig, true));
    LORE_TRY(PlanUnjson(
        plan, at(".codex/hooks.json"), rel(".codex/hooks.json"),
        [](Text t, Path p, Path r) { return UnmergeHooks(t, p, r, SessionStartHooks()); }, true));
  } else if (agent == "gemini") {
    LORE_TRY(PlanUnjson(
        plan, at(".gemini/settings.json"), rel(".gemini/settings.json"),
        [](Text t, Path p, Path r) -> Result<MergeResult> {
          LORE_ASSIGN(MergeResult hooks, UnmergeHooks(t, p, r, SessionStartHooks()));
          // The server is taken out of what the hooks' removal left,
          // rendered only when something changed.
          const std::string left = hooks.changed ? Render(hooks.doc) : std::string(t);
          LORE_ASSIGN(MergeResult out, UnmergeMcp(left, p, r));
          out.pieces.insert(out.pieces.begin(), hooks.pieces.begin(), hooks.pieces.end());
          out.changed = out.changed || hooks.changed;
          return out;
        },
        true));
  } else if (agent == "cursor") {
    LORE_TRY(PlanUnjson(
        plan, at(".cursor/mcp.json"), rel(".cursor/mcp.json"),
        [](Text t, Path p, Path r) { return UnmergeMcp(t, p, r); }, true));
  } else {  // opencode
    const std::string file = user ? ".config/opencode/opencode.json" : "opencode.json";
    LORE_TRY(PlanUnjson(plan, at(file), rel(file), UnmergeOpencode, true));
  }
  return Ok();
}

}  // namespace

const std::vector<std::string_view>& Agents() {
  static const std::vector<std::string_view> kAgents = {"claude-code", "codex", "gemini", "cursor",
                                                        "opencode"};
  return kAgents;
}

std::vector<std::string> PluginEnabledIn(const std::string& project, const std::string& home) {
  std::vector<std::pair<std::string, std::string>> files = {
      {fs::Join(project, kSettingsRel), std::string(kSettingsRel)},
      {fs::Join(project, kLocalSettingsRel), std::string(kLocalSettingsRel)}};
  if (!home.empty())
    files.emplace_back(fs::Join(home, kSettingsRel), "~/" + std::string(kSettingsRel));
  std::vector<std::string> out;
  for (const auto& [path, rel] : files) {
    auto f = ReadFileAt(path, rel);
    if (!f || !f->exists) continue;
    auto doc = ReadObject(f->old_text, path, "");
    if (!doc) continue;
    const Json* plugins = json::Find(*doc, "enabledPlugins");
    if (!plugins || !plugins->is_object()) continue;
    for (auto it = plugins->begin(); it != plugins->end(); ++it) {
      if (it.key().rfind("lore@", 0) == 0 && it.value().is_boolean() && it.value().get<bool>()) {
        out.push_back(rel);
        break;
      }
    }
  }
  return out;
}

Result<Plan> PlanInstall(std::string_view agent, const std::string& project, Scope scope,
                         const std::string& home) {
  const auto& agents = Agents();
  if (std::find(agents.begin(), agents.end(), agent) == agents.end()) {
    return Fail(ErrorCode::kInvalidInput, "unknown agent '" + std::string(agent) + "'", "", 0,
                "choose from: claude-code, codex, gemini, cursor, opencode");
  }
  if (agent != "claude-code" && scope == Scope::kLocal) {
    return Fail(ErrorCode::kInvalidInput,
                "the local scope is Claude Code's; " + std::string(agent) +
                    " has a project and a user scope",
                "", 0, "use --scope project or --scope user");
  }
  char real[PATH_MAX];
  if (::realpath(project.c_str(), real) == nullptr) {
    return Fail(fs::ErrnoError(errno, "cannot open the project folder", project));
  }
  Plan plan;
  plan.project = real;
  LORE_ASSIGN(auto st, fs::LStat(plan.project));
  if (!S_ISDIR(st.st_mode)) {
    return Fail(ErrorCode::kInvalidInput, "the project is not a folder", plan.project, 0,
                "pass the project's folder with --project DIR");
  }
  plan.scope = scope;
  if (agent != "claude-code") {
    if (scope == Scope::kUser && (home.empty() || home.front() != '/')) {
      return Fail(ErrorCode::kInvalidInput,
                  "the user scope writes under the home folder, and HOME is not an absolute path",
                  "", 0, "set HOME, or use --scope project");
    }
    LORE_TRY(PlanOtherAgent(&plan, agent, home));
    return plan;
  }
  auto settings = [](std::string_view text, const std::string& path, const std::string& rel) {
    return MergeSettings(text, path, rel);
  };
  if (scope == Scope::kProject) {
    LORE_TRY(RefuseLinkedFolder(plan.project, ".claude"));
    LORE_TRY(RefuseLinkedFolder(plan.project, ".claude/commands"));
    LORE_TRY(PlanJson(&plan, fs::Join(plan.project, kSettingsRel), kSettingsRel, settings));
    LORE_TRY(PlanJson(&plan, fs::Join(plan.project, kMcpRel), kMcpRel,
                      [](std::string_view text, const std::string& path, const std::string& rel) {
                        return MergeMcp(text, path, rel);
                      }));
    LORE_TRY(
        PlanReviewCommand(&plan, fs::Join(plan.project, kReviewCommandRel), kReviewCommandRel));
    return plan;
  }
  if (home.empty() || home.front() != '/') {
    return Fail(ErrorCode::kInvalidInput,
                "the " + std::string(ScopeName(scope)) +
                    " scope writes under the home folder, "
                    "and HOME is not an absolute path",
                "", 0, "set HOME, or use --scope project");
  }
  LORE_TRY(RefuseLinkedFolder(home, ".claude"));
  LORE_TRY(RefuseLinkedFolder(home, ".claude/commands"));
  if (scope == Scope::kLocal) {
    LORE_TRY(RefuseLinkedFolder(plan.project, ".claude"));
    LORE_TRY(
        PlanJson(&plan, fs::Join(plan.project, kLocalSettingsRel), kLocalSettingsRel, settings));
  } else {
    LORE_TRY(
        PlanJson(&plan, fs::Join(home, kSettingsRel), "~/" + std::string(kSettingsRel), settings));
  }
  std::vector<std::string> at;
  if (scope == Scope::kLocal) at = {"projects", plan.project};
  LORE_TRY(PlanJson(&plan, fs::Join(home, ".claude.json"), "~/.claude.json",
                    [at](std::string_view text, const std::string& path, const std::string& rel) {
                      return MergeMcp(text, path, rel, at);
                    }));
  LORE_TRY(PlanReviewCommand(&plan, fs::Join(home, kReviewCommandRel),
                             "~/" + std::string(kReviewCommandRel)));
  if (scope == Scope::kLocal) LORE_TRY(PlanGitExclude(&plan));
  return plan;
}

Result<Plan> PlanRemove(std::string_view agent, const std::string& project, Scope scope,
                        const std::string& home) {
  // The same checks and paths as the install: an unknown project, no home, a link.
  LORE_ASSIGN(Plan checked, PlanInstall(agent, project, scope, home));
  Plan plan;
  plan.scope = scope;
  plan.project = checked.project;
  if (agent != "claude-code") {
    LORE_TRY(PlanUnOtherAgent(&plan, agent, home));
    return plan;
  }
  auto settings = [](std::string_view t, const std::string& p, const std::string& r) {
    return UnmergeSettings(t, p, r);
  };
  if (scope == Scope::kProject) {
    LORE_TRY(PlanUnjson(&plan, fs::Join(plan.project, kSettingsRel), kSettingsRel, settings, true));
    LORE_TRY(PlanUnjson(
        &plan, fs::Join(plan.project, kMcpRel), kMcpRel,
        [](std::string_view t, const std::string& p, const std::string& r) {
          return UnmergeMcp(t, p, r);
        },
        true));
    LORE_TRY(
        PlanUnreviewCommand(&plan, fs::Join(plan.project, kReviewCommandRel), kReviewCommandRel));
    return plan;
  }
  if (scope == Scope::kLocal) {
    LORE_TRY(PlanUnjson(&plan, fs::Join(plan.project, kLocalSettingsRel), kLocalSettingsRel,
                        settings, true));
  } else {
    LORE_TRY(PlanUnjson(&plan, fs::Join(home, kSettingsRel), "~/" + std::string(kSettingsRel),
                        settings, false));
  }
  std::vector<std::string> at;
  if (scope == Scope::kLocal) at = {"projects", plan.project};
  LORE_TRY(PlanUnjson(
      &plan, fs::Join(home, ".claude.json"), "~/.claude.json",
      [at](std::string_view t, const std::string& p, const std::string& r) {
        return UnmergeMcp(t, p, r, at);
      },
      false));
  // The review command in ~/.claude/commands serves every project: the
  // local scope leaves it while lore's hooks are in the user scope.
  bool user_hooks = false;
  if (scope == Scope::kLocal) {
    auto user = PlanInstall(agent, project, Scope::kUser, home);
    user_hooks = user && HasLoreHooks(*user);
  }
  if (!user_hooks) {
    LORE_TRY(PlanUnreviewCommand(&plan, fs::Join(home, kReviewCommandRel),
                                 "~/" + std::string(kReviewCommandRel)));
  }
  if (scope == Scope::kLocal) LORE_TRY(PlanUnexclude(&plan));
  return plan;
}

Result<std::vector<Applied>> Apply(const Plan& plan, std::chrono::system_clock::time_point now) {
  const std::string stamp = Stamp(now);
  std::vector<Applied> done;
  for (const FilePlan& f : plan.files) {
    if (!f.changed) continue;
    LORE_TRY(fs::MakeDirs(fs::Dirname(f.path), 0700));
    LORE_TRY(Unchanged(f));
    Applied a{f.rel, {}};
    if (f.exists) {
      LORE_ASSIGN(a.backup, Backup(f, stamp));
    }
    if (f.remove) {
      if (::unlink(f.path.c_str()) != 0) {
        return Fail(fs::ErrnoError(errno, "cannot remove", f.path));
      }
      LORE_TRY(fs::SyncDir(fs::Dirname(f.path)));
      a.removed = true;
    } else {
      LORE_TRY(fs::WriteFileAtomic(f.path, f.new_text, f.mode));
    }
    done.push_back(std::move(a));
  }
  return done;
}

std::string ResolveOnPath(std::string_view name, std::string_view path_env,
                          const std::string& cwd) {
  size_t start = 0;
  while (start <= path_env.size()) {
    size_t end = path_env.find(':', start);
    if (end == std::string_view::npos) end = path_env.size();
    std::string dir(path_env.substr(start, end - start));
    if (dir.empty()) dir = cwd;
    std::string candidate = fs::Join(dir, name);
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
    start = end + 1;
  }
  return {};
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (::stat(a.c_str(), &sa) != 0 || ::stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace lore::agent_setup
