// Black-box tests of the hooks that extract the transcript: pre-compact
// (extract, then consolidate, in one detached child), session-end (the rest)
// and stop (only past memory.extract_threshold). The detached work is waited
// for by polling what it writes, never by a fixed sleep.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kKey = "github.com_acme_widgets";
constexpr const char* kSession = "9a7e4410-22c3-4f0a-8d1e-77b3c2e9f002";

class HookExtractTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.Write("widgets/.git/config",
             "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n");
    std::ifstream in(std::string(LORE_SOURCE_DIR) + "/tests/fixtures/transcripts/plan.jsonl");
    std::stringstream ss;
    ss << in.rdbuf();
    t_.Write("plan.jsonl", ss.str());
  }
  RunOptions Opts(std::string input) const {
    RunOptions o;
    o.input = std::move(input);
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["XDG_CONFIG_HOME"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = std::nullopt;
    o.cwd = t_ / "widgets";
    return o;
  }
  std::string Store(const std::string& rel = "") const {
    return t_ / (std::string("stores/") + kKey + (rel.empty() ? "" : "/" + rel));
  }
  std::string Payload(const std::string& event, const std::string& transcript) const {
    Json j = {{"session_id", kSession},
              {"transcript_path", transcript},
              {"cwd", t_ / "widgets"},
              {"hook_event_name", event}};
    return j.dump();
  }
  RunResult Hook(const std::string& verb, const std::string& event, const std::string& transcript) {
    return Lore({"hook", verb}, Opts(Payload(event, transcript)));
  }
  // Waits (30 s at most) until `done` holds.
  static bool WaitFor(const std::function<bool()>& done) {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < until) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
  }
  int64_t CursorLine() const {
    std::ifstream in(Store(std::string("extract/") + kSession + ".json"));
    if (!in) return -1;
    std::stringstream ss;
    ss << in.rdbuf();
    Json j = Json::parse(ss.str(), nullptr, false);
    return j.is_object() && j["pending"].is_null() ? j["line"].get<int64_t>() : -1;
  }
  size_t StagedCount() const {
    size_t n = 0;
    std::error_code ec;
    for (const auto& e : stdfs::directory_iterator(Store("staging"), ec)) {
      std::string name = e.path().filename().string();
      n += name.size() == 41 && name[0] != '.' && name.substr(36) == ".json";
    }
    return n;
  }
  static void ExpectOneWarning(const RunResult& r) {
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("lore: warning: ", 0), 0u) << r.err;
  }

  TempDir t_;
};

