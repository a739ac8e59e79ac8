// Black-box tests of the consolidation machinery: one run at a time, stale
// locks, coalescing, kill -9 in the middle, thresholds and --flush. The
// test-only hook LORE_TEST_HOOK pauses or crashes a run at a chosen point, so
// these tests run the test build `lore-test` (the shipped lore ignores it).
#include <gtest/gtest.h>
#include <unistd.h>

#include <future>

#include "lore/sys/uuid.h"
#include "support/consolidate_fixture.h"
#include "support/process.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using std::chrono::milliseconds;

class ConsolidateLockTest : public ConsolidateFixture {
 protected:
  std::vector<std::string> Cmd(std::vector<std::string> extra) const {
    std::vector<std::string> argv{LoreTestBinary(), "consolidate", kRepo, "--foreground"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  }
  std::map<std::string, std::optional<std::string>> HookEnv(const std::string& hook) const {
    auto env = Env();
    env["LORE_TEST_HOOK"] = hook;
    return env;
  }
  // A hook that holds a run at `point` until Release() (tests wait on
  // conditions, never on the machine's speed).
  std::string Hold(const std::string& point) const { return point + ":wait=" + (t_ / "release"); }
  void Release() { t_.Write("release", ""); }
  std::optional<nlohmann::json> LockBody() const {
    if (!Exists("staging/.consolidation.lock")) return std::nullopt;
    auto j = nlohmann::json::parse(Read("staging/.consolidation.lock"), nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
  }
};

TEST_F(ConsolidateLockTest, FiveStartedAtOnceExactlyOneRuns) {
  Stage(Entry("s1", "db", "db a"));
  RunOptions o = Opts();
  o.env["LORE_TEST_HOOK"] = Hold("after-snapshot");
  std::vector<std::future<RunResult>> runs;
  for (int i = 0; i < 5; ++i) {
    runs.push_back(std::async(std::launch::async, [&] {
      return LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, o);
    }));
  }
  // The holder stays in its run until the four others have given up.
  EXPECT_TRUE(WaitFor(
      [&] {
        int done = 0;
        for (auto& f : runs) done += f.wait_for(milliseconds(0)) == std::future_status::ready;
        return done == 4;
      },
      std::chrono::seconds(90)));
  Release();
  int ran = 0, busy = 0;
  for (auto& f : runs) {
    RunResult r = f.get();
    if (r.exit_code == 0) {
      ++ran;
      // The decision, and the briefing that lists it.
      EXPECT_NE(r.out.find("consumed 1 entry, changed 2 files\n"), std::string::npos) << r.out;
    } else {
      ++busy;
      EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
      EXPECT_EQ(r.out.rfind("consolidation already running: pid ", 0), 0u) << r.out;
      EXPECT_NE(
          r.out.find(", consuming 1 entry; it will flush the staging folder before it ends\n"),
          std::string::npos)
          << r.out;
    }
  }
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(busy, 4);
  EXPECT_TRUE(Staged().empty());
  EXPECT_FALSE(Exists("staging/.consolidation.lock"));
  EXPECT_FALSE(Exists("staging/.flush-requested"));
}

TEST_F(ConsolidateLockTest, AStaleLockIsReclaimedWithAWarning) {
  Stage(Entry("s1", "db", "db a"));
  pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  Write("staging/.consolidation.lock",
        R"({"pid":)" + std::to_string(dead) + R"(,"pod_name":")" + host +
            R"(","started_at":"2026-11-30T09:00:00.000Z","consumed_ids":[]})");
  auto status = Status();
  EXPECT_TRUE(status["running"].is_null());
  EXPECT_EQ(status["stale_lock"], true);
  auto r = LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "lore: warning: reclaimed the lock of a consolidation that died (pid " +
                std::to_string(dead) + " on " + host +
                ", started 2026-11-30T09:00:00.000Z): " + Path("staging/.consolidation.lock") +
                "; its staged entries were kept; this run consumes them\n");
  EXPECT_TRUE(Staged().empty());
  EXPECT_FALSE(Exists("staging/.consolidation.lock"));
}

