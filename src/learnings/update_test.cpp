#include "lore/learnings/update.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/learnings/file.h"
#include "support/temp_dir.h"
#include "support/test_points.h"

namespace lore::learnings {
namespace {

text::TimePoint At(const char* iso) { return *text::ParseIso(iso); }

std::string Line(const std::string& id, const std::string& type, const std::string& subject,
                 double conf, const std::string& expires) {
  Json j = Json::object();
  j["id"] = id;
  j["type"] = type;
  j["subject"] = subject;
  j["confidence"] = conf;
  j["occurrences"] = 1;
  j["expires_at"] = expires;
  return json::DumpJs(j) + "\n";
}

Candidate Cand(const std::string& id, const std::string& type, const std::string& subject) {
  Json j = Json::parse(Line(id, type, subject, 0.5, "2026-06-01T00:00:00.000Z"));
  return Candidate{id, j};
}

class LearningsUpdateTest : public ::testing::Test {
 protected:
  std::string Read(const std::string& rel) const { return t_.Read(rel); }
  // The store lock a promotion runs under (its caller's).
  store::StoreLock Locked() const {
    return *store::StoreLock::Acquire(f_.dir, fs::LockMode::kExclusive);
  }
  testing::TempDir t_;
  Files f_ = Files::InStore(t_.path());
  const text::TimePoint now_ = At("2026-03-01T00:00:00Z");
};

TEST_F(LearningsUpdateTest, PromotionAppendsOrConfirmsAndKeepsForeignLines) {
  const std::string foreign = "{\"note\": \"by hand\" }\nnot json at all\n\n";
  t_.Write("learnings.jsonl", Line("L1", "anti-pattern", "Use RAII", 0.7, "2026-05-01T00:00:00Z") +
                                  foreign +
                                  Line("L2", "anti-pattern", "old", 0.7, "2026-01-01T00:00:00Z"));
  PromoteOptions o;
  o.now = now_;
  std::vector<std::string> seen;
  testing::OnTestPoints points([&](std::string_view p) { seen.emplace_back(p); });
  // P1 confirms L1 (same type, subject normalised); P2 is new; P3 confirms P2's
  // new line; P4 has the subject of the expired L2: not live, so appended.
  auto r = Promote(Locked(), f_,
                   {Cand("P1", "anti-pattern", "use  raii."), Cand("P2", "convention", "Tabs"),
                    Cand("P3", "convention", "tabs"), Cand("P4", "anti-pattern", "old")},
                   o);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_TRUE(r->errors.empty());
  EXPECT_EQ(r->appended, 2);
  EXPECT_EQ(r->confirmed, 2);
  EXPECT_EQ(r->confirmed_ids, (std::vector<std::string>{"L1", "P2"}));
  EXPECT_EQ(seen, (std::vector<std::string>{"after-learning-1", "after-learning-2",
                                            "after-learning-3", "after-learning-4"}));
  auto scan = ReadLearnings(f_.learnings);
  ASSERT_TRUE(scan);
  ASSERT_EQ(scan->lines.size(), 7u);
  std::string middle;
  for (int k = 1; k <= 3; ++k) middle += scan->Text(scan->lines[k].span);
  EXPECT_EQ(middle, foreign);
  EXPECT_EQ(scan->lines[0].facts.confidence, 0.85);
  EXPECT_EQ(scan->lines[0].confirmed_by, std::vector<std::string>{"P1"});
  EXPECT_EQ(scan->lines[5].facts.id, "P2");
  EXPECT_EQ(scan->lines[5].confirmed_by, std::vector<std::string>{"P3"});
  EXPECT_EQ(scan->lines[6].facts.id, "P4");
  auto ids = SettledIds(f_.learnings);
  ASSERT_TRUE(ids);
  for (const char* id : {"L1", "L2", "P1", "P2", "P3", "P4"}) EXPECT_TRUE(ids->count(id)) << id;
}

// Issue 25: a learning may come from a queue line another program wrote.
TEST_F(LearningsUpdateTest, PromotedLearningsPassTheRedactor) {
  Candidate c = Cand("P1", "convention", "key AKIAIOSFODNN7EXAMPLE");
  c.learning["ghp_1234567890abcdefghijABCDEFGHIJ123456"] = "<private>x</private>kept";
  PromoteOptions o;
  o.now = now_;
  auto r = Promote(Locked(), f_, {c}, o);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->appended, 1);
  const std::string line = Read("learnings.jsonl");
  EXPECT_NE(line.find("\"subject\":\"key [REDACTED:aws-access-key]\""), std::string::npos) << line;
  EXPECT_NE(line.find("\"[REDACTED:github-token]\":\"kept\""), std::string::npos) << line;
}

TEST_F(LearningsUpdateTest, NoConfirmationOnlyAppends) {
  // A torn last line (a writer killed inside its append) is moved into
  // quarantine/ first, never deleted.
  t_.Write("learnings.jsonl", "{\"cut\":");
  PromoteOptions o;
  o.now = now_;
  auto r = Promote(Locked(), f_, {Cand("P1", "anti-pattern", "a")}, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->appended, 1);
  EXPECT_EQ(Read("learnings.jsonl"),
            Line("P1", "anti-pattern", "a", 0.5, "2026-06-01T00:00:00.000Z"));
  EXPECT_EQ(Read("quarantine/learnings.jsonl.torn-at-0"), "{\"cut\":");
}

TEST_F(LearningsUpdateTest, ContradictByIdOrPrefix) {
  t_.Write("learnings.jsonl", Line("abcdef-1", "convention", "x", 0.5, "2026-06-01T00:00:00Z") +
                                  "junk\n" +
                                  Line("abcdxy-2", "convention", "y", 0.1, "2026-06-01T00:00:00Z"));
  auto r = Contradict(f_, "abcdef-1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->before, 0.5);
  EXPECT_EQ(r->after, 0.3);
  r = Contradict(f_, "abcdx");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->id, "abcdxy-2");
  EXPECT_EQ(r->after, 0);
  EXPECT_EQ(Contradict(f_, "abc").error().code, ErrorCode::kNotFound);  // too short a prefix
  EXPECT_EQ(Contradict(f_, "abcd").error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(Contradict(f_, "nope").error().code, ErrorCode::kNotFound);
  EXPECT_EQ(Read("learnings.jsonl"),
            Line("abcdef-1", "convention", "x", 0.3, "2026-06-01T00:00:00Z") + "junk\n" +
                Line("abcdxy-2", "convention", "y", 0, "2026-06-01T00:00:00Z"));
}

TEST_F(LearningsUpdateTest, PruneArchivesThenRemovesExpiredAndZeroConfidence) {
  const std::string live = Line("A", "convention", "a", 0.5, "2026-06-01T00:00:00Z");
  const std::string expired = Line("B", "convention", "b", 0.5, "2026-02-01T00:00:00Z");
  const std::string zero = Line("C", "convention", "c", 0, "2026-06-01T00:00:00Z");
  t_.Write("learnings.jsonl", live + expired + "junk\n" + zero);
  PruneOptions o;
  o.now = now_;
  auto r = Prune(f_, o);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->pruned, 2);
  EXPECT_EQ(r->kept, 2);
  EXPECT_EQ(r->pruned_ids, (std::vector<std::string>{"B", "C"}));
  EXPECT_EQ(Read("learnings.jsonl"), live + "junk\n");
  EXPECT_EQ(Read("learnings-archive.jsonl"), expired + zero);
  EXPECT_FALSE(std::filesystem::exists(f_.marker));
  r = Prune(f_, o);  // nothing more
  ASSERT_TRUE(r);
  EXPECT_EQ(r->pruned, 0);
  EXPECT_EQ(Read("learnings-archive.jsonl"), expired + zero);
}

// A prune that died between its archive append and its rewrite: the next
// change (a prune, or a confirmation's rewrite) removes those lines without
// archiving them again.
TEST_F(LearningsUpdateTest, InterruptedPruneIsFinishedByTheNextChange) {
  const std::string live = Line("A", "convention", "a", 0.5, "2026-06-01T00:00:00Z");
  const std::string expired = Line("B", "convention", "b", 0.5, "2026-02-01T00:00:00Z");
  for (int variant = 0; variant < 2; ++variant) {
    std::filesystem::remove(f_.archive);
    t_.Write("learnings.jsonl", live + expired);
    std::string crashed_marker;
    PruneOptions o;
    o.now = now_;
    // Keep the file as it was then (its inode: the marker names it) and the marker.
    {
      testing::OnTestPoints points([&](std::string_view p) {
        if (p != testing::kLearningsPruneAfterArchive) return;
        crashed_marker = *fs::ReadFile(f_.marker, fs::Kind::kState);
        ASSERT_EQ(::link(f_.learnings.c_str(), (t_ / "kept").c_str()), 0);
      });
      ASSERT_TRUE(Prune(f_, o));
    }
    // Put back the state the crash would have left.
    std::filesystem::rename(t_ / "kept", f_.learnings);
    t_.Write(".learnings-archive.pending", crashed_marker);
    ASSERT_EQ(Read("learnings.jsonl"), live + expired);
    if (variant == 0) {
      auto again = Prune(f_, o);
      ASSERT_TRUE(again);
      EXPECT_EQ(again->pruned, 0);  // already archived: only removed
    } else {
      PromoteOptions po;
      po.now = now_;
      ASSERT_TRUE(
          Promote(Locked(), f_, {Cand("P", "convention", "A")}, po));  // confirms A: a rewrite
    }
    EXPECT_EQ(Read("learnings-archive.jsonl"), expired) << variant;
    EXPECT_EQ(Read("learnings.jsonl").find("\"B\""), std::string::npos) << variant;
    EXPECT_FALSE(std::filesystem::exists(f_.marker));
  }
}

}  // namespace
}  // namespace lore::learnings
