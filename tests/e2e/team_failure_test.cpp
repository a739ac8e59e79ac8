// The team store never in the way: a wrong password, an unreachable host, a
// password in config.toml, no team configured: one clear line, exit 1, and
// the local store untouched.
#include <sys/stat.h>

#include <chrono>

#include "e2e/team_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using TeamFailureTest = TeamTest;

TEST_F(TeamFailureTest, AWrongPasswordIsOneLineAndTouchesNothing) {
  MakeMachine(1, pg_->Url(db_, "lore_pw"));
  Capture(1, "a finding that stays local");
  const std::string passfile = t_ / "pgpass";
  auto with_password = [&](const std::string& password) {
    std::ofstream(passfile) << "*:*:*:lore_pw:" << password << "\n";
    ::chmod(passfile.c_str(), 0600);
    RunOptions o = Opts(1);
    o.env["PGPASSFILE"] = passfile;
    return o;
  };
  auto before = Snapshot(1);
  for (const char* verb : {"sync", "team"}) {
    auto r = std::string(verb) == "sync"
                 ? Lore({"sync", kTeamRepo}, with_password("wrong-password"))
                 : Lore({"team", "init", kTeamRepo}, with_password("wrong-password"));
    EXPECT_EQ(r.exit_code, 1) << verb;
    EXPECT_EQ(Lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("password authentication failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("PGPASSFILE"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("wrong-password"), std::string::npos) << r.err;
    EXPECT_EQ(Snapshot(1), before) << verb;
  }
  // The right one, through PGPASSFILE only, works.
  auto init = Lore({"team", "init", kTeamRepo}, with_password("right-password"));
  ASSERT_EQ(init.exit_code, 0) << init.err;
  auto ok = Lore({"sync", kTeamRepo}, with_password("right-password"));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines"), "1");
}

TEST_F(TeamFailureTest, AnUnreachableHostIsOneWarningLineQuickly) {
  MakeMachine(1, "postgresql:///lore?host=" + (t_ / "no-server-here") + "&user=postgres");
  Capture(1, "offline capture");
  auto before = Snapshot(1);
  auto start = std::chrono::steady_clock::now();
  auto r = Sync(1);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("lore: warning: cannot reach the team database", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("next 'lore sync' catches up"), std::string::npos) << r.err;
  EXPECT_LT(took, std::chrono::seconds(10));
  EXPECT_EQ(Snapshot(1), before);
  // The local store keeps working, consolidation included (alone, after one warning).
  Capture(1, "still captured while offline");
  auto staged = Lore({"stage", kTeamRepo},
                     Opts(1, R"({"source":{"session_id":"s1","range":[1,4]},"decisions":[],)"
                             R"("discussions":[],"attempts":[],"requests":[{"intent":"fix",)"
                             R"("summary":"Make the offline cache survive restarts"}]})"));
  ASSERT_EQ(staged.exit_code, 0) << staged.err;
  auto alone = Lore({"consolidate", kTeamRepo, "--flush", "--foreground"}, Opts(1));
  EXPECT_EQ(alone.exit_code, 0) << alone.out << alone.err;
  EXPECT_NE(alone.err.find("consolidating on this machine alone"), std::string::npos) << alone.err;
  int left = 0;
  for (auto& e : std::filesystem::directory_iterator(Store(1) + "/staging")) {
    left += e.path().extension() == ".json" && e.path().filename().string()[0] != '.';
  }
  EXPECT_EQ(left, 0) << "the staged entry was consolidated";
  // A host that does not answer at all waits connect_timeout at most.
  WriteConfig(1, "postgresql://192.0.2.1:5432/lore?connect_timeout=1");
  auto t = Sync(1);
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_EQ(Lines(t.err), 1) << t.err;
}

TEST_F(TeamFailureTest, APasswordInConfigIsRefusedAndNoTeamIsSaid) {
  MakeMachine(1, "postgresql://alice:hunter2@db.example.com/lore");
  auto before = Snapshot(1);
  auto r = Sync(1);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("config.toml:2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("PGPASSFILE"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("hunter2"), std::string::npos) << r.err;
  EXPECT_EQ(Snapshot(1), before);
  std::filesystem::remove(Store(1) + "/config.toml");
  auto none = Team(1, "status");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(Lines(none.err), 1) << none.err;
  EXPECT_NE(none.err.find("[team] url"), std::string::npos) << none.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
