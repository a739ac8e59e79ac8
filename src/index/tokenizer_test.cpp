#include "lore/index/tokenizer.h"

#include <gtest/gtest.h>

namespace lore::index {
namespace {

using V = std::vector<std::string>;

TEST(Tokenizer, WordsSplitOnPunctuationAndLowerCase) {
  EXPECT_EQ(Words("Hello, World! It's DB-2023."), (V{"hello", "world", "it", "s", "db", "2023"}));
  EXPECT_EQ(Words("café—Über “quoted” 🎉emoji"), (V{"café", "über", "quoted", "emoji"}));
  EXPECT_EQ(Words(""), V{});
  EXPECT_EQ(Words("\"()*:^-+ NEAR/3 {}"), (V{"near", "3"}));
}

TEST(Tokenizer, StopWordsAndSingleLettersDropped) {
  EXPECT_TRUE(IsStopWord("the"));
  EXPECT_TRUE(IsStopWord("when"));
  EXPECT_TRUE(IsStopWord("x"));
  EXPECT_FALSE(IsStopWord("database"));
  EXPECT_FALSE(IsStopWord("7"));
  EXPECT_EQ(Tokenize("What is the status of the migration?", Stemming::kOff),
            (V{"status", "migration"}));
}

TEST(Tokenizer, HyphenatedWordsAlsoJoined) {
  std::vector<std::string> written;
  EXPECT_EQ(Compounds("Time to De-stress, my mother-in-law said", &written),
            (V{"destress", "motherinlaw"}));
  EXPECT_EQ(written, (V{"De-stress", "mother-in-law"}));
  EXPECT_EQ(Compounds("covid-19 on 2023-05-08, a -b c- d--e x-"), V{});
  EXPECT_EQ(Compounds("e-mail"), V{"email"});
  EXPECT_EQ(Tokenize("self-care", Stemming::kOff), (V{"self", "care", "selfcare"}));
  EXPECT_EQ(Tokenize("destress", Stemming::kOff), V{"destress"});
}

TEST(Tokenizer, SnowballStems) {
  EXPECT_EQ(Stem("running", Stemming::kSnowballEnglish), "run");
  EXPECT_EQ(Stem("migrations", Stemming::kSnowballEnglish), "migrat");
  EXPECT_EQ(Stem("running", Stemming::kOff), "running");
  EXPECT_EQ(TokenString("Painted paintings, painting!", Stemming::kSnowballEnglish),
            "paint paint paint");
}

// ForEachToken gives what the definition says (Words less stop words,
// stemmed, then Compounds stemmed), in order; the stems come from a cache
// that must never change an answer, also after it is emptied when full.
TEST(Tokenizer, EachTokenInOrderAndTheStemCacheNeverChangesAStem) {
  const std::vector<std::string> texts = {
      "Painted paintings, painting! The self-care of De-stress and won't-stop café",
      "I bought what she thought; they went running", "", "— — …",
      "cache key ignores the locale: cache-key ≠ cachekey 2023-05-08"};
  for (Stemming st : {Stemming::kOff, Stemming::kSnowballEnglish, Stemming::kEnglish}) {
    for (const auto& text : texts) {
      V want;
      for (const auto& w : Words(text)) {
        if (!IsStopWord(w)) want.push_back(Stem(w, st));
      }
      for (const auto& w : Compounds(text)) want.push_back(Stem(w, st));
      V got;
      ForEachToken(text, st, [&](const std::string& t) { got.push_back(t); });
      EXPECT_EQ(got, want) << text;
      EXPECT_EQ(Tokenize(text, st), want) << text;
    }
  }
  // More distinct words than the cache keeps: it is emptied and refilled, and
  // every stem is still the stemmer's.
  for (int i = 0; i < 70000; ++i) Stem("word" + std::to_string(i) + "ings", Stemming::kEnglish);
  EXPECT_EQ(Stem("running", Stemming::kSnowballEnglish), "run");
  EXPECT_EQ(Stem("running", Stemming::kEnglish), "run");
  EXPECT_EQ(Stem("migrations", Stemming::kSnowballEnglish), "migrat");
  EXPECT_EQ(Stem("word69999ings", Stemming::kEnglish), Stem("word69999ing", Stemming::kEnglish));
}

#ifdef LORE_WORDNET_DATA
TEST(Tokenizer, TheBuildWithWordNetDataHasTheIrregularTable) {
  EXPECT_FALSE(IrregularVerb("bought").empty());
}
#endif

TEST(Tokenizer, IrregularVerbFormsReadAsTheirVerb) {
  if (IrregularVerb("bought").empty()) GTEST_SKIP() << "built without WordNet data";
  EXPECT_EQ(IrregularVerb("bought"), "buy");
  EXPECT_EQ(IrregularVerb("went"), "go");
  EXPECT_EQ(IrregularVerb("thought"), "think");
  EXPECT_EQ(IrregularVerb("won"), "win");
  // Forms the stemmer reaches, forms more often a noun or an adjective, other words.
  EXPECT_EQ(IrregularVerb("running"), "");
  EXPECT_EQ(IrregularVerb("bit"), "");
  EXPECT_EQ(IrregularVerb("bound"), "");
  EXPECT_EQ(IrregularVerb("stove"), "");
  EXPECT_EQ(IrregularVerb("ground"), "");
  EXPECT_EQ(IrregularVerb("buy"), "");
  EXPECT_EQ(IrregularVerb(""), "");
  EXPECT_EQ(IrregularVerb("zzzz"), "");
  EXPECT_EQ(Stem("bought", Stemming::kEnglish), Stem("buy", Stemming::kEnglish));
  EXPECT_EQ(Stem("bought", Stemming::kEnglish), "buy");
  EXPECT_EQ(Stem("bought", Stemming::kSnowballEnglish), "bought");
  EXPECT_EQ(Stem("bought", Stemming::kOff), "bought");
  EXPECT_EQ(TokenString("We went and bought bits of red paint", Stemming::kEnglish),
            "go buy bit red paint");
}

TEST(Tokenizer, WonIsAWordAndWontAStopWord) {
  EXPECT_EQ(Words("I won't, he WON'T, she won\u2019t"),
            (V{"i", "wont", "t", "he", "wont", "t", "she", "wont", "t"}));
  EXPECT_EQ(Words("won'tx won"), (V{"won", "tx", "won"}));
  EXPECT_EQ(TokenString("I won't go", Stemming::kOff), "go");
  EXPECT_EQ(TokenString("We won the cup", Stemming::kOff), "won cup");
  if (!IrregularVerb("won").empty()) {
    EXPECT_EQ(TokenString("We won the cup", Stemming::kEnglish), "win cup");
  }
}

TEST(Tokenizer, TokensAreSafeInsideFtsQuotes) {
  for (const auto& t : Tokenize("a\"b'c (d) e:f g*h ^i j+k l-m", Stemming::kSnowballEnglish)) {
    EXPECT_EQ(t.find_first_of("\"' ():*^+-"), std::string::npos) << t;
  }
}

TEST(Tokenizer, AsksWhenTheLastSentenceIsAQuestion) {
  EXPECT_TRUE(Asks("That's great! What did you do?"));
  EXPECT_TRUE(Asks("Is version 3.5 out? "));
  EXPECT_TRUE(Asks("Ben\nWhere to?\na photo of a map"));  // a caption with no mark after it
  EXPECT_TRUE(Asks("Really\xEF\xBC\x9F"));                // full-width question mark
  EXPECT_FALSE(Asks("What? No, I stayed home."));
  EXPECT_FALSE(Asks("Why did it fail? It ran out of memory!"));
  EXPECT_FALSE(Asks("Why\xE2\x80\xA6"));  // an ellipsis ends it
  EXPECT_FALSE(Asks("no mark at all"));
  EXPECT_FALSE(Asks(""));
}

TEST(Tokenizer, TimeExpressions) {
  EXPECT_EQ(TimeExpressions("We went camping yesterday"), 1);
  EXPECT_EQ(TimeExpressions("Last week, on Friday 12 May 2023"),
            4);  // last week, friday, may, 2023
  EXPECT_EQ(TimeExpressions("We went camping with friends"), 0);
  EXPECT_EQ(TimeExpressions("next to the last page"), 0);
}

}  // namespace
}  // namespace lore::index
