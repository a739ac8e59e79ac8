// The team store against a real PostgreSQL 15 cluster: machines see each
// other's lines after sync, a repeated or interrupted sync inserts nothing
// twice and loses nothing, and the copies are byte-identical prefixes.
#include <signal.h>

#include <random>
#include <thread>

#include "e2e/team_fixture.h"
#include "support/soak_seed.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

// The cluster lives as long as the test program (one per run).
class PgEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { PgCluster::StopShared(); }
};
const auto* const kPgEnvironment = ::testing::AddGlobalTestEnvironment(new PgEnvironment);

using TeamSyncTest = TeamTest;

TEST_F(TeamSyncTest, InitIsIdempotentAndStatusShowsEveryMachine) {
  MakeMachine(1);
  auto before = Sync(1);
  EXPECT_EQ(before.exit_code, 1);
  EXPECT_NE(before.err.find("lore team init"), std::string::npos) << before.err;
  auto a = Team(1, "init");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_NE(a.out.find("created"), std::string::npos) << a.out;
  auto b = Team(1, "init");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(b.out.find("already in place"), std::string::npos) << b.out;
  EXPECT_EQ(Sql("SELECT version FROM lore_schema"), "2");
  Capture(1, "the cache key ignores the locale");
  ASSERT_EQ(Sync(1).exit_code, 0);
  auto s = Team(1, "status");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("this machine: m1"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("pushed by m1 (this machine): raw.jsonl"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("not pushed yet: nothing"), std::string::npos) << s.out;
}

TEST_F(TeamSyncTest, TwoMachinesSeeEachOthersCapturesAndLearnings) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  Capture(1, "zeppelin cache key ignores the locale");
  Capture(1, "second finding from one");
  Capture(2, "quokka retries hide the timeout");
  t_.Write(
      std::string("m2/") + kTeamKey + "/learnings.jsonl",
      R"({"id":"L-1","type":"convention","subject":"Bind SQL","insight":"always bind wombat parameters"})"
      "\n");
  for (int m : {1, 2, 1}) {
    auto r = Sync(m);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(Read(Store(1) + "/team/m2/raw.jsonl"), Read(Store(2) + "/raw.jsonl"));
  EXPECT_EQ(Read(Store(1) + "/team/m2/learnings.jsonl"), Read(Store(2) + "/learnings.jsonl"));
  EXPECT_EQ(Read(Store(2) + "/team/m1/raw.jsonl"), Read(Store(1) + "/raw.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(Store(1) + "/team/m1")) << "a machine never pulls itself";
  // Search and distill read the pulled lines like the local ones.
  auto hit = Lore({"search", kTeamRepo, "quokka"}, Opts(1));
  ASSERT_EQ(hit.exit_code, 0) << hit.err;
  EXPECT_NE(hit.out.find("quokka"), std::string::npos) << hit.out;
  EXPECT_NE(hit.out.find("team/m2/raw.jsonl"), std::string::npos) << hit.out;
  auto learned = Lore({"search", kTeamRepo, "wombat"}, Opts(1));
  EXPECT_NE(learned.out.find("wombat"), std::string::npos) << learned.out;
  auto back = Lore({"search", kTeamRepo, "zeppelin"}, Opts(2));
  EXPECT_NE(back.out.find("zeppelin"), std::string::npos) << back.out;
  ASSERT_EQ(Lore({"distill", kTeamRepo}, Opts(1)).exit_code, 0);
  std::string gotchas = Read(Store(1) + "/okf/gotchas.md");
  EXPECT_NE(gotchas.find("quokka"), std::string::npos) << gotchas;
  EXPECT_NE(gotchas.find("zeppelin"), std::string::npos) << gotchas;
}

TEST_F(TeamSyncTest, FourMachinesConvergeAndARepeatedPushInsertsNothing) {
  for (int m = 1; m <= 4; ++m) MakeMachine(m);
  ASSERT_EQ(Team(3, "init").exit_code, 0);
  for (int m = 1; m <= 4; ++m) AppendRaw(m, 10 * m, "machine" + std::to_string(m));
  for (int round = 0; round < 2; ++round) {
    for (int m = 1; m <= 4; ++m) {
      auto r = Sync(m);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
  }
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines"), "100");
  for (int m = 1; m <= 4; ++m) {
    for (int other = 1; other <= 4; ++other) {
      if (other == m) continue;
      EXPECT_EQ(Read(Store(m) + "/team/m" + std::to_string(other) + "/raw.jsonl"),
                Read(Store(other) + "/raw.jsonl"))
          << "machine " << m << " copy of " << other;
    }
  }
  auto again = Sync(2);
  ASSERT_EQ(again.exit_code, 0);
  EXPECT_NE(again.out.find("pushed 0 lines"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("pulled 0 lines"), std::string::npos) << again.out;
  // A push cursor lost (a crash after COMMIT): the same lines again insert nothing.
  std::filesystem::remove(Store(2) + "/team/push-state.json");
  auto replay = Sync(2);
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_NE(replay.out.find("pushed 20 lines"), std::string::npos) << replay.out;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines"), "100");
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines WHERE hash <> md5(line)"), "0");
}

TEST_F(TeamSyncTest, KilledAtRandomPointsNothingTwiceNothingLost) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  std::mt19937 rng(lore::testing::SoakSeed("TeamSyncTest"));
  std::uniform_int_distribution<int> delay_ms(0, 400);
  int killed = 0;
  for (int i = 0; i < 8; ++i) {
    AppendRaw(1, 4000, "round" + std::to_string(i));
    for (int m : {1, 2}) {
      Child c({TeamBinary(), "sync", kTeamRepo}, Opts(m).env, t_ / "out", t_ / "err");
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(rng)));  // a random point
      c.Kill(SIGKILL);
      if (c.Wait() == 128 + SIGKILL) ++killed;
    }
  }
  ASSERT_EQ(Sync(1).exit_code, 0);
  auto last = Sync(2);
  ASSERT_EQ(last.exit_code, 0) << last.err;
  const std::string raw = Read(Store(1) + "/raw.jsonl");
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines WHERE machine = 'm1'"), std::to_string(Lines(raw)))
      << killed << " syncs killed";
  EXPECT_EQ(Read(Store(2) + "/team/m1/raw.jsonl"), raw) << killed << " syncs killed";
}

TEST_F(TeamSyncTest, TheServerCrashingMidSyncThenStartingConverges) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  AppendRaw(1, 60000, "bulk");
  {
    Child c({TeamBinary(), "sync", kTeamRepo}, Opts(1).env, t_ / "out", t_ / "err");
    // Stopped once the sync is connected (when it is quicker than the poll,
    // the crash hits after it: the convergence below must hold either way).
    WaitFor([&] {
      return Sql("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'lore'") != "0";
    });
    ASSERT_TRUE(pg_->Stop(true));
    int code = c.Wait();
    EXPECT_TRUE(code == 0 || code == 1) << code;
  }
  auto down = Sync(1);
  EXPECT_EQ(down.exit_code, 1);
  EXPECT_EQ(Lines(down.err), 1) << down.err;
  EXPECT_NE(down.err.find("warning: cannot reach the team database"), std::string::npos)
      << down.err;
  ASSERT_TRUE(pg_->Start());
  auto up = Sync(1);
  ASSERT_EQ(up.exit_code, 0) << up.err;
  ASSERT_EQ(Sync(2).exit_code, 0);
  const std::string raw = Read(Store(1) + "/raw.jsonl");
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines"), std::to_string(Lines(raw)));
  EXPECT_EQ(Read(Store(2) + "/team/m1/raw.jsonl"), raw);
}

TEST_F(TeamSyncTest, ARewrittenLogIsPushedAgainAndItsCopiesReplaced) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  const std::string learnings = std::string("m1/") + kTeamKey + "/learnings.jsonl";
  t_.Write(learnings,
           "{\"id\":\"L-1\",\"status\":\"active\"}\n{\"id\":\"L-2\",\"status\":\"active\"}\n");
  ASSERT_EQ(Sync(1).exit_code, 0);
  ASSERT_EQ(Sync(2).exit_code, 0);
  // A lifecycle verb rewrites learnings.jsonl (L-2 pruned, L-1 confirmed).
  t_.Write(learnings, "{\"id\":\"L-1\",\"status\":\"confirmed\"}\n");
  auto r = Sync(1);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("learnings.jsonl was rewritten"), std::string::npos) << r.err;
  ASSERT_EQ(Sync(2).exit_code, 0);
  EXPECT_EQ(Read(Store(2) + "/team/m1/learnings.jsonl"), Read(Store(1) + "/learnings.jsonl"));
}