TEST_F(ConsolidateLockTest, EntriesStagedDuringARunSurviveAndTheNextRunTakesThem) {
  Write("config.toml", "[memory.staging]\nthreshold_files = 2\n");
  std::string first = Stage(Entry("s1", "db", "db a"));
  std::string second = Stage(Entry("s1", "vcs", "vcs a"));  // at the threshold: a background run...
  ASSERT_TRUE(WaitFor(
      [&] { return Staged().empty() && Status()["running"].is_null(); }));  // ...which takes both
  EXPECT_EQ(Status()["last_run"]["consumed_ids"], nlohmann::json({first, second}));

  // Two entries written as files (no trigger), then a run that pauses.
  std::string a = sys::NewUuidV7(std::chrono::system_clock::now());
  std::string a2 = sys::NewUuidV7(std::chrono::system_clock::now());
  Write("staging/" + a + ".json", Entry("s2", "editor", "editor a"));
  Write("staging/" + a2 + ".json", Entry("s2", "pager", "pager a"));
  Child run(Cmd({}), HookEnv(Hold("after-snapshot")), t_ / "out", t_ / "err");
  std::string b;
  ASSERT_TRUE(WaitFor([&] { return LockBody() && (*LockBody())["consumed_ids"].size() == 2; }));
  // The run's own snapshot is fixed; entries staged now must wait for the next run.
  b = Stage(Entry("s3", "shell", "shell a"));
  std::string c = Stage(Entry("s3", "font", "font a"));
  auto status = Status();
  EXPECT_EQ(status["running"]["pid"], run.pid());
  EXPECT_EQ(status["running"]["consumed_ids"], nlohmann::json({a, a2}));
  EXPECT_EQ(status["staged"]["files"], 4);
  Release();
  ASSERT_EQ(run.Wait(), 0);
  std::string out = t_.Read("out");
  size_t first_run = out.find("consumed 2 entries");
  ASSERT_NE(first_run, std::string::npos) << out;
  EXPECT_NE(out.find("consumed 2 entries", first_run + 1), std::string::npos) << out;  // coalesced
  EXPECT_TRUE(Staged().empty());
  EXPECT_EQ(Status()["last_run"]["consumed_ids"], nlohmann::json({b, c}));
  for (const char* topic : {"editor", "pager", "shell", "font"}) {
    EXPECT_TRUE(Exists(std::string("memory/decisions/") + topic + "-a-or-" + topic + "-b.md"))
        << topic;
  }
}

TEST_F(ConsolidateLockTest, BelowTheThresholdANewEntryWaits) {
  Write("config.toml", "[memory.staging]\nthreshold_files = 2\n");
  Write("staging/01a22be5-a500-7000-8000-000000000001.json", Entry("s1", "db", "db a"));
  Write("staging/01a22be5-a500-7000-8000-000000000002.json", Entry("s1", "vcs", "vcs a"));
  Child run(Cmd({}), HookEnv(Hold("after-snapshot")), t_ / "out", t_ / "err");
  ASSERT_TRUE(WaitFor([&] { return LockBody() && (*LockBody())["consumed_ids"].size() == 2; }));
  Write("staging/01a22be5-a500-7000-8000-000000000003.json", Entry("s1", "ci", "ci a"));
  Release();
  ASSERT_EQ(run.Wait(), 0);
  EXPECT_EQ(Staged(), std::vector<std::string>{"01a22be5-a500-7000-8000-000000000003"});
}

TEST_F(ConsolidateLockTest, KillNineMidRunLeavesFilesAsBeforeAndALaterRunSucceeds) {
  Write("memory/summary.md", "---\nupdated_at: 2026-11-01T09:00:00Z\n---\n# Summary\n");
  Write(
      "memory/decisions/db-a-or-db-b.md",
      "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nstatus: resolved\n"
      "sources: []\n---\nChosen: db b\n");
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i)
    ids.push_back(
        Stage(Entry("s" + std::to_string(i), i % 2 ? "db" : "t" + std::to_string(i), "x")));
  auto before = Records();
  // Paused after the engine wrote its shadow files, before the commit point.
  Child run(Cmd({"--flush"}), HookEnv(Hold("before-commit")), t_ / "out", t_ / "err");
  ASSERT_TRUE(WaitFor([&] {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(Path("staging"), ec)) {
      if (e.path().filename().string().rfind(".run-", 0) == 0 &&
          !std::filesystem::is_empty(e.path()))
        return true;
    }
    return false;
  }));
  run.Kill(SIGKILL);
  EXPECT_EQ(run.Wait(), 128 + SIGKILL);
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged(), ids);
  auto r = LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("lore: warning: reclaimed the lock of a consolidation that died (pid " +
                       std::to_string(run.pid())),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("consumed 5 entries"), std::string::npos) << r.out;
  EXPECT_TRUE(Staged().empty());
  EXPECT_NE(Records(), before);
  EXPECT_NE(Read("memory/decisions/db-a-or-db-b.md")
                .find("status: replaced\nreplaced_by: db-a-or-db-b-x\n"),
            std::string::npos);
  for (const auto& e : std::filesystem::directory_iterator(Path("staging"))) {
    EXPECT_NE(e.path().filename().string().rfind(".run-", 0), 0u) << e.path();
  }
}

