#include "lore/proposals/queue.h"

#include <gtest/gtest.h>

#include <cctype>

#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/record.h"
#include "lore/sys/uuid.h"
#include "proposals/summary.h"
#include "support/temp_dir.h"

namespace lore::proposals {
namespace {

Json Make(const std::string& wave, double conf, int64_t ms = 0) {
  Fields f{wave, "convention", "subject", "insight", "evidence", conf, std::nullopt, {}};
  return MakeRecord(f, sys::NewUuidV4(),
                    text::TimePoint(std::chrono::milliseconds(1700000000000 + ms)));
}

TEST(QueueTest, CountWaveLines) {
  std::string data = json::DumpJs(Make("W1", 0.5)) + "\n" + json::DumpJs(Make("W10", 0.5)) + "\n" +
                     "{\"id\": \"x\", \"wave_id\": \"W1\"}\n" +  // another writer's spacing
                     "{\"wave_id\":\"W1\"\n" +                   // cut off: not a record
                     json::DumpJs(Make("W1", 0.5));              // no final newline
  EXPECT_EQ(CountWaveLines(data, "W1"), 3);
  EXPECT_EQ(CountWaveLines(data, "W10"), 1);
  EXPECT_EQ(CountWaveLines(data, "W2"), 0);
  EXPECT_EQ(CountWaveLines("", "W1"), 0);
}

TEST(QueueTest, ScanKeepsExactBytes) {
  QueueScan s = ScanQueue("{\"id\":\"a\"}\n\nnot json\n[1]\n{\"id\":\"b\"}");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].id, "a");
  EXPECT_EQ(s.Text(s.records[0].span), "{\"id\":\"a\"}\n");
  EXPECT_EQ(s.Text(s.records[1].span), "{\"id\":\"b\"}");
  EXPECT_EQ(s.records[1].span.line, 5);
  EXPECT_EQ(s.parse_errors(), 2);
  EXPECT_EQ(s.blank.size(), 1u);
}

// A repeat of a pending record is found whether its subject can be read in
// place or needs parsing (an escape, another writer's spacing), and nothing
// is appended or counted.
TEST(QueueTest, AlreadyQueuedIsFoundAndNothingAppended) {
  testing::TempDir t;
  Paths p = Paths::InStore(t.path());
  Settings s;
  auto lower = [](std::string_view v) {
    std::string out(v);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  for (const std::string subject : {"Say \"hi\"", "Plain Subject"}) {
    Json r = Make("W1", 0.9);
    r["subject"] = subject;
    ASSERT_EQ(Enqueue(p, r, s)->outcome, Outcome::kQueued) << subject;
  }
  t.Write("proposals.jsonl",
          t.Read("proposals.jsonl") + "{\"id\": \"other\", \"subject\": \"spaced out\"}\n");
  const std::string before = t.Read("proposals.jsonl");
  for (const std::string subject : {"say \"hi\"", "plain subject", "spaced out"}) {
    SameProposal same;
    same.subject = subject;
    same.normalise = lower;
    same.same = [&](const Json& q) { return lower(json::StringOr(q, "subject", "")) == subject; };
    auto r = Enqueue(p, Make("W1", 0.9), s, kLockTimeout, same);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->outcome, Outcome::kAlreadyQueued) << subject;
    EXPECT_FALSE(r->queued_id.empty()) << subject;
  }
  EXPECT_EQ(t.Read("proposals.jsonl"), before);
  SameProposal none;
  none.subject = "new";
  none.normalise = lower;
  none.same = [](const Json&) { return false; };
  EXPECT_EQ(Enqueue(p, Make("W1", 0.9), s, kLockTimeout, none)->outcome, Outcome::kQueued);
}

