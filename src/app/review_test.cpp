#include "lore/app/review.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "lore/app/team.h"
#include "lore/json/dump_js.h"
#include "lore/proposals/record.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

using proposals::Verdict;

TEST(AppReview, PlanNamesIdsAndAReason) {
  auto plan =
      ParsePlan(R"({"approve": ["abcd"], "decline": ["ef01", "ef02"], "reason": "manual-skip"})",
                "plan.json");
  ASSERT_TRUE(plan) << plan.error().Format();
  EXPECT_EQ(plan->approve, std::vector<std::string>{"abcd"});
  EXPECT_EQ(plan->decline, (std::vector<std::string>{"ef01", "ef02"}));
  EXPECT_EQ(plan->reason, "manual-skip");
}

TEST(AppReview, PlanIsReadWithTheBoundedReader) {
  // A repeated key (which the unbounded parser let the last one win) is refused.
  auto twice = ParsePlan(R"({"approve": ["a"],
"approve": ["b"]})",
                         "plan.json");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().what.find("the plan is not a JSON object"), std::string::npos);
  EXPECT_EQ(twice.error().path, "plan.json");
  EXPECT_EQ(twice.error().line, 2);
  // Deeper than the reader allows.
  auto deep = ParsePlan(std::string(100, '[') + std::string(100, ']'), "-");
  EXPECT_FALSE(deep);
  auto unknown = ParsePlan(R"({"approve": "abcd"})", "plan.json");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().what.find("\"approve\" is not understood"), std::string::npos);
  auto reason = ParsePlan(R"({"reason": "because"})", "plan.json");
  EXPECT_FALSE(reason);
}

TEST(AppReview, DeclineReasonsAreTheThreeArchivedOnes) {
  EXPECT_TRUE(IsDeclineReason("user-declined"));
  EXPECT_TRUE(IsDeclineReason("overflow-truncate"));
  EXPECT_TRUE(IsDeclineReason("manual-skip"));
  EXPECT_FALSE(IsDeclineReason("because"));
  EXPECT_FALSE(IsDeclineReason(""));
}

