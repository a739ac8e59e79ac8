#include "recall/snippet.h"

#include <gtest/gtest.h>

#include <string>

namespace lore::recall {
namespace {

constexpr auto kStemming = index::Stemming::kSnowballEnglish;

QueryTerms Terms(std::initializer_list<std::pair<const char*, double>> words) {
  QueryTerms q;
  for (const auto& [w, idf] : words) {
    q.idf[index::Stem(w, kStemming)] = idf;
    q.total += idf;
  }
  return q;
}

// `n` words of filler: "w0 w1 …", none of them a query term.
std::string Filler(int from, int n) {
  std::string out;
  for (int i = from; i < from + n; ++i) out += (out.empty() ? "w" : " w") + std::to_string(i);
  return out;
}

TEST(SnippetTest, ALineThatFitsIsShownWhole) {
  const std::string line = "the cache key is the digest of the config";
  EXPECT_EQ(Snippet(line, 200, Terms({{"cache", 2.0}}), kStemming), line);
}

TEST(SnippetTest, EachQueryTermIsBroughtOnceByTheFragments) {
  // Two far-apart terms, each repeated: the first fragment takes the heavier
  // one, the second brings the other instead of another copy of the first.
  const std::string line = Filler(0, 40) + " cache cache " + Filler(40, 80) + " journal " +
                           Filler(120, 80) + " cache " + Filler(200, 40);
  const std::string s = Snippet(line, 200, Terms({{"cache", 3.0}, {"journal", 1.0}}), kStemming);
  EXPECT_LE(s.size(), 200u + 8);  // the " …" marks
  EXPECT_NE(s.find("cache"), std::string::npos) << s;
  EXPECT_NE(s.find("journal"), std::string::npos) << s;
  EXPECT_NE(s.find(" … "), std::string::npos) << s;
  // In the line's order: the first cache before journal.
  EXPECT_LT(s.find("cache"), s.find("journal")) << s;
}

TEST(SnippetTest, WithoutAQueryTermItsBeginningIsShown) {
  const std::string line = Filler(0, 200);
  const std::string s = Snippet(line, 120, Terms({{"absent", 5.0}}), kStemming);
  EXPECT_EQ(s.rfind("w0 w1 w2", 0), 0u) << s;
  EXPECT_EQ(s.substr(s.size() - 4), " …") << s;
}

TEST(SnippetTest, ManyQueryTermsAreAllWeighed) {
  // More distinct terms than one machine word has bits: each still counts.
  std::string line = Filler(0, 30);
  QueryTerms q;
  for (int i = 0; i < 80; ++i) {
    const std::string w = "term" + std::string(1, static_cast<char>('a' + i % 26)) +
                          std::string(1, static_cast<char>('a' + i / 26));
    line += " " + w;
    q.idf[index::Stem(w, kStemming)] = 1.0;
  }
  line += " " + Filler(30, 300);
  const std::string s = Snippet(line, 150, q, kStemming);
  // The window that holds the most terms: the run of them, not the filler.
  EXPECT_NE(s.find("termaa"), std::string::npos) << s;
  EXPECT_EQ(s.find("w100"), std::string::npos) << s;
}

TEST(SnippetTest, TermsMetLateCountLikeTheFirst) {
  // 70 of the query's terms scattered one per window, then a run of ten more
  // met only after them: the run is the best window, which it is only if a
  // term numbered past 64 (a bit mask's width) is weighed like the first.
  auto word = [](int i) {
    return "qz" + std::string(1, static_cast<char>('a' + i / 26)) +
           std::string(1, static_cast<char>('a' + i % 26));
  };
  std::string line;
  QueryTerms q;
  for (int i = 0; i < 80; ++i) q.idf[index::Stem(word(i), kStemming)] = 1.0;
  for (int i = 0; i < 70; ++i) line += word(i) + " " + Filler(i * 20, 20) + " ";
  for (int i = 70; i < 80; ++i) line += word(i) + " ";
  line += Filler(2000, 40);
  const std::string s = Snippet(line, 150, q, kStemming);
  EXPECT_NE(s.find(word(70) + " " + word(71)), std::string::npos) << s;
  EXPECT_NE(s.find(word(79)), std::string::npos) << s;
}

}  // namespace
}  // namespace lore::recall