TEST(QueueTest, QuotaOfFive) {
  testing::TempDir t;
  Paths p = Paths::InStore(t.path());
  Settings s;
  std::vector<Outcome> outcomes;
  for (int i = 0; i < 7; ++i) {
    auto r = Enqueue(p, Make("W1", 0.9, i), s);
    ASSERT_TRUE(r) << r.error().Format();
    outcomes.push_back(r->outcome);
    if (i < 5) EXPECT_EQ(r->position, i + 1);
    if (i >= 5) EXPECT_EQ(r->dropped, i - 4);
  }
  EXPECT_EQ(std::count(outcomes.begin(), outcomes.end(), Outcome::kQueued), 5);
  EXPECT_EQ(std::count(outcomes.begin(), outcomes.end(), Outcome::kQuotaExceeded), 2);
  EXPECT_EQ(
      t.Read("proposals-summary-W1.json"),
      "{\n  \"queued\": 5,\n  \"dropped\": 2,\n  \"below_floor\": 0,\n  \"fs_error\": 0\n}\n");
  // Another wave has its own quota.
  EXPECT_EQ(Enqueue(p, Make("W2", 0.9), s)->outcome, Outcome::kQueued);
}

TEST(QueueTest, FloorKeepsHalfAndRejectsJustBelow) {
  testing::TempDir t;
  Paths p = Paths::InStore(t.path());
  Settings s;
  EXPECT_EQ(Enqueue(p, Make("W1", 0.5), s)->outcome, Outcome::kQueued);
  EXPECT_EQ(Enqueue(p, Make("W1", 0.499), s)->outcome, Outcome::kBelowFloor);
  EXPECT_EQ(CountWaveLines(t.Read("proposals.jsonl"), "W1"), 1);
  EXPECT_EQ(ParseSummary(t.Read("proposals-summary-W1.json"))->below_floor, 1);
}

TEST(QueueTest, LockTimeoutCountsFsError) {
  testing::TempDir t;
  Paths p = Paths::InStore(t.path());
  t.Write("proposals-write.lock", R"({"pid":1,"host":"elsewhere.invalid","acquiredAt":""})");
  auto r = Enqueue(p, Make("W1", 0.9), Settings{}, std::chrono::milliseconds(50));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kBusy);
  EXPECT_EQ(ParseSummary(t.Read("proposals-summary-W1.json"))->fs_error, 1);
  EXPECT_FALSE(std::filesystem::exists(t / "proposals.jsonl"));
}

TEST(CollectTest, FifoStatsAndMinConfidence) {
  testing::TempDir t;
  Paths p = Paths::InStore(t.path());
  Json late = Make("W1", 0.9, 5000), early = Make("W2", 0.4, 1000), none = Make("W1", 0.6, 3000);
  none.erase("confidence");
  t.Write("proposals.jsonl", json::DumpJs(late) + "\n\n" + "oops\n" + json::DumpJs(early) + "\n" +
                                 json::DumpJs(none) + "\n");
  t.Write("proposals-summary-W1.json", RenderSummary({2, 1, 3, 0}));
  t.Write("proposals-summary-W2.json", RenderSummary({1, 0, 0, 4}));
  auto c = Collect(p, std::nullopt);
  ASSERT_TRUE(c);
  ASSERT_EQ(c->order.size(), 3u);
  EXPECT_EQ(c->scan.records[c->order[0]].id, early["id"].get<std::string>());
  EXPECT_EQ(c->scan.records[c->order[2]].id, late["id"].get<std::string>());
  Json j = ToJson(*c);
  EXPECT_EQ(json::DumpJs(j["stats"]),
            R"({"queued":3,"dropped":1,"below_floor":3,"fs_error":4,"parse_errors":1})");
  EXPECT_EQ(j["perWaveSummaries"]["W2"]["fs_error"], 4);
  auto filtered = Collect(p, 0.5);
  ASSERT_EQ(filtered->order.size(), 2u);  // 0.4 left out; the one without confidence kept
  EXPECT_TRUE(Collect(Paths::InStore(t / "missing"), std::nullopt)->order.empty());
}

}  // namespace
}  // namespace lore::proposals
