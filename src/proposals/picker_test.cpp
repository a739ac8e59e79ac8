#include "lore/proposals/picker.h"

#include <gtest/gtest.h>

namespace lore::proposals {
namespace {

std::vector<Json> Items(int n) {
  std::vector<Json> v;
  for (int i = 0; i < n; ++i) {
    Json r = Json::object();
    r["type"] = "convention";
    r["subject"] = "item " + std::to_string(i);
    r["confidence"] = 0.5;
    r["evidence"] = "ev";
    v.push_back(r);
  }
  return v;
}

void Type(ReviewSession* s, KeyDecoder* d, std::string_view bytes, text::TimePoint t = {}) {
  for (const auto& k : d->Feed(bytes)) s->Feed(k, t);
}

TEST(KeyDecoderTest, ArrowsEvenWhenSplit) {
  KeyDecoder d;
  auto keys = d.Feed("\x1b[");
  EXPECT_TRUE(keys.empty());
  keys = d.Feed("Bj\x1bOA1\r");
  ASSERT_EQ(keys.size(), 5u);
  EXPECT_EQ(keys[0].kind, KeyKind::kDown);
  EXPECT_EQ(keys[1].kind, KeyKind::kDown);
  EXPECT_EQ(keys[2].kind, KeyKind::kUp);
  EXPECT_EQ(keys[3].kind, KeyKind::kDigit);
  EXPECT_EQ(keys[3].digit, 1);
  EXPECT_EQ(keys[4].kind, KeyKind::kEnter);
  EXPECT_EQ(d.Feed("\x03")[0].kind, KeyKind::kQuit);
}

TEST(ReviewSessionTest, TwoBatchesWithNumbersArrowsAndApproveAll) {
  ReviewSession s(Items(6));
  KeyDecoder d;
  EXPECT_EQ(s.batches(), 2u);
  EXPECT_NE(s.Render().find("Batch 1 of 2 \u2014 which learnings"), std::string::npos);
  // Batch 1: toggle 1 and 3 by number (the cursor follows), 4 by arrow and
  // space, then 3 off again by arrow and x; wrapping around works too.
  Type(&s, &d, "13\x1b[B \x1b[Ax\x1b[B\x1b[B\x1b[A\x1b[A");
  EXPECT_TRUE(s.selected(0));
  EXPECT_FALSE(s.selected(1));
  EXPECT_TRUE(s.selected(3));
  EXPECT_FALSE(s.selected(2)) << s.Render();
  const text::TimePoint t1(std::chrono::seconds(100)), t2(std::chrono::seconds(200));
  Type(&s, &d, "\r", t1);
  EXPECT_EQ(s.batch(), 1u);
  EXPECT_NE(s.Render().find("Batch 2 of 2"), std::string::npos);
  EXPECT_NE(s.Render().find("> [ ] 1. convention, confidence 0.50\n         item 4\n"),
            std::string::npos)
      << s.Render();
  Type(&s, &d, "a", t2);
  ASSERT_EQ(s.state(), ReviewSession::State::kDone);
  const auto& dec = s.decisions();
  std::vector<Verdict> v;
  for (const auto& x : dec) v.push_back(x.verdict);
  EXPECT_EQ(v, (std::vector<Verdict>{Verdict::kApprove, Verdict::kDecline, Verdict::kDecline,
                                     Verdict::kApprove, Verdict::kApprove, Verdict::kApprove}));
  EXPECT_EQ(dec[1].at, t1);  // one time per batch
  EXPECT_EQ(dec[3].at, t1);
  EXPECT_EQ(dec[4].at, t2);
}

// Issue 38, finding 5: the interactive review draws the fields of each
// proposal without their escape codes (the screen's own are lore's).
TEST(ReviewSessionTest, ScreensCarryNoEscapeOfAProposal) {
  std::vector<Json> items = Items(1);
  items[0]["subject"] =
      "a\x1b]0;owned\x07"
      "b\x1b[2J";
  items[0]["evidence"] = "\x1b[8mhidden";
  const std::string screen = ReviewSession(items).Render();
  EXPECT_EQ(screen.find('\x1b'), std::string::npos) << screen;
  EXPECT_NE(screen.find("1. convention, confidence 0.50\n"), std::string::npos) << screen;
  EXPECT_NE(screen.find("         ab\n"), std::string::npos) << screen;
  EXPECT_NE(screen.find("evidence: hidden\n"), std::string::npos) << screen;
}

TEST(ReviewSessionTest, QuitDecidesNothing) {
  ReviewSession s(Items(5));
  KeyDecoder d;
  Type(&s, &d, "12\rq");
  EXPECT_EQ(s.state(), ReviewSession::State::kQuit);
  Type(&s, &d, "a");
  EXPECT_EQ(s.state(), ReviewSession::State::kQuit);
}

TEST(ReviewSessionTest, DeclineBatchAndRest) {
  ReviewSession s(Items(9));
  KeyDecoder d;
  Type(&s, &d, "d");
  EXPECT_EQ(s.batch(), 1u);
  Type(&s, &d, "A");
  ASSERT_EQ(s.state(), ReviewSession::State::kDone);
  EXPECT_EQ(s.decisions()[0].verdict, Verdict::kDecline);
  EXPECT_EQ(s.decisions()[8].verdict, Verdict::kApprove);
  ReviewSession one(Items(1));
  EXPECT_NE(one.Render().find("Which learnings should be stored permanently?"), std::string::npos);
  Type(&one, &d, "9\r");  // a number past the batch does nothing
  EXPECT_EQ(one.decisions()[0].verdict, Verdict::kDecline);
}

}  // namespace
}  // namespace lore::proposals
