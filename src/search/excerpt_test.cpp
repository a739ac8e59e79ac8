#include "search/excerpt.h"

#include <gtest/gtest.h>

namespace lore::search {
namespace {

TEST(Excerpt, BestLineWithThreeEitherSide) {
  std::string text = "l1\nl2\nl3\nl4\nl5 sqlite\nl6\nl7\nl8\nl9\nl10 sqlite database\nl11\n";
  Excerpt e =
      MakeExcerpt(text, 1, {{"sqlite", 1.0}, {"databas", 2.0}}, index::Stemming::kSnowballEnglish);
  EXPECT_EQ(e.line, 10);
  EXPECT_EQ(e.text, "l7\nl8\nl9\nl10 sqlite database\nl11");
}

TEST(Excerpt, EarlierLineWinsTiesAndLinesAreFileLines) {
  Excerpt e = MakeExcerpt("a cat\nb cat\n", 40, {{"cat", 1.0}}, index::Stemming::kOff);
  EXPECT_EQ(e.line, 40);
  EXPECT_EQ(e.text, "a cat\nb cat");
}

TEST(Excerpt, NoMatchShowsTheBodyStart) {
  Excerpt e =
      MakeExcerpt("---\nkind: x\n---\n\nbody line\n", 1, {{"zzz", 1.0}}, index::Stemming::kOff);
  EXPECT_EQ(e.line, 5);
  EXPECT_EQ(e.text, "body line");  // never the frontmatter
}

TEST(Excerpt, AFrontmatterMatchShowsTheBodyInstead) {
  Excerpt e =
      MakeExcerpt("---\ntitle: cache keys\nstatus: open\n---\n# Keys\n\nthe cache is keyed\n", 1,
                  {{"cache", 1.0}}, index::Stemming::kOff);
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.text, "# Keys\n\nthe cache is keyed");
  Excerpt only =
      MakeExcerpt("---\ntitle: cache\n---\n", 1, {{"cache", 1.0}}, index::Stemming::kOff);
  EXPECT_EQ(only.text, "---\ntitle: cache\n---");  // nothing else to show
}

}  // namespace
}  // namespace lore::search