TEST_F(HookExtractTest, PreCompactExtractsThenConsolidatesAndTheNextSessionSeesIt) {
  auto r = Hook("pre-compact", "PreCompact", t_ / "plan.jsonl");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(WaitFor([&] { return CursorLine() == 32; }));
  ASSERT_TRUE(WaitFor([&] {
    return stdfs::exists(Store("staging/.consolidation.state.json")) && StagedCount() == 0 &&
           !stdfs::exists(Store("staging/.consolidation.lock"));
  }));
  EXPECT_TRUE(stdfs::exists(Store("memory/decisions")));
  // The bundle is refreshed once the run's lines are out and its lock is gone
  // (app::FinishConsolidation): wait for the distilled digest.
  ASSERT_TRUE(WaitFor([&] {
    std::ifstream in(Store("okf/index.md"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.find("Distilled by lore") != std::string::npos;
  }));
  auto start =
      Lore({"hook", "session-start"},
           Opts(R"({"session_id":"s2","source":"compact","cwd":")" + t_ / "widgets" + "\"}"));
  ASSERT_EQ(start.exit_code, 0) << start.err;
  Json j = Json::parse(start.out, nullptr, false);
  std::string ctx = j["hookSpecificOutput"]["additionalContext"].get<std::string>();
  EXPECT_NE(ctx.find("# Briefing"), std::string::npos) << ctx;
  EXPECT_NE(ctx.find("## Last sessions"), std::string::npos) << ctx;
  // distill ran after the consolidation: the digest the context names has content.
  EXPECT_NE(ctx.find("the distilled digest"), std::string::npos) << ctx;
}

// A transcript extracted to its end starts no extract, but what waits in
// staging/ is still consolidated.
TEST_F(HookExtractTest, PreCompactWithNothingNewStillFlushes) {
  std::string transcript = t_ / "plan.jsonl";
  ASSERT_EQ(Lore({"extract", t_ / "widgets", "--transcript", transcript}, Opts("")).exit_code, 0);
  ASSERT_EQ(CursorLine(), 32);
  ASSERT_EQ(StagedCount(), 1u);
  ASSERT_FALSE(stdfs::exists(Store("memory/decisions")));
  auto r = Hook("pre-compact", "PreCompact", transcript);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(WaitFor(
      [&] { return StagedCount() == 0 && !stdfs::exists(Store("staging/.consolidation.lock")); }));
  EXPECT_TRUE(stdfs::exists(Store("memory/decisions")));
  EXPECT_EQ(CursorLine(), 32);
}

TEST_F(HookExtractTest, SessionEndExtractsTheRestConsolidatesAndDistills) {
  auto r = Hook("session-end", "SessionEnd", t_ / "plan.jsonl");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  ASSERT_TRUE(WaitFor([&] { return CursorLine() == 32; }));
  ASSERT_TRUE(WaitFor([&] {
    return StagedCount() == 0 && stdfs::exists(Store("memory/summary.md")) &&
           !stdfs::exists(Store("staging/.consolidation.lock"));
  }));
  ASSERT_TRUE(WaitFor([&] {
    std::ifstream in(Store("okf/index.md"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.find("## Summary") != std::string::npos &&
           text.find("lore:briefing") == std::string::npos;
  })) << "distill runs after the consolidation";
  EXPECT_TRUE(stdfs::exists(Store("sessions/9a7e4410-22c3-4f0a-8d1e-77b3c2e9f002.jsonl")));
}

TEST_F(HookExtractTest, StopExtractsOnlyPastTheThreshold) {
  std::string transcript = t_ / "plan.jsonl";
  ASSERT_EQ(Lore({"extract", t_ / "widgets", "--transcript", transcript}, Opts("")).exit_code, 0);
  t_.Write(std::string("stores/") + kKey + "/config.toml", "[memory]\nextract_threshold = 2000\n");
  ASSERT_EQ(StagedCount(), 1u);
  auto line = [](const std::string& text) {
    return Json({{"type", "user"}, {"sessionId", kSession}, {"message", {{"content", text}}}})
               .dump() +
           "\n";
  };
  std::ofstream(transcript, std::ios::app) << line("Small follow-up request.");  // ~100 bytes
  auto below = Hook("stop", "Stop", transcript);
  EXPECT_EQ(below.exit_code, 0);
  EXPECT_EQ(below.err, "");
  std::ofstream(transcript, std::ios::app) << line(std::string(3000, 'a') + " long request.");
  auto above = Hook("stop", "Stop", transcript);
  EXPECT_EQ(above.err, "");
  // The cursor moves past a range before its entry is published: wait for both.
  ASSERT_TRUE(WaitFor([&] { return CursorLine() == 34 && StagedCount() >= 2; }));
  EXPECT_EQ(StagedCount(), 2u) << "the first Stop must not have extracted line 33 alone";
}

TEST_F(HookExtractTest, MissingTranscriptIsOneWarning) {
  for (const char* verb : {"pre-compact", "stop", "session-end"}) {
    auto r = Hook(verb, "X", t_ / "gone.jsonl");
    ExpectOneWarning(r);
    EXPECT_NE(r.err.find("gone.jsonl"), std::string::npos) << verb << r.err;
  }
}

TEST_F(HookExtractTest, ADirectoryAsTranscriptIsOneWarning) {
  auto r = Hook("stop", "Stop", t_ / "widgets");
  ExpectOneWarning(r);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