// A store with `n` proposals of wave W1 queued, reviewed from the local queue.
class AppReviewQueue : public testing::AppStoreTest {
 protected:
  void Queue(int n) {
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
    std::string text;
    for (int i = 1; i <= n; ++i) {
      proposals::Fields f{"W1",
                          "convention",
                          "subject " + std::to_string(i),
                          "insight",
                          "evidence",
                          0.8,
                          std::nullopt,
                          {}};
      char id[40];
      std::snprintf(id, sizeof id, "%08d-2222-4222-8222-222222222222", i);
      text += json::DumpJs(proposals::MakeRecord(
                  f, id, text::TimePoint(std::chrono::seconds(1700000000 + i)))) +
              "\n";
    }
    std::ofstream(Paths().queue, std::ios::binary) << text;
  }
  proposals::Paths Paths() const { return proposals::Paths::InStore(store_->dir()); }
  ReviewSource Local() {
    auto src = OpenReviewSource(*store_, repo_, /*team_store=*/false, kDefaultClaim,
                                /*claim=*/true, nullptr);
    EXPECT_TRUE(src);
    EXPECT_FALSE(src->team);
    return *src;
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = t_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
};

TEST_F(AppReviewQueue, AgentBatchesAreFourAtATimeWithTheQueuesFingerprint) {
  Queue(5);
  auto batches = AgentBatchesJson(Local());
  ASSERT_TRUE(batches) << batches.error().Format();
  ASSERT_TRUE(batches->is_array());
  ASSERT_EQ(batches->size(), 2u);
  EXPECT_EQ((*batches)[0]["batch"], 1);
  EXPECT_EQ((*batches)[0]["of"], 2);
  EXPECT_EQ((*batches)[0]["ids"].size(), 4u);
  EXPECT_EQ((*batches)[0]["ids"][0], "00000001-2222-4222-8222-222222222222");
  EXPECT_EQ((*batches)[1]["ids"].size(), 1u);
  EXPECT_EQ((*batches)[1]["ids"][0], "00000005-2222-4222-8222-222222222222");
  const std::string fingerprint = (*batches)[0]["queue"].get<std::string>();
  EXPECT_EQ(fingerprint.size(), 16u);
  EXPECT_EQ((*batches)[1]["queue"], fingerprint);
  // Printing the batches writes nothing: the queue is as it was.
  auto set = ReadReviewQueue(Local());
  ASSERT_TRUE(set) << set.error().Format();
  EXPECT_EQ(set->pending.size(), 5u);
  // Another queue, another fingerprint; none pending, no batch.
  Queue(4);
  auto four = AgentBatchesJson(Local());
  ASSERT_TRUE(four) << four.error().Format();
  ASSERT_EQ(four->size(), 1u);
  EXPECT_NE((*four)[0]["queue"], fingerprint);
  Queue(0);
  auto none = AgentBatchesJson(Local());
  ASSERT_TRUE(none) << none.error().Format();
  EXPECT_EQ(*none, Json::array());
}

TEST_F(AppReviewQueue, ThePickerDecidesBatchByBatchThenTheDecisionsArePromoted) {
  Queue(5);
  const ReviewSource src = Local();
  auto set = ReadReviewQueue(src);
  ASSERT_TRUE(set) << set.error().Format();
  int ticks = 0;
  ReviewPicker picker(*set, [&] { return text::TimePoint(std::chrono::seconds(++ticks)); });
  EXPECT_TRUE(picker.active());
  EXPECT_FALSE(picker.done());
  EXPECT_NE(picker.Render(80).find("Batch 1 of 2"), std::string::npos);
  EXPECT_NE(picker.Render(80).find("subject 1"), std::string::npos);
  // Batch 1: the second and fourth ticked by number, the arrow down split
  // over two reads moves from the fourth (wrapping) to the first, ticked
  // too; Enter declines the one left (the third).
  picker.Feed("24\x1b[");
  picker.Feed("B ");
  picker.Feed("\r");
  EXPECT_TRUE(picker.active());
  EXPECT_NE(picker.Render(80).find("Batch 2 of 2"), std::string::npos);
  picker.Feed("d");  // batch 2 declined whole
  EXPECT_FALSE(picker.active());
  ASSERT_TRUE(picker.done());
  const auto& d = picker.decisions();
  ASSERT_EQ(d.size(), 5u);
  const Verdict want[] = {Verdict::kApprove, Verdict::kApprove, Verdict::kDecline,
                          Verdict::kApprove, Verdict::kDecline};
  for (size_t k = 0; k < d.size(); ++k) EXPECT_EQ(d[k].verdict, want[k]) << k;
  // Each key at the clock's time: batch 1 by the fifth key (Enter), batch 2 by the sixth.
  EXPECT_EQ(d[0].at, text::TimePoint(std::chrono::seconds(5)));
  EXPECT_EQ(d[3].at, text::TimePoint(std::chrono::seconds(5)));
  EXPECT_EQ(d[4].at, text::TimePoint(std::chrono::seconds(6)));

  auto r = ApplyDecisions(repo_, src, *set, d, "sess-1", nullptr);
  ASSERT_TRUE(r) << r.error().Format();
  ASSERT_TRUE(r->result);
  EXPECT_TRUE(r->ok) << json::DumpJs(ReviewedJson(*r->result));
  const Json j = ReviewedJson(*r->result);
  EXPECT_EQ(j["written"], 3);
  EXPECT_EQ(j["expected"], 3);
  EXPECT_EQ(j["declined"], 2);
  EXPECT_EQ(j["cleared"], true);
  auto after = ReadReviewQueue(src);
  ASSERT_TRUE(after) << after.error().Format();
  EXPECT_TRUE(after->pending.empty());
}

TEST_F(AppReviewQueue, QuittingThePickerOrLosingTheTerminalDecidesNothing) {
  Queue(2);
  auto set = ReadReviewQueue(Local());
  ASSERT_TRUE(set) << set.error().Format();
  ReviewPicker quit(*set);
  quit.Feed("1q");
  EXPECT_FALSE(quit.active());
  EXPECT_FALSE(quit.done());
  quit.Feed("a");  // keys after q change nothing
  EXPECT_FALSE(quit.done());
  ReviewPicker gone(*set);
  gone.Feed("1");
  gone.Quit();
  EXPECT_FALSE(gone.active());
  EXPECT_FALSE(gone.done());
  ReviewPicker all(*set);
  all.Feed("A");
  EXPECT_TRUE(all.done());
  ASSERT_EQ(all.decisions().size(), 2u);
  EXPECT_EQ(all.decisions()[1].verdict, Verdict::kApprove);
}

TEST_F(AppReviewQueue, AnswersAreARegularFileOfAtMostFourMiB) {
  const std::string path = Write("answers.json", R"({"answers":[]})");
  auto text = ReadAnswersFile(path);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, R"({"answers":[]})");
  EXPECT_FALSE(ReadAnswersFile(t_ / "missing.json"));
  const std::string big = Write("big.json", "");
  std::filesystem::resize_file(big, kMaxAnswersBytes + 1);
  auto refused = ReadAnswersFile(big);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().what, "the answers are not a regular file of at most 4 MiB");
  EXPECT_EQ(refused.error().path, big);
  EXPECT_FALSE(ReadAnswersFile(t_.path()));  // a folder
  std::filesystem::resize_file(big, kMaxAnswersBytes);
  auto at_most = ReadAnswersFile(big);
  ASSERT_TRUE(at_most) << at_most.error().Format();
  EXPECT_EQ(at_most->size(), kMaxAnswersBytes);
}

TEST_F(AppReviewQueue, APlanIsReadFromARegularFileNotThroughASymlink) {
  const std::string path = Write("plan.json", R"({"approve": ["0000"]})");
  auto text = ReadPlanFile(path);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, R"({"approve": ["0000"]})");
  const std::string link = t_ / "link.json";
  ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
  EXPECT_FALSE(ReadPlanFile(link));
  EXPECT_FALSE(ReadPlanFile(t_ / "missing.json"));
}

}  // namespace
}  // namespace lore::app
