// lore team init|status <repo> and lore sync <repo>: handed over to
// lore-team, the program beside lore that links libpq (docs/team.md), so that
// lore itself never loads it.
#include <memory>

#include "cli/command.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "cli/team_hooks.h"

namespace lore::cli {

std::string LoreTeamPath() { return BesideLore("lore-team"); }

int ExecLoreTeam(std::vector<std::string> args) {
  return ExecBesideLore("lore-team", std::move(args),
                        Error{ErrorCode::kUnavailable, "the team store's program is missing", "", 0,
                              "install lore-team next to lore (docs/team.md)"});
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
