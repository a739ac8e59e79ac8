// lore team init|status <repo> and lore sync <repo>: handed over to
// lore-team, the program beside lore that links libpq (docs/team.md), so that
// lore itself never loads it.
#include <unistd.h>

#include <cerrno>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/consolidate/spawn.h"
#include "lore/fs/fd.h"

namespace lore::cli {

std::string LoreTeamPath() {
  auto exe = consolidate::SelfExe();
  if (!exe) return "";
  return fs::Join(fs::Dirname(*exe), "lore-team");
}

int ExecLoreTeam(std::vector<std::string> args) {
  std::string team = LoreTeamPath();
  if (team.empty() || ::access(team.c_str(), X_OK) != 0) {
    return ReportError(Error{ErrorCode::kUnavailable, "the team store's program is missing", team,
                             0, "install lore-team next to lore (docs/team.md)"});
  }
  args.insert(args.begin(), team);
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(team.c_str(), argv.data());
  return ReportError(fs::ErrnoError(errno, "cannot run", team));
}

namespace {

struct TeamArgs {
  std::string repo;
  CLI::App* init = nullptr;
  CLI::App* status = nullptr;
};

}  // namespace

void RegisterTeamCommands(Registry& r) {
  auto a = std::make_shared<TeamArgs>();
  CLI::App* team =
      r.Add("team", "Set up and inspect the team store on PostgreSQL (docs/team.md)", [a]() {
        return ExecLoreTeam({a->init->parsed() ? "init" : "status", a->repo});
      });
  team->require_subcommand(1, 1);
  a->init = team->add_subcommand("init", "Create or upgrade the team schema (idempotent)");
  a->status = team->add_subcommand("status", "Show what each machine pushed, pending and pulled");
  for (CLI::App* sub : {a->init, a->status}) {
    sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  }
  auto repo = std::make_shared<std::string>();
  CLI::App* sync =
      r.Add("sync", "Push this machine's new lines to the team store, pull the others'", [repo]() {
        return ExecLoreTeam({"sync", *repo});
      });
  sync->add_option("repo", *repo, "A git remote URL or the path of a checkout")->required();
}

}  // namespace lore::cli
