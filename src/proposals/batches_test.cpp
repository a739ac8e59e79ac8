#include "lore/proposals/batches.h"

#include <gtest/gtest.h>

#include "lore/proposals/collect.h"

namespace lore::proposals {
namespace {

ReviewSet Set(const std::string& bytes) {
  ReviewSet set;
  set.scan = ScanQueue(bytes);
  set.pending = FifoOrder(set.scan);
  return set;
}

TEST(BatchesTest, EqualLabelsWithoutIdsGetTheirPosition) {
  const std::string line = R"({"type":"convention","subject":"s","evidence":"e","confidence":0.5})";
  ReviewSet set = Set(line + "\n" + line + "\n" + R"({"type":"convention","subject":"t"})" + "\n");
  auto b = AgentBatches(set, set.pending);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_EQ(b[0].options.size(), 3u);
  EXPECT_EQ(b[0].options[0].label,
            "[convent] | s                                        | conf=0.50 (1)");
  EXPECT_EQ(b[0].options[1].label,
            "[convent] | s                                        | conf=0.50 (2)");
  EXPECT_EQ(b[0].options[2].label, "[convent] | t                                        | conf=?");
  EXPECT_EQ(b[0].header, "Memory");
}

TEST(BatchesTest, FingerprintFollowsThePresentedLines) {
  ReviewSet a = Set("{\"id\":\"1\"}\n{\"id\":\"2\"}\n");
  ReviewSet b = Set("{\"id\":\"1\"}\r\n{\"id\":\"2\"}");  // same lines, other endings
  ReviewSet c = Set("{\"id\":\"1\"}\n{\"id\":\"3\"}\n");
  EXPECT_EQ(QueueFingerprint(a, a.pending), QueueFingerprint(b, b.pending));
  EXPECT_NE(QueueFingerprint(a, a.pending), QueueFingerprint(c, c.pending));
  EXPECT_NE(QueueFingerprint(a, a.pending), QueueFingerprint(a, {a.pending[0]}));
  EXPECT_EQ(QueueFingerprint(a, a.pending).size(), 16u);
}

TEST(BatchesTest, NineProposalsGiveThreeBatchesAndALoneOneGetsKeepNone) {
  std::string q;
  for (int i = 0; i < 9; ++i) q += "{\"id\":\"" + std::to_string(i) + "\",\"subject\":\"x\"}\n";
  ReviewSet set = Set(q);
  auto b = AgentBatches(set, set.pending);
  ASSERT_EQ(b.size(), 3u);
  EXPECT_EQ(b[2].header, "Memory 3/3");
  EXPECT_EQ(b[2].ids, std::vector<std::string>{"8"});
  ASSERT_EQ(b[2].options.size(), 2u);
  EXPECT_TRUE(b[2].options[1].filler);
  EXPECT_EQ(b[2].options[1].label, "Keep none");
  Json j = ToJson(b, "f");
  EXPECT_EQ(j[2]["input"]["questions"][0]["options"].size(), 2u);
  EXPECT_EQ(j[0]["queue"], "f");
  EXPECT_EQ(ToJson({}, "f").dump(), "[]");
  std::string many;
  for (int i = 0; i < 401; ++i) many += "{\"id\":\"" + std::to_string(i) + "\"}\n";
  ReviewSet big = Set(many);
  auto hundred = AgentBatches(big, big.pending);
  EXPECT_EQ(hundred[8].header, "Memory 9/101");
  EXPECT_EQ(hundred[99].header, "Mem 100/101");
}

}  // namespace
}  // namespace lore::proposals
