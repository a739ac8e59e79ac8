#include "lore/proposals/review.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "lore/json/dump_js.h"
#include "lore/proposals/queue.h"
#include "lore/proposals/record.h"
#include "lore/sys/uuid.h"
#include "proposals/summary.h"
#include "support/temp_dir.h"
#include "support/test_points.h"

namespace lore::proposals {
namespace {

class ReviewTest : public ::testing::Test {
 protected:
  Json Add(const std::string& wave = "W1") {
    Fields f{wave,
             "anti-pattern",
             "subject " + std::to_string(n_),
             "insight",
             "evidence",
             0.8,
             std::nullopt,
             {}};
    Json r = MakeRecord(f, sys::NewUuidV4(),
                        text::TimePoint(std::chrono::milliseconds(1700000000000 + 1000 * n_++)));
    EXPECT_EQ(Enqueue(p_, r, Settings{})->outcome, Outcome::kQueued);
    return r;
  }
  std::vector<Decision> Pattern(const ReviewSet& set, const std::string& verdicts) {
    std::vector<Decision> d;
    for (size_t k = 0; k < set.pending.size(); ++k) {
      Verdict v = verdicts[k] == 'a'   ? Verdict::kApprove
                  : verdicts[k] == 'd' ? Verdict::kDecline
                                       : Verdict::kUndecided;
      d.push_back(Decision{v, "user-declined", text::TimePoint(std::chrono::seconds(1800000000))});
    }
    return d;
  }
  PromoteOptions Opts(std::string session = "sess-1") {
    PromoteOptions o;
    o.session_id = std::move(session);
    o.now = text::TimePoint(std::chrono::seconds(1800000000));
    return o;
  }
  int64_t Lines(const std::string& rel) {
    std::string s = t_.Read(rel);
    return std::count(s.begin(), s.end(), '\n');
  }

  testing::TempDir t_;
  Paths p_ = Paths::InStore(t_.path());
  int n_ = 0;
};

TEST_F(ReviewTest, ApproveThreeOfFive) {
  for (int i = 0; i < 5; ++i) Add();
  const std::string before = t_.Read("proposals.jsonl");
  auto set = PrepareReview(p_);
  ASSERT_TRUE(set);
  ASSERT_EQ(set->pending.size(), 5u);
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "adada"), Opts());
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(
      json::DumpJs(ToJson(*r)).substr(0, 95),
      R"({"written":3,"expected":3,"errors":[],"cleared":true,"summariesCleared":1,"skippedReason":null,)");
  EXPECT_EQ(Lines("learnings.jsonl"), 3);
  EXPECT_EQ(Lines("proposals.rejected.jsonl"), 2);
  EXPECT_EQ(t_.Read("proposals.jsonl"), "");
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), before);
  EXPECT_FALSE(std::filesystem::exists(t_ / "proposals-summary-W1.json"));
  // One _rejected_at per batch.
  EXPECT_EQ(ScanQueue(t_.Read("proposals.rejected.jsonl")).records[1].record["_rejected_at"],
            "2027-01-15T08:00:00.000Z");
  // A second clear adds nothing to the archive.
  auto again = PromoteAndClear(p_, *PrepareReview(p_), {}, Opts());
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->cleared);
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), before);
}

