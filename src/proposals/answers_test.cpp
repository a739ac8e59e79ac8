#include "lore/proposals/answers.h"

#include <gtest/gtest.h>

#include "lore/proposals/batches.h"
#include "lore/proposals/collect.h"
#include "support/proposal_line.h"

namespace lore::proposals {
namespace {

using lore::testing::ProposalLine;

ReviewSet AnswerSet(const std::string& bytes) {
  ReviewSet set;
  set.scan = ScanQueue(bytes);
  set.pending = FifoOrder(set.scan);
  return set;
}

Result<Answered> Read(const ReviewSet& set, const std::string& body) {
  return ReadAnswers("{\"queue\":\"" + QueueFingerprint(set, set.pending) + "\"," + body + "}", set,
                     {});
}

TEST(AnswersTest, JoinedLabelsHoldingCommasAreReadWhole) {
  ReviewSet set =
      AnswerSet(ProposalLine(1, "a, b, c") + ProposalLine(2, "a") + ProposalLine(3, "x,y"));
  const auto batches = AgentBatches(set, set.pending);
  const auto& o = batches[0].options;
  // Claude Code joins the picked labels with ", "; extra spaces do not matter.
  auto r =
      Read(set, "\"" + batches[0].question + "\":\"" + o[0].label + ",   " + o[2].label + "\"");
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->decisions[0].verdict, Verdict::kApprove);
  EXPECT_EQ(r->decisions[1].verdict, Verdict::kDecline);
  EXPECT_EQ(r->decisions[2].verdict, Verdict::kApprove);
  EXPECT_EQ(r->decisions[1].reason, "user-declined");
}

TEST(AnswersTest, NestedAnswersMapAndIds) {
  ReviewSet set = AnswerSet(ProposalLine(1, "one") + ProposalLine(2, "two"));
  auto r = Read(
      set,
      R"("answers":{"Which learnings should be stored permanently? Unselected ones are archived as declined.":["00000002-2222"]})");
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->decisions[0].verdict, Verdict::kDecline);
  EXPECT_EQ(r->decisions[1].verdict, Verdict::kApprove);
}

TEST(AnswersTest, UnmatchedPicksAreNamed) {
  ReviewSet set = AnswerSet(ProposalLine(1, "one") + ProposalLine(2, "two"));
  auto r = Read(set, R"("batches":[{"batch":1,"picked":"Other: keep both, 0000"}])");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find(R"(batch 1: "Other: keep both" matches no option of this batch)"),
            std::string::npos)
      << r.error().what;
  EXPECT_NE(r.error().what.find(R"(batch 1: "0000" matches no option)"), std::string::npos);
  auto q = Read(set, R"("What?":"x")");
  ASSERT_FALSE(q);
  EXPECT_NE(q.error().what.find(R"(the question "What?" is none of the 1 batches)"),
            std::string::npos)
      << q.error().what;
}

TEST(AnswersTest, KeepNoneWithTheProposalIsAContradiction) {
  ReviewSet set = AnswerSet(ProposalLine(1, "one"));
  const auto b = AgentBatches(set, set.pending);
  ASSERT_EQ(b[0].options.size(), 2u);
  auto r = Read(
      set, R"("batches":[{"batch":1,"picked":[")" + b[0].options[0].label + R"(","Keep none"]}])");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("picked together"), std::string::npos);
}

TEST(AnswersTest, SqueezeSpaces) {
  EXPECT_EQ(SqueezeSpaces("  a   b\t c "), "a b c");
  EXPECT_EQ(SqueezeSpaces(""), "");
}

}  // namespace
}  // namespace lore::proposals
