// lore-team: the team store's side of lore (docs/team.md), the only program
// that links libpq. `lore team init|status <repo>` and `lore sync <repo>`
// replace themselves with it, so that the hot-path lore never loads libpq.
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>

#include "cli/guard.h"
#include "lore/store/store.h"
#include "lore/team/sync.h"
#include "lore/teamsync/team.h"
#include "lore/version.h"

namespace {

namespace team = lore::team;
namespace teamsync = lore::teamsync;

int Report(const lore::Error& e) {
  // An unreachable server is a warning: the local store keeps working.
  std::string line =
      std::string(e.code == lore::ErrorCode::kUnavailable ? "lore: warning: " : "lore: ") +
      e.Format();
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  std::cerr << line << "\n";
  return 1;
}

struct Session {
  lore::store::Store store;
  teamsync::Settings settings;
  team::Conn conn;
};

lore::Result<Session> Open(const std::string& repo) {
  LORE_ASSIGN(lore::store::Store store,
              lore::store::Store::Locate(repo, lore::store::Env::FromProcess()));
  LORE_TRY(store.Ensure(std::chrono::system_clock::now(), lore::store::RawCheck::kSkip));
  LORE_ASSIGN(auto settings, teamsync::LoadSettings(store));
  if (!settings) {
    return lore::Fail(lore::ErrorCode::kNotFound, "no team database configured",
                      store.Path("config.toml"), 0,
                      "add [team] url = \"postgresql://user@host/db\" (docs/team.md)");
  }
  LORE_ASSIGN(team::Conn conn,
              team::Conn::Open(settings->url, team::kConnectTimeoutSeconds, settings->config_path));
  return Session{std::move(store), std::move(*settings), std::move(conn)};
}

int Init(const std::string& repo) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  auto before = team::InitSchema(s->conn);
  if (!before) return Report(before.error());
  if (*before == team::kSchemaVersion) {
    std::cout << "team schema version " << team::kSchemaVersion << " already in place\n";
  } else {
    std::cout << "team schema " << (*before == 0 ? "created" : "upgraded") << " (version "
              << team::kSchemaVersion << ")\n";
  }
  std::cout << "this machine: " << s->settings.machine_id << "\n";
  return 0;
}

int Status(const std::string& repo) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  auto lines = team::Describe(s->conn, s->store, s->settings);
  if (!lines) return Report(lines.error());
  for (const auto& l : *lines) std::cout << l << "\n";
  return 0;
}

int Sync(const std::string& repo, bool push, bool pull) {
  auto s = Open(repo);
  if (!s) return Report(s.error());
  if (auto ok = team::RequireSchema(s->conn, s->settings.config_path); !ok)
    return Report(ok.error());
  team::PushReport pushed;
  team::PullReport pulled;
  if (push) {
    auto r = team::Push(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    pushed = *r;
    for (const auto& log : pushed.rewritten) {
      std::cerr << "lore: warning: " << log
                << " was rewritten since the last push: pushed again from its start\n";
    }
  }
  if (pull) {
    auto r = team::Pull(s->conn, s->store, s->settings);
    if (!r) return Report(r.error());
    pulled = *r;
  }
  std::cout << "synced: pushed " << pushed.lines << " lines from " << pushed.logs
            << " logs, pulled " << pulled.lines << " lines from " << pulled.machines
            << " machines\n";
  return 0;
}

}  // namespace

static int Run(int argc, char** argv) {
  CLI::App app{"lore-team: the team store on PostgreSQL (docs/team.md)", "lore-team"};
  app.set_version_flag("--version", std::string("lore-team ") + lore::kVersion);
  app.require_subcommand(1, 1);
  std::string repo;
  auto add = [&](const char* name, const char* what) {
    CLI::App* sub = app.add_subcommand(name, what);
    sub->add_option("repo", repo, "A git remote URL or the path of a checkout")->required();
    return sub;
  };
  CLI::App* init = add("init", "Create or upgrade the team schema (idempotent)");
  CLI::App* status = add("status", "Show what each machine pushed and what is pending here");
  CLI::App* sync = add("sync", "Push this machine's new lines, then pull the others'");
  CLI::App* push = add("push", "Push this machine's new lines only");
  add("pull", "Pull the other machines' new lines only");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "lore-team: " << e.what() << "\n";
    return 2;
  }
  if (init->parsed()) return Init(repo);
  if (status->parsed()) return Status(repo);
  if (sync->parsed()) return Sync(repo, true, true);
  if (push->parsed()) return Sync(repo, true, false);
  return Sync(repo, false, true);
}

int main(int argc, char** argv) {
  return lore::cli::RunGuarded("lore-team: ", lore::cli::kExitInternal,
                               [&] { return Run(argc, argv); });
}
