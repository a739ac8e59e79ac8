// The kill -9 soak (docs/testing.md): appends, proposals, reviews, memory
// edits and consolidations run side by side on one store for about 30 s
// (LORE_SOAK_SECONDS), each process SIGKILLed at a random moment or let run.
// A process seen to exit 0 is acknowledged. At the end every acknowledged
// write is in the store exactly once, `lore check` and `lore lint` pass and
// every JSONL line parses.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "faults/driver.h"
#include "support/process.h"
#include "support/run.h"
#include "support/soak_seed.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using faults::Occurrences;
using Env = std::map<std::string, std::optional<std::string>>;
constexpr const char* kRepo = "https://example.com/acme/app";
constexpr const char* kKey = "example.com_acme_app";
// The decisions the consolidations keep adding sources to, and the edits go to.
const std::vector<std::string> kTopics = {"db", "vcs"};

std::string DecisionRel(const std::string& topic) {
  return "memory/decisions/" + topic + "-a-or-" + topic + "-b.md";
}

std::string Entry(const std::string& topic, const std::string& session) {
  nlohmann::ordered_json j = {
      {"source", {{"session_id", session}, {"range", {1, 2}}}},
      {"decisions",
       {{{"options", {topic + " a", topic + " b"}}, {"chosen", topic + " b"}, {"rationale", "r"}}}},
      {"discussions", nlohmann::ordered_json::array()},
      {"attempts", nlohmann::ordered_json::array()},
      {"requests", nlohmann::ordered_json::array()}};
  return j.dump();
}

class SoakTest : public ::testing::Test {
 protected:
  Env BaseEnv() const {
    return {{"HOME", t_ / "home"},
            {"LORE_HOME", t_ / "lore"},
            {"XDG_CONFIG_HOME", std::nullopt},
            {"LORE_WAVE", std::nullopt},
            {"LORE_TEST_HOOK", std::nullopt},
            {"LORE_TEST_CRASH_AFTER_LEARNINGS", std::nullopt}};
  }
  std::string Store(const std::string& rel) const {
    return t_ / (std::string("lore/") + kKey + "/" + rel);
  }
  std::string Read(const std::string& rel) const { return faults::ReadText(Store(rel)); }
  RunResult Lore(const std::vector<std::string>& args, std::string input = {}) const {
    RunOptions o;
    o.env = BaseEnv();
    o.input = std::move(input);
    return lore::testing::Lore(args, o);
  }

  // Runs `args` (stdin from `input`) and SIGKILLs it after a random delay,
  // or lets it run to its end; returns its exit code (128+9 when killed
  // before it exited).
  int RunMaybeKilled(const std::vector<std::string>& args, const std::string& input,
                     std::mt19937& rng, int id) {
    std::string base = t_ / ("io/" + std::to_string(id));
    std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" < \"$LORE_SOAK_IN\"",
                                     LoreBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    Env env = BaseEnv();
    env["LORE_SOAK_IN"] = base + ".in";
    { std::ofstream(base + ".in", std::ios::binary) << input; }
    Child child(argv, env, base + ".out", base + ".err");
    int choice = std::uniform_int_distribution<int>(0, 2)(rng);
    if (choice > 0) {  // two runs in three are killed, somewhere in their first 40 ms
      std::this_thread::sleep_for(
          std::chrono::microseconds(std::uniform_int_distribution<int>(0, 40000)(rng)));
      child.Kill(SIGKILL);
    }
    return child.Wait();
  }

  TempDir t_;
};

