// lore init: planning and writing an agent's files in a project.
#include "lore/agent_setup/install.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "lore/agent_setup/review_command.h"
#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/text/time.h"

namespace lore::agent_setup {
namespace {

constexpr std::string_view kSettingsRel = ".claude/settings.json";
constexpr std::string_view kMcpRel = ".mcp.json";

// A file of the project as it is now: missing, or a regular file (never a
// symlink) with its bytes and mode.
Result<FilePlan> ReadExisting(const std::string& project, std::string_view rel) {
  FilePlan f;
  f.rel = std::string(rel);
  f.path = fs::Join(project, rel);
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

Status RefuseLinkedFolder(const std::string& project, std::string_view rel) {
  const std::string path = fs::Join(project, rel);
  auto st = fs::LStat(path);
  if (!st || !S_ISLNK(st->st_mode)) return Ok();  // missing, or not a link (MakeDirs judges)
  return Fail(ErrorCode::kSymlink, "is a symlink; lore init does not write through links", path, 0,
              "replace the link by a real folder, or add lore's entries by hand (docs/agents.md)");
}

using MergeFn = Result<MergeResult> (*)(std::string_view, const std::string&, const std::string&);

Status PlanJson(Plan* plan, std::string_view rel, MergeFn merge) {
  LORE_ASSIGN(FilePlan f, ReadExisting(plan->project, rel));
  LORE_ASSIGN(MergeResult m, merge(f.old_text, f.path, f.rel));
  f.changed = m.changed;
  f.new_text = m.changed ? Render(m.doc) : f.old_text;
  for (Piece& p : m.pieces) plan->pieces.push_back(std::move(p));
  plan->files.push_back(std::move(f));
  return Ok();
}

Status PlanReviewCommand(Plan* plan) {
  LORE_ASSIGN(FilePlan f, ReadExisting(plan->project, kReviewCommandRel));
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

Result<Plan> PlanInstall(std::string_view agent, const std::string& project) {
  if (agent != "claude-code") {
    return Fail(ErrorCode::kInvalidInput, "unknown agent '" + std::string(agent) + "'", "", 0,
                "choose from: claude-code (docs/agents.md sets up the others by hand)");
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
  LORE_TRY(RefuseLinkedFolder(plan.project, ".claude"));
  LORE_TRY(RefuseLinkedFolder(plan.project, ".claude/commands"));
  LORE_TRY(PlanJson(&plan, kSettingsRel, MergeSettings));
  LORE_TRY(PlanJson(&plan, kMcpRel, MergeMcp));
  LORE_TRY(PlanReviewCommand(&plan));
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
    LORE_TRY(fs::WriteFileAtomic(f.path, f.new_text, f.mode));
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
