// lore_team's unit tests (linked against the lore_team library and libpq):
// the connection's errors, and a push by one machine pulled by another on a
// throwaway PostgreSQL cluster (tests/support/pg_cluster.h).
#include "lore/team/sync.h"

#include <gtest/gtest.h>

#include <fstream>

#include "lore/team/pg.h"
#include "support/pg_cluster.h"
#include "support/temp_dir.h"

namespace lore::team {
namespace {

constexpr const char* kRemote = "git@github.com:acme/widgets.git";

TEST(TeamPg, FirstLineOfAServerMessage) {
  EXPECT_EQ(FirstLine("\n  FATAL:  role \"x\" does not exist \r\nDETAIL: more\n"),
            "FATAL:  role \"x\" does not exist");
  EXPECT_EQ(FirstLine(" \n\t"), "no message");
}

TEST(TeamPg, AnUnreachableDatabaseIsUnavailableNamingConfig) {
  testing::TempDir t;
  auto conn =
      Conn::Open("postgresql:///lore?host=" + t / "no-socket-here", 2, "/store/config.toml");
  ASSERT_FALSE(conn);
  EXPECT_EQ(conn.error().code, ErrorCode::kUnavailable);
  EXPECT_EQ(conn.error().path, "/store/config.toml");
  EXPECT_NE(conn.error().what.find("cannot reach the team database"), std::string::npos)
      << conn.error().Format();
}

// One machine's store: its own LORE_HOME, the same repository.
struct Machine {
  store::Store store;
  teamsync::Settings settings;
};

Machine MachineAt(const testing::TempDir& t, const std::string& name, const std::string& url) {
  store::Env env;
  env.lore_home = t / name;
  auto s = store::Store::Locate(kRemote, env);
  EXPECT_TRUE(s) << s.error().Format();
  EXPECT_TRUE(s->Ensure(std::chrono::system_clock::now()));
  return Machine{*s, teamsync::Settings{url, name, s->config_path()}};
}

TEST(TeamSync, WhatOneMachinePushesAnotherPulls) {
  std::string why;
  testing::PgCluster* cluster = testing::PgCluster::Shared(&why);
  if (!cluster) GTEST_SKIP() << "no PostgreSQL cluster: " << why;
  const std::string url = cluster->Url(cluster->CreateDatabase());
  testing::TempDir t;
  Machine a = MachineAt(t, "m1", url);
  Machine b = MachineAt(t, "m2", url);
  const std::string line = R"({"kind":"review","note":"cache the index"})";
  std::ofstream(a.store.Path("raw.jsonl"), std::ios::app) << line << "\n";

  auto conn = Conn::Open(url, kConnectTimeoutSeconds, a.settings.config_path);
  ASSERT_TRUE(conn) << conn.error().Format();
  auto before = InitSchema(*conn);
  ASSERT_TRUE(before) << before.error().Format();
  EXPECT_EQ(*before, 0);
  EXPECT_EQ(InitSchema(*conn).value_or(-1), kSchemaVersion) << "idempotent";
  ASSERT_TRUE(RequireSchema(*conn, a.settings.config_path));

  auto pushed = Push(*conn, a.store, a.settings);
  ASSERT_TRUE(pushed) << pushed.error().Format();
  EXPECT_GE(pushed->lines, 1);
  auto again = Push(*conn, a.store, a.settings);
  ASSERT_TRUE(again) << again.error().Format();
  EXPECT_EQ(again->lines, 0) << "nothing new past the cursor";

  auto pulled = Pull(*conn, b.store, b.settings);
  ASSERT_TRUE(pulled) << pulled.error().Format();
  EXPECT_EQ(pulled->machines, 1);
  std::ifstream copy(b.store.Path("team/m1/raw.jsonl"));
  std::string text((std::istreambuf_iterator<char>(copy)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(line), std::string::npos) << text;
  testing::PgCluster::StopShared();
}

}  // namespace
}  // namespace lore::team