// Two stores that share a machine id (one copied from the other, as an
// import of an older lore's archive did): the second push collides with the
// first's lines. It is an error naming the repair, never "pushed 1 lines"
// while the database dropped the line.
TEST_F(TeamSyncTest, ACollidingPushIsAnErrorNotAPush) {
  MakeMachine(1);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  std::ofstream(Store(1) + "/config.toml") << "[team]\nurl = \"" << pg_->Url(db_) << "\"\n";
  AppendRaw(1, 2, "shared");
  ASSERT_EQ(Sync(1).exit_code, 0);
  std::filesystem::create_directories(Home(2));
  std::filesystem::copy(Store(1), Store(2), std::filesystem::copy_options::recursive);
  AppendRaw(1, 1, "one");
  AppendRaw(2, 1, "two");
  auto first = Sync(1);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_NE(first.out.find("pushed 1 lines"), std::string::npos) << first.out;
  const std::string id = Read(Store(2) + "/team/machine_id").substr(0, 16);
  auto second = Sync(2);
  EXPECT_EQ(second.exit_code, 1);
  EXPECT_EQ(second.out.find("pushed"), std::string::npos) << second.out;
  EXPECT_NE(second.err.find("1 line(s) of raw.jsonl (the first at byte "), std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("differ from the lines the team database holds for machine " + id +
                            ": another store pushes as this machine"),
            std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("; give this store its own machine id (remove team/machine_id"),
            std::string::npos)
      << second.err;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines WHERE convert_from(line, 'UTF8') LIKE '%two%'"),
            "0");
  // The repair: a new id, and this store's lines pushed under it.
  std::filesystem::remove(Store(2) + "/team/machine_id");
  std::filesystem::remove(Store(2) + "/team/push-state.json");
  auto repaired = Sync(2);
  ASSERT_EQ(repaired.exit_code, 0) << repaired.err;
  EXPECT_NE(repaired.out.find("pushed 3 lines"), std::string::npos) << repaired.out;
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_lines WHERE convert_from(line, 'UTF8') LIKE '%two%'"),
            "1");
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
