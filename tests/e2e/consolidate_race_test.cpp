// Black-box tests of consolidation commits racing other writers: record
// edits that land while a run works are never overwritten, and the staged
// entries the run consumed are not lost; an import waits for a commit in
// progress (docs/consolidation.md, "Record writes during a run").
#include <gtest/gtest.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "support/consolidate_fixture.h"
#include "support/process.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

class ConsolidateRaceTest : public ConsolidateFixture {
 protected:
  // An entry deciding "<topic> a" on topic `topic`, for a fresh session.
  static std::string Decide(const std::string& session, const std::string& topic,
                            const std::string& rationale) {
    nlohmann::ordered_json j = {{"source", {{"session_id", session}, {"range", {1, 2}}}},
                                {"decisions",
                                 {{{"options", {topic + " a", topic + " b"}},
                                   {"chosen", topic + " a"},
                                   {"rationale", rationale}}}},
                                {"discussions", nlohmann::ordered_json::array()},
                                {"attempts", nlohmann::ordered_json::array()},
                                {"requests", nlohmann::ordered_json::array()}};
    return j.dump();
  }
  static std::string Record(const std::string& topic) {
    return "memory/decisions/" + topic + "-a-or-" + topic + "-b.md";
  }
  RunResult Consolidate() const {
    return Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  }
  RunResult Append(const std::string& topic, const std::string& text) const {
    return Lore(
        {"memory", "edit", kRepo, "decision", topic + "-a-or-" + topic + "-b", "--append", text},
        Opts());
  }
  bool RunFolderHasFiles() const {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(Path("staging"), ec)) {
      if (e.path().filename().string().rfind(".run-", 0) == 0 &&
          !std::filesystem::is_empty(e.path()))
        return true;
    }
    return false;
  }
  std::map<std::string, std::optional<std::string>> Hold(const std::string& point) const {
    auto env = Env();
    env["LORE_TEST_HOOK"] = point + ":wait=" + (t_ / "release");
    return env;
  }
};

// The regression of the lost edit: held after its shadows are written and
// before its commit, a run sees an edit land; it must not overwrite it, and
// the entries it consumed must still reach the record.
TEST_F(ConsolidateRaceTest, AnEditDuringBeforeCommitSurvivesAndTheEntriesAreApplied) {
  Stage(Decide("s1", "db", "first reason"));
  ASSERT_EQ(Consolidate().exit_code, 0);
  ASSERT_TRUE(Exists(Record("db")));
  std::string id = Stage(Decide("s2", "db", "second reason"));
  Child run({LoreTestBinary(), "consolidate", kRepo, "--foreground", "--flush"},
            Hold("before-commit"), t_ / "out", t_ / "err");
  ASSERT_TRUE(WaitFor([&] { return RunFolderHasFiles(); }));
  auto edit = Append("db", "Edited by hand during the run.");
  ASSERT_EQ(edit.exit_code, 0) << edit.err;
  t_.Write("release", "");
  ASSERT_EQ(run.Wait(), 0) << t_.Read("err");
  std::string text = Read(Record("db"));
  EXPECT_NE(text.find("Edited by hand during the run."), std::string::npos) << text;
  EXPECT_NE(text.find("second reason"), std::string::npos) << text;
  EXPECT_NE(text.find("session_id: s2"), std::string::npos) << text;
  EXPECT_TRUE(Staged().empty());
  auto last = Status()["last_run"];
  EXPECT_EQ(last["outcome"], "ok");
  EXPECT_EQ(last["consumed_ids"], nlohmann::json({id}));
  EXPECT_EQ(last["notes"][0], "ran again: " + Record("db") + " changed while the run worked")
      << last.dump();
}

