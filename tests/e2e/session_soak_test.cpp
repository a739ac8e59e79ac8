// The kill -9 soak of Phase 1 and 2 together (issue 24): three sessions'
// transcripts grow while `lore extract` runs for each and `lore consolidate`
// runs beside them, every process SIGKILLed at a random moment or let run,
// for about 8 s (LORE_SESSION_SOAK_SECONDS). Then each session is extracted
// and consolidated to its end. Every transcript line must then be in its
// session log once and in exactly one staged range: each line is a request of
// its own, so the ranges are read back from the request records' sources.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/run.h"
#include "support/soak_seed.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Env = std::map<std::string, std::optional<std::string>>;
constexpr const char* kRepo = "https://example.com/acme/soak";
constexpr const char* kKey = "example.com_acme_soak";
const std::vector<std::string> kSessions = {"soak-a", "soak-b", "soak-c"};

std::string PersonLine(const std::string& session, int n) {
  nlohmann::json j = {
      {"type", "user"},
      {"sessionId", session},
      {"timestamp", "2025-05-01T10:00:00Z"},
      {"message",
       {{"role", "user"},
        {"content", "Task " + session + " number " + std::to_string(n) + ": rename the field"}}}};
  return j.dump() + "\n";
}

class SessionSoakTest : public ::testing::Test {
 protected:
  Env BaseEnv() const {
    return {{"HOME", t_ / "home"},
            {"LORE_HOME", t_ / "lore"},
            {"XDG_CONFIG_HOME", std::nullopt},
            {"LORE_TEST_HOOK", std::nullopt}};
  }
  std::string Store(const std::string& rel) const {
    return t_ / (std::string("lore/") + kKey + "/" + rel);
  }
  std::string Transcript(const std::string& s) const { return t_ / ("t/" + s + ".jsonl"); }
  RunResult Lore(const std::vector<std::string>& args) const {
    RunOptions o;
    o.env = BaseEnv();
    return lore::testing::Lore(args, o);
  }
  // Runs `args` and SIGKILLs it after a random delay, or lets it run.
  int RunMaybeKilled(const std::vector<std::string>& args, std::mt19937& rng, int id) {
    std::string base = t_ / ("io/" + std::to_string(id));
    std::vector<std::string> argv{LoreBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    Child child(argv, BaseEnv(), base + ".out", base + ".err");
    if (std::uniform_int_distribution<int>(0, 2)(rng) > 0) {
      std::this_thread::sleep_for(
          std::chrono::microseconds(std::uniform_int_distribution<int>(0, 12000)(rng)));
      child.Kill(SIGKILL);
    }
    return child.Wait();
  }
  TempDir t_;
};

// Merges `ranges` and says whether they cover [1, n] once each.
std::string Coverage(std::vector<std::pair<int64_t, int64_t>> ranges, int64_t n) {
  std::sort(ranges.begin(), ranges.end());
  int64_t next = 1;
  for (const auto& [a, b] : ranges) {
    if (a != next)
      return "expected a range from " + std::to_string(next) + ", got [" + std::to_string(a) +
             ", " + std::to_string(b) + "]";
    next = b + 1;
  }
  if (next != n + 1) return "lines " + std::to_string(next) + ".." + std::to_string(n) + " missing";
  return "";
}

TEST_F(SessionSoakTest, EveryLineIsLoggedAndStagedExactlyOnce) {
  const char* secs = std::getenv("LORE_SESSION_SOAK_SECONDS");
  const auto duration = std::chrono::seconds(secs ? std::atoi(secs) : 8);
  stdfs::create_directories(t_ / "io");
  stdfs::create_directories(t_ / "t");
  ASSERT_EQ(Lore({"ensure", kRepo}).exit_code, 0);
  std::ofstream(Store("config.toml")) << "[memory.staging]\nthreshold_files = 100000\n";
  std::map<std::string, int> written;
  std::mutex mu;
  for (const auto& s : kSessions) {
    std::ofstream(Transcript(s)) << PersonLine(s, 1);
    written[s] = 1;
  }
  const unsigned seed = lore::testing::SoakSeed("SessionSoakTest");
  std::atomic<int> ids{0}, runs{0}, killed{0};
  const auto end = std::chrono::steady_clock::now() + duration;
  std::vector<std::thread> threads;
  threads.emplace_back([&] {  // the sessions go on: a line now and then
    std::mt19937 rng(seed);
    while (std::chrono::steady_clock::now() < end) {
      for (const auto& s : kSessions) {
        std::lock_guard<std::mutex> lock(mu);
        std::ofstream(Transcript(s), std::ios::app) << PersonLine(s, ++written[s]);
      }
      std::this_thread::sleep_for(
          std::chrono::milliseconds(std::uniform_int_distribution<int>(5, 40)(rng)));
    }
  });
  for (size_t i = 0; i < kSessions.size(); ++i) {
    threads.emplace_back([&, i] {
      std::mt19937 rng(seed * 7919u + static_cast<unsigned>(100 + i));
      while (std::chrono::steady_clock::now() < end) {
        int code = RunMaybeKilled(
            {"extract", kRepo, "--transcript", Transcript(kSessions[i]), "--session", kSessions[i]},
            rng, ids++);
        ++runs;
        if (code == 128 + SIGKILL) ++killed;
      }
    });
  }
  threads.emplace_back([&] {
    std::mt19937 rng(seed * 7919u + 7u);
    while (std::chrono::steady_clock::now() < end) {
      int code = RunMaybeKilled({"consolidate", kRepo, "--flush", "--foreground"}, rng, ids++);
      ++runs;
      if (code == 128 + SIGKILL) ++killed;
    }
  });
  for (auto& th : threads) th.join();
  EXPECT_GT(killed.load(), 5) << "the soak killed too few runs to mean anything";

  // To the end: every session extracted, everything consolidated.
  for (const auto& s : kSessions) {
    auto r = Lore({"extract", kRepo, "--transcript", Transcript(s), "--session", s});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  ASSERT_EQ(Lore({"consolidate", kRepo, "--flush", "--foreground"}).exit_code, 0);
  ASSERT_EQ(Lore({"check", kRepo}).exit_code, 0);
  ASSERT_EQ(Lore({"lint", kRepo}).exit_code, 0);

  // Every line in its session log once.
  for (const auto& s : kSessions) {
    std::ifstream in(Store("sessions/" + s + ".jsonl"));
    std::vector<std::pair<int64_t, int64_t>> spans;
    std::set<int64_t> lines;
    std::string l;
    while (std::getline(in, l)) {
      auto j = nlohmann::json::parse(l);
      if (j["turn"] == "span") {
        spans.emplace_back(j["lines"][0].get<int64_t>(), j["lines"][1].get<int64_t>());
      } else {
        EXPECT_TRUE(lines.insert(j["line"].get<int64_t>()).second) << s << " logged twice: " << l;
      }
    }
    EXPECT_EQ(Coverage(spans, written[s]), "") << s;
    EXPECT_EQ(static_cast<int>(lines.size()), written[s]) << s;
  }
  // Every line in exactly one staged range: the sources of the requests
  // (each line is a request of its own) and whatever is still staged.
  std::map<std::string, std::set<std::pair<int64_t, int64_t>>> ranges;
  const std::regex source(R"(- session_id: \"?([a-z-]+)\"?\n\s+range: \[(\d+), (\d+)\])");
  for (const auto& e : stdfs::directory_iterator(Store("memory/requests"))) {
    std::ifstream in(e.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), source), done; it != done; ++it) {
      ranges[(*it)[1]].insert({std::stoll((*it)[2]), std::stoll((*it)[3])});
    }
  }
  for (const auto& s : kSessions) {
    std::vector<std::pair<int64_t, int64_t>> v(ranges[s].begin(), ranges[s].end());
    EXPECT_EQ(Coverage(v, written[s]), "")
        << s << " (" << runs.load() << " runs, " << killed.load() << " killed)";
  }
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
