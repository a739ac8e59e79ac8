#include "search/query.h"

#include <gtest/gtest.h>

namespace lore::search {
namespace {

using index::Stemming;
using V = std::vector<std::string>;

TEST(Query, AnyTextIsAQuery) {
  EXPECT_EQ(ParseQuery("!!! ??? ... ()", Stemming::kSnowballEnglish).tokens, V{});
  EXPECT_EQ(ParseQuery("\"unbalanced \"quotes' AND OR NOT", Stemming::kOff).tokens,
            (V{"unbalanced", "quotes"}));
  EXPECT_EQ(ParseQuery("Paint painted PAINTING", Stemming::kSnowballEnglish).tokens, V{"paint"});
}

TEST(Query, AsksWhen) {
  EXPECT_TRUE(ParseQuery("When did Ana move?", Stemming::kOff).asks_when);
  EXPECT_TRUE(ParseQuery("In what year was it built", Stemming::kOff).asks_when);
  EXPECT_TRUE(ParseQuery("how long ago was the outage", Stemming::kOff).asks_when);
  EXPECT_FALSE(ParseQuery("What did Ana build?", Stemming::kOff).asks_when);
  // "when" joining two clauses asks no time.
  EXPECT_FALSE(
      ParseQuery("Why did 0.6.0 break on node 20 when it worked on my machine?", Stemming::kOff)
          .asks_when);
  EXPECT_FALSE(ParseQuery("How did Nate feel when someone wrote him", Stemming::kOff).asks_when);
  EXPECT_TRUE(ParseQuery("who fixed the cache, and when?", Stemming::kOff).asks_when);
  EXPECT_TRUE(ParseQuery("the deploy broke since when", Stemming::kOff).asks_when);
}

TEST(Query, FindsDates) {
  auto d = FindDate(index::Words("What did Tim say on 16 November, 2023?"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->year, 2023);
  EXPECT_EQ(d->month, 11);
  EXPECT_EQ(d->day, 16);
  d = FindDate(index::Words("the book he read on December 8th"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->month, 12);
  EXPECT_EQ(d->day, 8);
  EXPECT_EQ(d->year, 0);
  d = FindDate(index::Words("anything in 2021?"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->year, 2021);
  EXPECT_EQ(d->month, 0);
  EXPECT_FALSE(FindDate(index::Words("you may go now")));
  EXPECT_TRUE(FindDate(index::Words("on 3 May")));
}

TEST(Query, DateMatchesWithADayEitherSide) {
  const int64_t may8 = 1683504000;  // 2023-05-08T00:00:00Z
  EXPECT_TRUE(DateMatches(DateSpec{2023, 5, 8}, may8 + 13 * 3600));
  EXPECT_TRUE(DateMatches(DateSpec{2023, 5, 9}, may8));
  EXPECT_FALSE(DateMatches(DateSpec{2023, 5, 10}, may8));
  EXPECT_TRUE(DateMatches(DateSpec{0, 5, 0}, may8));
  EXPECT_FALSE(DateMatches(DateSpec{2022, 0, 0}, may8));
}

TEST(Query, HowLongAndHowManyYearsAskWhen) {
  EXPECT_TRUE(AsksWhen(index::Words("How long has Ana had her cat?")));
  EXPECT_TRUE(AsksWhen(index::Words("how many years did it take")));
  EXPECT_FALSE(AsksWhen(index::Words("how many cats does Ana have")));
}

TEST(Query, DateSpanCoversWhatDateMatchesAccepts) {
  int64_t from = 0, to = 0;
  ASSERT_TRUE(DateSpan(DateSpec{2023, 5, 8}, &from, &to));
  EXPECT_EQ(from, 1683417600);  // 2023-05-07T00:00:00Z: a day either side
  EXPECT_EQ(to, 1683417600 + 3 * 86400);
  EXPECT_TRUE(DateMatches(DateSpec{2023, 5, 8}, from));
  EXPECT_FALSE(DateMatches(DateSpec{2023, 5, 8}, to));
  ASSERT_TRUE(DateSpan(DateSpec{2022, 12, 0}, &from, &to));
  EXPECT_EQ(to - from, 31 * 86400);
  EXPECT_TRUE(DateMatches(DateSpec{2022, 12, 0}, to - 1));
  EXPECT_FALSE(DateMatches(DateSpec{2022, 12, 0}, to));
  ASSERT_TRUE(DateSpan(DateSpec{2024, 0, 0}, &from, &to));
  EXPECT_EQ(to - from, 366 * 86400);
  EXPECT_FALSE(DateSpan(DateSpec{0, 6, 0}, &from, &to));
}

}  // namespace
}  // namespace lore::search