// Without a hook: edits from three processes at a time while consolidations
// keep committing to the same records. Every acknowledged edit and every
// staged entry's rationale must be in the records at the end.
TEST_F(ConsolidateRaceTest, ParallelEditsWhileConsolidationsRunAreAllKept) {
  const std::vector<std::string> topics = {"t0", "t1", "t2"};
  for (const auto& topic : topics) Stage(Decide("init-" + topic, topic, "initial"));
  ASSERT_EQ(Consolidate().exit_code, 0);
  for (const auto& topic : topics) ASSERT_TRUE(Exists(Record(topic))) << topic;

  std::mutex mu;
  std::map<std::string, std::vector<std::string>> expected;  // topic -> texts
  std::atomic<bool> done{false};
  std::atomic<int> refused{0};
  auto consolidator = std::async(std::launch::async, [&] {
    for (int round = 0; round < 8; ++round) {
      for (int k = 0; k < 2; ++k) {
        const std::string& topic = topics[(round + k) % topics.size()];
        std::string why = "reason-" + std::to_string(round) + "-" + std::to_string(k);
        auto r =
            Lore({"stage", kRepo},
                 Opts(Decide("r" + std::to_string(round) + "k" + std::to_string(k), topic, why)));
        if (r.exit_code != 0) continue;
        std::lock_guard<std::mutex> l(mu);
        expected[topic].push_back(why);
      }
      auto c = Consolidate();
      EXPECT_TRUE(c.exit_code == 0 || c.exit_code == 1) << c.out << c.err;
    }
    done = true;
  });
  std::vector<std::future<void>> editors;
  for (size_t i = 0; i < topics.size(); ++i) {
    editors.push_back(std::async(std::launch::async, [&, i] {
      // At least 10 edits each, at most 40: on a slow machine more edits
      // per consolidation would make each one slower still.
      for (int n = 0; (!done || n < 10) && n < 40; ++n) {
        // Each editor works on two records, so that edits also race each other.
        const std::string& topic = topics[(i + n) % topics.size()];
        std::string text = "edit-" + std::to_string(i) + "-" + std::to_string(n) + ".";
        auto r = Append(topic, text);
        if (r.exit_code != 0) {
          ++refused;  // not acknowledged: a lock timeout, for instance
          continue;
        }
        std::lock_guard<std::mutex> l(mu);
        expected[topic].push_back(text);
      }
    }));
  }
  consolidator.get();
  for (auto& e : editors) e.get();
  auto last = Consolidate();  // whatever a failed run left staged
  ASSERT_EQ(last.exit_code, 0) << last.out << last.err;
  EXPECT_TRUE(Staged().empty());
  size_t checked = 0;
  for (const auto& [topic, texts] : expected) {
    std::string record = Read(Record(topic));
    for (const auto& text : texts) {
      EXPECT_NE(record.find(text), std::string::npos) << topic << ": lost " << text;
      ++checked;
    }
  }
  EXPECT_GT(checked, 30u);
  EXPECT_LT(refused.load(), 10) << "too few edits were acknowledged to prove anything";
  EXPECT_EQ(Lore({"lint", kRepo}, Opts()).exit_code, 0);
}

// An import waits for a consolidation commit in progress (the store lock):
// the imported store is never half overwritten by the rest of that commit.
TEST_F(ConsolidateRaceTest, AnImportWaitsForACommitInProgress) {
  auto ex = Lore({"export", kRepo, "-o", t_ / "before.tar.gz"}, Opts());
  ASSERT_EQ(ex.exit_code, 0) << ex.err;
  Stage(Decide("s1", "db", "one"));
  Stage(Decide("s1", "vcs", "two"));
  Stage(Decide("s1", "ci", "three"));
  Child run({LoreTestBinary(), "consolidate", kRepo, "--foreground", "--flush"}, Hold("mid-commit"),
            t_ / "out", t_ / "err");
  ASSERT_TRUE(WaitFor([&] { return Exists("staging/.consolidation.journal"); }));
  Child import({LoreBinary(), "import", t_ / "before.tar.gz", "--force", "--with-config"}, Env(),
               t_ / "import.out", t_ / "import.err");
  // The import unpacks and checks its copy (checking remembers the validated
  // raw.jsonl in its user.lore.check attribute), then waits for the lock.
  auto unpacked = [&] {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(t_ / "home/.lore", ec)) {
      const std::string raw = (e.path() / "raw.jsonl").string();
      if (e.path().filename().string().rfind(".import.new.", 0) == 0 &&
          ::getxattr(raw.c_str(), "user.lore.check", nullptr, 0) >= 0)
        return true;
    }
    return false;
  };
  ASSERT_TRUE(WaitFor(unpacked));
  int status = 0;
  EXPECT_FALSE(WaitFor([&] { return ::waitpid(import.pid(), &status, WNOHANG) == import.pid(); },
                       std::chrono::milliseconds(500)))
      << "the import did not wait for the commit";
  t_.Write("release", "");
  EXPECT_EQ(run.Wait(), 0) << t_.Read("err");
  EXPECT_EQ(import.Wait(), 0) << t_.Read("import.err");
  // The store is the archive's: no decision of the run, staged entries as exported.
  EXPECT_FALSE(Exists(Record("db")));
  EXPECT_FALSE(Exists(Record("vcs")));
  EXPECT_FALSE(Exists(Record("ci")));
  EXPECT_EQ(Lore({"check", kRepo}, Opts()).exit_code, 0);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