TEST_F(SoakTest, KilledAtRandomNothingAcknowledgedIsLost) {
  const char* secs = std::getenv("LORE_SOAK_SECONDS");
  const auto duration = std::chrono::seconds(secs ? std::atoi(secs) : 30);
  stdfs::create_directories(t_ / "io");
  ASSERT_EQ(Lore({"ensure", kRepo}).exit_code, 0);
  faults::WriteText(Store("config.toml"), "[memory.staging]\nthreshold_files = 100000\n");
  for (const auto& topic : kTopics) {
    ASSERT_EQ(Lore({"stage", kRepo}, Entry(topic, "seed-" + topic)).exit_code, 0);
  }
  ASSERT_EQ(Lore({"consolidate", kRepo, "--foreground", "--flush"}).exit_code, 0);

  const unsigned soak_seed = lore::testing::SoakSeed("SoakTest");
  std::mutex mu;
  std::set<std::string> raw_acked, proposals_acked, edits_acked, staged_acked;
  std::atomic<int> ids{0}, runs{0}, killed{0};
  const auto end = std::chrono::steady_clock::now() + duration;
  // LORE_SOAK_SKIP=edit,review (say) leaves loops out, to find which pair loses something.
  const char* skip_env = std::getenv("LORE_SOAK_SKIP");
  const std::string skip = skip_env ? skip_env : "";
  auto worker = [&](const char* name, int seed,
                    const std::function<void(std::mt19937&, int)>& step) {
    if (skip.find(name) != std::string::npos) return;
    std::mt19937 rng(static_cast<unsigned>(seed) * 7919u + soak_seed);
    while (std::chrono::steady_clock::now() < end) step(rng, ids++);
  };
  auto record = [&](int code, std::set<std::string>& acked, const std::string& what) {
    ++runs;
    if (code == 128 + SIGKILL) ++killed;
    if (code != 0) return;
    std::lock_guard<std::mutex> lock(mu);
    acked.insert(what);
  };
  std::vector<std::thread> threads;
  threads.emplace_back(worker, "append", 1, [&](std::mt19937& rng, int id) {
    std::string m = "raw-" + std::to_string(id);
    record(RunMaybeKilled({"append-review", kRepo}, "{\"marker\":\"" + m + "\"}", rng, id),
           raw_acked, m);
  });
  threads.emplace_back(worker, "propose", 2, [&](std::mt19937& rng, int id) {
    std::string s = "subject-" + std::to_string(id);
    record(RunMaybeKilled(
               {"propose", kRepo, "--type", "convention", "--subject", s, "--insight", "i",
                "--evidence", "e", "--confidence", "0.9", "--wave", "W" + std::to_string(id)},
               "", rng, id),
           proposals_acked, s);
  });
  threads.emplace_back(worker, "review", 3, [&](std::mt19937& rng, int id) {
    ++runs;
    killed += RunMaybeKilled({"review", kRepo, "--json", "--session", "soak", "--approve-all"}, "",
                             rng, id) == 128 + SIGKILL;
  });
  threads.emplace_back(worker, "edit", 4, [&](std::mt19937& rng, int id) {
    std::string e = "[edit-" + std::to_string(id) + "]";
    const std::string& topic = kTopics[static_cast<size_t>(id) % kTopics.size()];
    record(RunMaybeKilled({"memory", "edit", kRepo, "decision", topic + "-a-or-" + topic + "-b",
                           "--append", e},
                          "", rng, id),
           edits_acked, topic + " " + e);
  });
  threads.emplace_back(worker, "consolidate", 5, [&](std::mt19937& rng, int id) {
    std::string session = "soak-s" + std::to_string(id);
    const std::string& topic = kTopics[static_cast<size_t>(id) % kTopics.size()];
    record(RunMaybeKilled({"stage", kRepo}, Entry(topic, session), rng, id), staged_acked,
           topic + " " + session);
    ++runs;
    killed += RunMaybeKilled({"consolidate", kRepo, "--foreground", "--flush"}, "", rng, ids++) ==
              128 + SIGKILL;
  });
  for (auto& th : threads) th.join();

  // Settle: finish an interrupted commit, consume what is staged, promote what is queued.
  auto status = Lore({"status", kRepo});
  EXPECT_EQ(status.exit_code, 0) << status.err;
  auto flush = Lore({"consolidate", kRepo, "--foreground", "--flush"});
  EXPECT_EQ(flush.exit_code, 0) << flush.err << flush.out;
  auto review = Lore({"review", kRepo, "--json", "--session", "soak", "--approve-all"});
  EXPECT_EQ(review.exit_code, 0) << review.err << review.out;
  std::cout << "[ soak     ] " << runs << " runs, " << killed
            << " killed; acknowledged: " << raw_acked.size() << " appends, "
            << proposals_acked.size() << " proposals, " << edits_acked.size() << " edits, "
            << staged_acked.size() << " staged entries\n";

  auto check = Lore({"check", kRepo});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  auto lint = Lore({"lint", kRepo});
  EXPECT_EQ(lint.exit_code, 0) << lint.out << lint.err;
  EXPECT_EQ(faults::BadJsonlLines(t_ / "lore"), std::vector<std::string>{});

  std::string raw = Read("raw.jsonl");
  for (const auto& m : raw_acked)
    EXPECT_EQ(Occurrences(raw, "\"marker\":\"" + m + "\""), 1u) << "raw.jsonl: " << m;
  std::string learned = Read("learnings.jsonl") + Read("proposals.jsonl");
  for (const auto& s : proposals_acked)
    EXPECT_EQ(Occurrences(learned, "\"subject\":\"" + s + "\""), 1u) << "learnings/queue: " << s;
  std::map<std::string, std::string> decisions;
  for (const auto& topic : kTopics) decisions[topic] = Read(DecisionRel(topic));
  size_t lost_edits = 0, lost_sources = 0;
  for (const auto& te : edits_acked) {
    std::string topic = te.substr(0, te.find(' ')), e = te.substr(te.find(' ') + 1);
    size_t n = Occurrences(decisions[topic], e);
    lost_edits += n == 0;
    EXPECT_LE(n, 1u) << DecisionRel(topic) << ": " << e;
  }
  for (const auto& ts : staged_acked) {
    std::string topic = ts.substr(0, ts.find(' ')), s = ts.substr(ts.find(' ') + 1);
    size_t n = Occurrences(decisions[topic], "session_id: " + s + "\n");
    lost_sources += n == 0;
    EXPECT_LE(n, 1u) << DecisionRel(topic) << ": " << s;
  }
  EXPECT_EQ(lost_edits, 0u) << "acknowledged memory edits missing (of " << edits_acked.size()
                            << "): a consolidation commit overwrote them";
  EXPECT_EQ(lost_sources, 0u) << "sources of acknowledged staged entries missing (of "
                              << staged_acked.size() << ")";
  EXPECT_TRUE(Lore({"status", kRepo}).exit_code == 0);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
