#include "lore/app/hook.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lore/app/store.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

std::string UserLine(const std::string& text) {
  return R"({"type":"user","sessionId":"s1","message":{"content":")" + text + "\"}}\n";
}

// The fixture's checkout and store, and a transcript.
class AppHookTest : public testing::AppStoreTest {
 protected:
  void SetUp() override {
    AppStoreTest::SetUp();
    t_.Write("s1.jsonl", UserLine("Add a cache to the search path."));
    payload_.session_id = "s1";
    payload_.transcript_path = t_ / "s1.jsonl";
  }

  void Ensure() { ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now())); }
  void Config(const std::string& text) {
    std::ofstream(store_->config_path(), std::ios::app) << text;
  }

  hook::Payload payload_;
};

TEST_F(AppHookTest, AWarningIsSaidOncePerSession) {
  const auto now = std::chrono::system_clock::now();
  const std::string head = R"({"session_id":"s1","prompt":")";
  EXPECT_TRUE(FirstHookWarning("stdin-over-cap", head, now));
  EXPECT_FALSE(FirstHookWarning("stdin-over-cap", head, now));
  EXPECT_TRUE(FirstHookWarning("stdin-over-cap", R"({"session_id":"s2")", now));
  EXPECT_TRUE(FirstHookWarning("another-cause", head, now));
}

TEST_F(AppHookTest, StopWaitsForTheExtractThresholdOfConfig) {
  Ensure();
  auto below = StopRun(*store_, "/usr/bin/lore", repo_, payload_);
  ASSERT_TRUE(below) << below.error().Format();
  EXPECT_TRUE(below->empty()) << "the transcript is far below the default 256 KiB";

  Config("[memory]\nextract_threshold = 10\n");
  auto past = StopRun(*store_, "/usr/bin/lore", repo_, payload_);
  ASSERT_TRUE(past) << past.error().Format();
  EXPECT_EQ(*past, (hook::Command{"/usr/bin/lore", "extract", repo_, "--transcript",
                                  payload_.transcript_path, "--session", "s1"}));
}

TEST_F(AppHookTest, StopNamesABadThresholdInConfig) {
  Ensure();
  Config("[memory]\nextract_threshold = 0\n");
  auto r = StopRun(*store_, "/usr/bin/lore", repo_, payload_);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().Format().find("config.toml"), std::string::npos) << r.error().Format();
}

TEST_F(AppHookTest, ExtractThenConsolidateNeedsATranscript) {
  Ensure();
  auto with = ExtractThenConsolidateRun(*store_, "/usr/bin/lore", repo_, payload_);
  ASSERT_TRUE(with) << with.error().Format();
  ASSERT_FALSE(with->empty());
  EXPECT_EQ(with->back(), "--then-consolidate");

  payload_.transcript_path.clear();
  auto without = ExtractThenConsolidateRun(*store_, "/usr/bin/lore", repo_, payload_);
  ASSERT_TRUE(without) << without.error().Format();
  EXPECT_TRUE(without->empty());
  auto flush = FlushRun(*store_, "/usr/bin/lore", repo_);
  ASSERT_TRUE(flush) << flush.error().Format();
  EXPECT_TRUE(flush->empty()) << "nothing is staged";
}

TEST_F(AppHookTest, SessionStartOutsideACommittedCheckoutAsksForNoSymbols) {
  auto none = StartSession(*store_, "startup", repo_);
  ASSERT_TRUE(none) << none.error().Format();
  EXPECT_EQ(none->json, "") << "no store yet: nothing to say";
  EXPECT_FALSE(none->symbols);

  Ensure();
  std::filesystem::create_directories(store_->Path("memory"));
  std::ofstream(store_->Path("memory/summary.md"))
      << "---\ntitle: Summary\n---\nThe search path caches its index in an LRU.\n";
  auto some = StartSession(*store_, "startup", repo_);
  ASSERT_TRUE(some) << some.error().Format();
  EXPECT_NE(some->json.find(R"("hookEventName":"SessionStart")"), std::string::npos) << some->json;
  EXPECT_NE(some->json.find("caches its index in an LRU"), std::string::npos) << some->json;
  EXPECT_FALSE(some->symbols) << "the checkout has no HEAD";
}

TEST_F(AppHookTest, EndSessionRemindsOnlyOfPendingProposals) {
  Ensure();
  auto quiet = EndSession(*store_, repo_, "s1");
  ASSERT_TRUE(quiet) << quiet.error().Format();
  EXPECT_EQ(*quiet, "");
}

TEST_F(AppHookTest, AToolUseIsAuditedOnlyForAProposeCall) {
  const std::string propose =
      R"({"session_id":"s1","cwd":")" + repo_ +
      R"(","tool_name":"Bash","tool_input":{"command":"lore propose . --insight=x"}})";
  auto written = AuditToolUse(propose, "W1", "/", std::chrono::system_clock::now());
  ASSERT_TRUE(written) << written.error().Format();
  EXPECT_TRUE(*written);
  std::ifstream events(store_->Path("events.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(events, line));
  EXPECT_NE(line.find(R"("wave":"W1")"), std::string::npos) << line;

  const std::string ls = R"({"session_id":"s1","cwd":")" + repo_ +
                         R"(","tool_name":"Bash","tool_input":{"command":"ls"}})";
  auto skipped = AuditToolUse(ls, "W1", "/", std::chrono::system_clock::now());
  ASSERT_TRUE(skipped) << skipped.error().Format();
  EXPECT_FALSE(*skipped);
}

}  // namespace
}  // namespace lore::app
