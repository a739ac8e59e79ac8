#include "lore/search/expansion.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "lore/index/tokenizer.h"

namespace lore::search {
namespace {

bool Holds(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

std::string S(const char* w) { return index::Stem(w, index::Stemming::kSnowballEnglish); }

#ifdef LORE_WORDNET_DATA
TEST(SynonymTable, TheBuildWithWordNetDataHasIt) { EXPECT_TRUE(HasSynonymTable()); }
#endif

TEST(SynonymTable, FindsWordNetSynonymsAndHypernymsByStem) {
  if (!HasSynonymTable()) GTEST_SKIP() << "built without WordNet data (Debian wordnet-base)";
  Related relax = LookUpRelated(S("relax"));
  EXPECT_TRUE(Holds(relax.synonyms, S("unwind"))) << relax.synonyms.size();
  Related car = LookUpRelated(S("car"));
  EXPECT_TRUE(Holds(car.synonyms, S("automobile")));
  EXPECT_TRUE(Holds(car.hypernyms, S("vehicle")));  // the head of "motor_vehicle"
  EXPECT_TRUE(Holds(LookUpRelated(S("puppy")).hypernyms, S("dog")));
  EXPECT_TRUE(Holds(LookUpRelated(S("sport")).hyponyms, S("hockey")));
  EXPECT_TRUE(LookUpRelated("zzzznotaword").synonyms.empty());
  EXPECT_TRUE(LookUpRelated("").synonyms.empty());
  // The first and the last lines of the table are found too.
  EXPECT_TRUE(LookUpRelated("aaaaa").hypernyms.empty());
}

TEST(SynonymTable, StagesSwitchedByList) {
  RankingParams p;
  ASSERT_TRUE(SetExpansionStages("none", &p));
  EXPECT_FALSE(p.compounds || p.synonyms || p.hypernyms || p.feedback || p.cooc);
  ASSERT_TRUE(SetExpansionStages("all", &p));
  EXPECT_TRUE(p.compounds && p.synonyms && p.hypernyms && p.hyponyms && p.feedback && p.cooc);
  ASSERT_TRUE(SetExpansionStages("synonyms,feedback", &p));
  EXPECT_TRUE(!p.compounds && p.synonyms && !p.hypernyms && p.feedback && !p.cooc);
  ASSERT_TRUE(SetExpansionStages("compounds,cooc", &p));
  EXPECT_TRUE(p.compounds && !p.synonyms && !p.feedback && p.cooc);
  EXPECT_FALSE(RankingParams{}.cooc);  // off by default
  auto bad = SetExpansionStages("compounds,telepathy", &p);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().what.find("telepathy"), std::string::npos);
  EXPECT_EQ(StageName(ExpansionStage::kHypernym), "hypernym");
  EXPECT_EQ(StageName(ExpansionStage::kCooc), "cooc");
}

}  // namespace
}  // namespace lore::search