TEST_F(ReviewTest, SettledElsewhereIsClearedWithoutBeingDecidedHere) {
  Json a = Add("W1");
  Add("W1");
  Json c = Add("W2");
  auto set = PrepareReview(p_);
  ASSERT_TRUE(set);
  PromoteOptions o = Opts("team-review");
  o.settled_elsewhere = {a["id"].get<std::string>(), c["id"].get<std::string>(), "not-queued"};
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "uuu"), o);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_TRUE(r->cleared);
  EXPECT_EQ(r->recovered, 2);
  EXPECT_EQ(r->kept, 1);
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
  EXPECT_EQ(Lines("proposals-archive.jsonl"), 2);
  EXPECT_FALSE(std::filesystem::exists(t_ / "learnings.jsonl"));
  EXPECT_FALSE(std::filesystem::exists(t_ / "proposals.rejected.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(t_ / "proposals-summary-W1.json")) << "W1 still queued";
  EXPECT_FALSE(std::filesystem::exists(t_ / "proposals-summary-W2.json"));
}

TEST_F(ReviewTest, ASecondQueueLeavesTheStoreSummariesAlone) {
  Add("W1");
  // A batch claimed from elsewhere, reviewed as a queue of its own.
  Paths claim = p_;
  claim.queue = t_ / "claim.jsonl";
  t_.Write("claim.jsonl", t_.Read("proposals.jsonl"));
  auto set = PrepareReview(claim);
  ASSERT_TRUE(set);
  PromoteOptions o = Opts();
  o.remove_summaries = false;
  auto r = PromoteAndClear(claim, *set, Pattern(*set, "a"), o);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_TRUE(r->cleared);
  EXPECT_EQ(r->summaries_cleared, 0);
  EXPECT_EQ(t_.Read("claim.jsonl"), "");
  EXPECT_EQ(Lines("learnings.jsonl"), 1);
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
  EXPECT_TRUE(std::filesystem::exists(t_ / "proposals-summary-W1.json"));
}

TEST_F(ReviewTest, WriteErrorClearsNothing) {
  Add();
  Add();
  // A record that fails validation cannot become a learning.
  t_.Write(
      "proposals.jsonl",
      t_.Read("proposals.jsonl") +
          R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2030-01-01T00:00:00.000Z","wave_id":"W1","type":"anti-pattern","subject":"s","insight":"i","evidence":"e","confidence":"high","schema_version":1})"
          "\n");
  const std::string before = t_.Read("proposals.jsonl");
  auto set = PrepareReview(p_);
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "aaa"), Opts());
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->cleared);
  EXPECT_EQ(r->skipped_reason, "write-errors");
  EXPECT_EQ(r->written, 2);
  EXPECT_EQ(r->expected, 3);
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_NE(r->errors[0].find("proposal 2bc5d48f-e3ba-4c4e-b9a0-107600f8e090 (" + p_.queue +
                              ":3): confidence must be"),
            std::string::npos)
      << r->errors[0];
  EXPECT_EQ(t_.Read("proposals.jsonl"), before);
  EXPECT_FALSE(std::filesystem::exists(t_ / "proposals-archive.jsonl"));
  EXPECT_TRUE(std::filesystem::exists(t_ / "proposals-summary-W1.json"));
  // The next review asks only about the bad one and writes no learning twice.
  auto next = PrepareReview(p_);
  EXPECT_EQ(next->pending.size(), 1u);
  EXPECT_EQ(next->settled, 2);
  auto r2 = PromoteAndClear(p_, *next, Pattern(*next, "d"), Opts());
  EXPECT_TRUE(r2->cleared);
  EXPECT_EQ(r2->recovered, 2);
  EXPECT_EQ(Lines("learnings.jsonl"), 2);
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), before);
}

TEST_F(ReviewTest, NoSessionIdWritesNothing) {
  Add();
  auto set = PrepareReview(p_);
  for (const char* s : {"", "  "}) {
    auto r = PromoteAndClear(p_, *set, Pattern(*set, "a"), Opts(s));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  }
  EXPECT_FALSE(std::filesystem::exists(t_ / "learnings.jsonl"));
  EXPECT_EQ(Lines("proposals.jsonl"), 1);
}

TEST_F(ReviewTest, ArrivalsAndUndecidedStayQueued) {
  Json a = Add("W1"), b = Add("W1"), c = Add("W2");
  t_.Write("proposals.jsonl", t_.Read("proposals.jsonl") + "garbage line\n");
  auto set = PrepareReview(p_);
  Json late = Add("W3");  // arrives while the review runs
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "ad-"), Opts());
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->cleared);
  EXPECT_EQ(r->kept, 2);
  EXPECT_EQ(t_.Read("proposals.jsonl"), json::DumpJs(c) + "\n" + json::DumpJs(late) + "\n");
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"),
            json::DumpJs(a) + "\n" + json::DumpJs(b) + "\ngarbage line\n");
  // Summaries of waves still queued are kept.
  EXPECT_FALSE(std::filesystem::exists(t_ / "proposals-summary-W1.json"));
  EXPECT_TRUE(std::filesystem::exists(t_ / "proposals-summary-W2.json"));
  EXPECT_TRUE(std::filesystem::exists(t_ / "proposals-summary-W3.json"));
  EXPECT_EQ(r->summaries_cleared, 1);
}

TEST_F(ReviewTest, InterruptedPromotionIsFinishedWithoutDuplicates) {
  for (int i = 0; i < 5; ++i) Add();
  const std::string before = t_.Read("proposals.jsonl");
  auto set = PrepareReview(p_);
  PromoteOptions o = Opts();
  struct Crash {};
  {
    testing::OnTestPoints points([](std::string_view p) {
      // Stands in for kill -9 (the e2e test really kills).
      if (p == "after-learning-2") throw Crash{};
    });
    EXPECT_THROW((void)PromoteAndClear(p_, *set, Pattern(*set, "aaaaa"), o), Crash);
  }
  std::filesystem::remove(t_ / "proposals-write.lock");
  EXPECT_EQ(Lines("learnings.jsonl"), 2);
  auto second = PrepareReview(p_);
  EXPECT_EQ(second->pending.size(), 3u);
  auto r = PromoteAndClear(p_, *second, Pattern(*second, "aaa"), Opts());
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->cleared);
  EXPECT_EQ(r->recovered, 2);
  auto ids = ReadIds(p_.learnings);
  EXPECT_EQ(ids->size(), 5u);
  EXPECT_EQ(Lines("learnings.jsonl"), 5);
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), before);
}

