#include "lore/app/proposals.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "support/app_store.h"
#include "support/proposal_line.h"

namespace lore::app {
namespace {

class AppProposalsTest : public testing::AppStoreTest {
 protected:
  void SetUp() override {
    AppStoreTest::SetUp();
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
  }
  void Write(const std::string& name, const std::string& text) {
    std::ofstream(store_->dir() + "/" + name, std::ios::binary) << text;
  }
  // Three proposals at confidence 0.5, then a fourth at 0.9 queued first.
  void Fill() {
    Write("proposals.jsonl",
          testing::ProposalLine(2, "second") + testing::ProposalLine(3, "third") +
              testing::ProposalLine(4, "fourth") +
              R"({"id":"00000001-2222-4222-8222-222222222222","created_at":)"
              R"("2026-05-01T00:00:00.000Z","type":"convention","subject":"sure",)"
              R"("evidence":"e","confidence":0.9})"
              "\n");
  }
};

TEST_F(AppProposalsTest, AnEmptyQueueListsNone) {
  auto text = ListProposals(*store_, std::nullopt, /*json=*/false);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(text->text,
            "0 proposals queued (counters: queued 0, dropped 0, below floor 0, fs errors 0; "
            "malformed lines 0)\n");
  EXPECT_TRUE(text->warnings.empty());
  auto json = ListProposals(*store_, std::nullopt, /*json=*/true);
  ASSERT_TRUE(json) << json.error().Format();
  EXPECT_EQ(json->text,
            R"({"queue":[],"stats":{"queued":0,"dropped":0,"below_floor":0,"fs_error":0,)"
            R"("parse_errors":0},"perWaveSummaries":{}})"
            "\n");
}

TEST_F(AppProposalsTest, TheQueueOldestFirstWithTheWavesCounters) {
  Fill();
  Write("proposals-summary-W1.json", R"({"queued":3,"dropped":1})");
  auto listed = ListProposals(*store_, std::nullopt, /*json=*/true);
  ASSERT_TRUE(listed) << listed.error().Format();
  ASSERT_FALSE(listed->text.empty());
  EXPECT_EQ(listed->text.back(), '\n');
  const Json j = Json::parse(listed->text);
  ASSERT_EQ(j["queue"].size(), 4u);
  EXPECT_EQ(j["queue"][0]["subject"], "sure");
  EXPECT_EQ(j["queue"][3]["subject"], "fourth");
  EXPECT_EQ(j["stats"]["queued"], 3);
  EXPECT_EQ(j["stats"]["dropped"], 1);
  EXPECT_EQ(j["perWaveSummaries"]["W1"]["queued"], 3);
  auto text = ListProposals(*store_, std::nullopt, /*json=*/false);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(text->text.rfind("4 proposals queued (counters: queued 3, dropped 1,", 0), 0u)
      << text->text;
  EXPECT_LT(text->text.find("sure"), text->text.find("fourth"));
}

TEST_F(AppProposalsTest, AMinimumConfidenceLeavesOutTheLessSure) {
  Fill();
  auto listed = ListProposals(*store_, 0.8, /*json=*/true);
  ASSERT_TRUE(listed) << listed.error().Format();
  const Json j = Json::parse(listed->text);
  ASSERT_EQ(j["queue"].size(), 1u);
  EXPECT_EQ(j["queue"][0]["subject"], "sure");
  auto text = ListProposals(*store_, 0.8, /*json=*/false);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(text->text.rfind("1 proposal queued", 0), 0u) << text->text;
}

TEST_F(AppProposalsTest, ASummaryThatDoesNotParseIsAWarningAndLeftOut) {
  Fill();
  Write("proposals-summary-W1.json", R"({"queued":3})");
  Write("proposals-summary-W2.json", "{not json");
  auto listed = ListProposals(*store_, std::nullopt, /*json=*/true);
  ASSERT_TRUE(listed) << listed.error().Format();
  ASSERT_EQ(listed->warnings.size(), 1u);
  const Error& w = listed->warnings[0];
  EXPECT_EQ(w.code, ErrorCode::kCorrupt);
  EXPECT_EQ(w.what, "summary file does not parse; its counters are left out");
  EXPECT_EQ(w.path, store_->dir() + "/proposals-summary-W2.json");
  EXPECT_EQ(w.repair, "fix or remove it");
  const Json j = Json::parse(listed->text);
  EXPECT_EQ(j["stats"]["queued"], 3);
  EXPECT_FALSE(j["perWaveSummaries"].contains("W2"));
}

}  // namespace
}  // namespace lore::app