TEST_F(ConsolidateLockTest, KilledAfterTheCommitPointIsRolledForward) {
  // The same entries into a twin store without a crash give the expected bytes.
  std::vector<std::string> entries;
  for (int i = 0; i < 4; ++i)
    entries.push_back(Entry("s" + std::to_string(i), "t" + std::to_string(i), "x"));
  for (int i = 0; i < 4; ++i)
    Write("staging/01a22be5-a500-7000-8000-00000000000" + std::to_string(i) + ".json", entries[i]);
  Child crash(Cmd({"--flush"}), HookEnv("mid-commit:crash"), t_ / "out", t_ / "err");
  EXPECT_EQ(crash.Wait(), 128 + SIGKILL);
  EXPECT_TRUE(Exists("staging/.consolidation.journal"));
  auto r = LoreTest({"status", kRepo}, Opts());  // status finishes the interrupted commit
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("lore: warning: finished the commit of run "), std::string::npos) << r.err;
  EXPECT_FALSE(Exists("staging/.consolidation.journal"));
  EXPECT_TRUE(Staged().empty());
  auto crashed = Records();

  TempDir twin;
  auto env = Env();
  env["LORE_HOME"] = twin / "lore";
  RunOptions o;
  o.env = env;
  ASSERT_EQ(LoreTest({"ensure", kRepo}, o).exit_code, 0);
  for (int i = 0; i < 4; ++i) {
    twin.Write(std::string("lore/") + kKey + "/staging/01a22be5-a500-7000-8000-00000000000" +
                   std::to_string(i) + ".json",
               entries[i]);
  }
  ASSERT_EQ(LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, o).exit_code, 0);
  for (const auto& [rel, text] : crashed)
    EXPECT_EQ(twin.Read(std::string("lore/") + kKey + "/" + rel), text) << rel;
  EXPECT_EQ(crashed.size(), 5u);  // four decisions and the briefing
}

TEST_F(ConsolidateLockTest, ThresholdsTriggerABackgroundRunAndFlushOverrides) {
  Write("config.toml", "[memory.staging]\nthreshold_files = 3\nthreshold_bytes = 100000\n");
  Stage(Entry("s1", "a", "a a"));
  Stage(Entry("s1", "b", "b a"));
  auto status = Status();
  EXPECT_EQ(status["staged"]["files"], 2);
  EXPECT_EQ(status["due"], false);
  auto idle = LoreTest({"consolidate", kRepo, "--foreground"}, Opts());
  EXPECT_EQ(idle.exit_code, 0);
  EXPECT_NE(idle.out.find("nothing to consolidate yet: 2 entries, "), std::string::npos)
      << idle.out;
  EXPECT_NE(
      idle.out.find(" (thresholds: 3 entries or 100000 bytes); --flush consolidates anyway\n"),
      std::string::npos);
  EXPECT_EQ(Staged().size(), 2u);

  // The third entry reaches the threshold: `stage` starts a detached run and
  // returns at once: while that run is still held, before it consumed anything.
  RunOptions o = Opts(Entry("s1", "c", "c a"));
  o.env["LORE_TEST_HOOK"] = Hold("after-snapshot");
  auto staged = LoreTest({"stage", kRepo}, o);
  ASSERT_EQ(staged.exit_code, 0) << staged.err;
  EXPECT_TRUE(WaitFor([&] { return LockBody() && (*LockBody())["consumed_ids"].size() == 3; }));
  EXPECT_FALSE(Status()["running"].is_null());
  EXPECT_EQ(Staged().size(), 3u);
  Release();
  ASSERT_TRUE(WaitFor([&] { return Staged().empty() && Status()["running"].is_null(); }));
  EXPECT_EQ(Status()["last_run"]["consumed_ids"].size(), 3u);

  // Under the threshold, --flush runs anyway; and a byte threshold counts too.
  Stage(Entry("s2", "d", "d a"));
  auto flushed = LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(flushed.exit_code, 0);
  EXPECT_NE(flushed.out.find("consumed 1 entry"), std::string::npos) << flushed.out;
  Write("config.toml", "[memory.staging]\nthreshold_files = 100\nthreshold_bytes = 300\n");
  Stage(Entry("s3", "e", "e a"));
  EXPECT_EQ(Staged().size(), 1u);
  Stage(Entry("s3", "f", "f a"));  // two entries of ~200 bytes each
  ASSERT_TRUE(WaitFor([&] { return Staged().empty(); }));
}

TEST_F(ConsolidateLockTest, ConsolidateDetachesUnlessForeground) {
  Stage(Entry("s1", "a", "a a"));
  RunOptions o = Opts();
  o.env["LORE_TEST_HOOK"] = Hold("after-snapshot");
  auto r = LoreTest({"consolidate", kRepo, "--flush"}, o);  // returns while its run is held
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "started a consolidation in the background; 'lore status' shows it\n");
  ASSERT_TRUE(WaitFor([&] { return !Status()["running"].is_null(); }));
  EXPECT_EQ(Staged().size(), 1u);
  auto busy = LoreTest({"consolidate", kRepo, "--foreground"}, Opts());
  EXPECT_EQ(busy.exit_code, 3);
  Release();
  ASSERT_TRUE(WaitFor([&] { return Staged().empty() && Status()["running"].is_null(); }));
  EXPECT_EQ(Status()["last_run"]["outcome"], "ok");
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