// Killed between the archive append and the queue's replacement, a review
// leaves the queue as it was; the next review, which clears more lines,
// archives each line once.
TEST_F(ReviewTest, ACrashAfterArchivingNeverArchivesALineTwice) {
  Json a = Add(), b = Add(), c = Add();
  auto set = PrepareReview(p_);
  PromoteOptions o = Opts();
  struct Crash {};
  {
    testing::OnTestPoints points([](std::string_view p) {
      if (p == testing::kReviewAfterArchive) throw Crash{};
    });
    // a approved, b left queued, c declined: a and c are archived, then the crash.
    EXPECT_THROW((void)PromoteAndClear(p_, *set, Pattern(*set, "a-d"), o), Crash);
  }
  std::filesystem::remove(t_ / "proposals-write.lock");
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), json::DumpJs(a) + "\n" + json::DumpJs(c) + "\n");
  EXPECT_TRUE(std::filesystem::exists(t_ / ".proposals-archive.pending"));
  auto second = PrepareReview(p_);
  ASSERT_EQ(second->pending.size(), 1u);
  auto r = PromoteAndClear(p_, *second, Pattern(*second, "a"), Opts());
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_TRUE(r->cleared);
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"),
            json::DumpJs(a) + "\n" + json::DumpJs(c) + "\n" + json::DumpJs(b) + "\n");
  EXPECT_EQ(t_.Read("proposals.jsonl"), "");
  EXPECT_FALSE(std::filesystem::exists(t_ / ".proposals-archive.pending"));
}

// A crash in the middle of the append itself: the torn part is moved into
// quarantine/ (never deleted) and the lines are archived whole, once.
TEST_F(ReviewTest, ATornArchiveAppendIsQuarantinedAndRedone) {
  Json a = Add(), b = Add();
  t_.Write("proposals-archive.jsonl", "{\"older\":1}\n");
  auto set = PrepareReview(p_);
  PromoteOptions o = Opts();
  struct Crash {};
  {
    testing::OnTestPoints points([](std::string_view p) {
      if (p == testing::kReviewAfterArchive) throw Crash{};
    });
    EXPECT_THROW((void)PromoteAndClear(p_, *set, Pattern(*set, "aa"), o), Crash);
  }
  std::filesystem::remove(t_ / "proposals-write.lock");
  std::string full = t_.Read("proposals-archive.jsonl");
  std::filesystem::resize_file(t_ / "proposals-archive.jsonl", full.size() - 7);
  auto r = PromoteAndClear(p_, *PrepareReview(p_), {}, Opts());
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->recovered, 2);
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), full);
  EXPECT_EQ(t_.Read("proposals.jsonl"), "");
  const size_t older = std::string("{\"older\":1}\n").size();
  EXPECT_EQ(t_.Read("quarantine/proposals-archive.jsonl.torn-at-" + std::to_string(older)),
            full.substr(older, full.size() - 7 - older));
}

// A marker left by a review killed after it replaced the queue no longer
// applies: the next review archives normally and removes it.
TEST_F(ReviewTest, AStaleMarkerIsIgnored) {
  Json a = Add();
  t_.Write(".proposals-archive.pending", "0 10 1 1 0:10\n");
  auto set = PrepareReview(p_);
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "a"), Opts());
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(t_.Read("proposals-archive.jsonl"), json::DumpJs(a) + "\n");
  EXPECT_FALSE(std::filesystem::exists(t_ / ".proposals-archive.pending"));
}

TEST_F(ReviewTest, SymlinkedArchiveRefusedBeforeWriting) {
  Add();
  t_.Write("elsewhere", "");
  std::filesystem::create_symlink(t_ / "elsewhere", t_ / "proposals-archive.jsonl");
  auto set = PrepareReview(p_);
  auto r = PromoteAndClear(p_, *set, Pattern(*set, "a"), Opts());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kSymlink);
  EXPECT_FALSE(std::filesystem::exists(t_ / "learnings.jsonl"));
}

}  // namespace
}  // namespace lore::proposals
