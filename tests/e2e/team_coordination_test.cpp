// Team-wide coordination in the database: the wave's quota holds across
// machines proposing at once, two reviewers never get the same proposal, and
// consolidation runs on one machine at a time (the lock dies with its session).
#include <signal.h>

#include <set>
#include <sstream>

#include "e2e/team_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using TeamCoordinationTest = TeamTest;

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

TEST_F(TeamCoordinationTest, EightProposersOnFourMachinesFillTheQuotaExactly) {
  for (int m = 1; m <= 4; ++m) MakeMachine(m);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  for (int m = 1; m <= 4; ++m) {
    for (int i = 0; i < 2; ++i) {
      RunOptions o = Opts(m);
      o.env["LORE_WAVE"] = "w1";
      auto r = Lore({"propose", kTeamRepo, "--type", "convention", "--subject",
                     "Rule " + std::to_string(m) + "." + std::to_string(i), "--insight",
                     "bind parameters", "--evidence", "W-1", "--confidence", "0.9"},
                    o);
      ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    }
  }
  RunOptions low = Opts(4);
  low.env["LORE_WAVE"] = "w1";
  ASSERT_EQ(Lore({"propose", kTeamRepo, "--type", "convention", "--subject", "Unsure", "--insight",
                  "maybe", "--evidence", "W-2", "--confidence", "0.2"},
                 low)
                .exit_code,
            2)
      << "the local floor already keeps it out";
  // Eight proposers at once: two processes per machine.
  std::vector<std::unique_ptr<Child>> kids;
  for (int k = 0; k < 8; ++k) {
    int m = 1 + k % 4;
    kids.push_back(std::make_unique<Child>(
        std::vector<std::string>{TeamBinary(), "push", kTeamRepo}, Opts(m).env,
        t_ / ("out" + std::to_string(k)), t_ / ("err" + std::to_string(k))));
  }
  for (auto& c : kids) EXPECT_EQ(c->Wait(), 0);
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE state = 'queued'"), "5");
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals WHERE state = 'dropped'"), "3");
  EXPECT_EQ(Sql("SELECT queued || '/' || dropped FROM lore_waves WHERE wave = 'w1'"), "5/3");
  // Again: nothing is offered twice.
  for (int m = 1; m <= 4; ++m) ASSERT_EQ(Sync(m).exit_code, 0);
  EXPECT_EQ(Sql("SELECT count(*) FROM lore_proposals"), "8");
  EXPECT_EQ(Sql("SELECT queued || '/' || dropped FROM lore_waves WHERE wave = 'w1'"), "5/3");

  // Two reviewers at once never get the same proposal.
  Child a({TeamBinary(), "review-batch", kTeamRepo, "--size", "3"}, Opts(1).env, t_ / "ra",
          t_ / "rea");
  Child b({TeamBinary(), "review-batch", kTeamRepo, "--size", "3"}, Opts(2).env, t_ / "rb",
          t_ / "reb");
  ASSERT_EQ(a.Wait(), 0) << Read(t_ / "rea");
  ASSERT_EQ(b.Wait(), 0) << Read(t_ / "reb");
  auto la = SplitLines(Read(t_ / "ra"));
  auto lb = SplitLines(Read(t_ / "rb"));
  std::set<std::string> all(la.begin(), la.end());
  for (const auto& l : lb) EXPECT_TRUE(all.insert(l).second) << "seen by both: " << l;
  EXPECT_EQ(la.size() + lb.size(), 5u);
  EXPECT_EQ(all.size(), 5u);
  for (const auto& l : all) EXPECT_NE(l.find("\"wave_id\":\"w1\""), std::string::npos) << l;
  auto none = Lore({"team", "status", kTeamRepo}, Opts(3));
  ASSERT_EQ(none.exit_code, 0);
  auto c = testing::Run({TeamBinary(), "review-batch", kTeamRepo}, Opts(3));
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_EQ(c.out, "") << "every queued proposal is claimed";
}

TEST_F(TeamCoordinationTest, ConsolidationRunsOnOneMachineAtATime) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  // Machine 2 is consolidating: its session holds the team's lock.
  const std::string key = std::string("lore-consolidate:") + kTeamKey;
  Child holder(
      {"/usr/lib/postgresql/15/bin/psql", "-X", "-q", "-h", pg_->socket_dir(), "-U", "postgres",
       "-d", db_, "-c",
       "SET client_connection_check_interval = 100; SELECT pg_advisory_lock(hashtextextended('" +
           key + "', 0)); SELECT pg_sleep(60)"},
      {}, t_ / "hold.out", t_ / "hold.err");
  ASSERT_TRUE(WaitFor([&] {
    return Sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted") == "1";
  }));
  auto busy = testing::Run({TeamBinary(), "consolidate", kTeamRepo, "--flush"}, Opts(1));
  EXPECT_EQ(busy.exit_code, 0) << busy.err;
  EXPECT_NE(busy.out.find("another machine is consolidating"), std::string::npos) << busy.out;
  EXPECT_FALSE(std::filesystem::exists(Store(1) + "/staging/.consolidation.lock"));
  // Plain `lore consolidate` (what hooks and thresholds start) goes through the same lock.
  auto plain = Lore({"consolidate", kTeamRepo, "--flush", "--foreground"}, Opts(1));
  EXPECT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_NE(plain.out.find("another machine is consolidating"), std::string::npos) << plain.out;
  // That machine crashes: the server releases its lock with the session.
  holder.Kill(SIGKILL);
  holder.Wait();
  ASSERT_TRUE(WaitFor(
      [&] { return Sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'") == "0"; }));
  auto runs = testing::Run({TeamBinary(), "consolidate", kTeamRepo, "--flush"}, Opts(1));
  EXPECT_EQ(runs.out.find("another machine is consolidating"), std::string::npos) << runs.out;
  EXPECT_EQ(runs.exit_code, 0) << runs.out << runs.err;
  EXPECT_EQ(Sql("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"), "0")
      << "released when the run ends";
  auto plain_runs = Lore({"consolidate", kTeamRepo, "--flush", "--foreground"}, Opts(1));
  EXPECT_EQ(plain_runs.exit_code, 0) << plain_runs.out << plain_runs.err;
  EXPECT_EQ(plain_runs.out.find("another machine is consolidating"), std::string::npos);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
