#include "distill/record_fields.h"

#include <gtest/gtest.h>

#include "distill/markdown.h"

namespace lore::distill {
namespace {

Flat Parse(const std::string& text) {
  Flat f;
  EXPECT_TRUE(ParseFlat(text, &f)) << text;
  return f;
}

TEST(ParseFlat, ChecksTheWholeLineAndKeepsOnlyKnownKeys) {
  Flat f;
  EXPECT_FALSE(ParseFlat("[1,2]", &f));
  Flat g;
  EXPECT_FALSE(ParseFlat("\"text\"", &g));
  Flat h;
  EXPECT_FALSE(ParseFlat("{\"a\":1} x", &h));
  Flat i;
  EXPECT_FALSE(ParseFlat("{\"a\":\"\xff\"}", &i));
  Flat j;
  ASSERT_TRUE(ParseFlat(
      R"({"zzz":{"finding":"no"},"finding":"yes","depth":2.50,"files":["a",{"path":"b"},true,3],"x":[[1]]})",
      &j));
  EXPECT_EQ(j.fields.size(), 3u);
  EXPECT_EQ(j.Find("finding")->text, "yes");
  EXPECT_EQ(j.Find("depth")->text, "2.50");
  EXPECT_EQ(StringList(*j.Find("files")), (std::vector<std::string>{"a", "b", "3"}));
  Flat k;
  ASSERT_TRUE(ParseFlat(R"({"kind":"a","kind":"b"})", &k));
  EXPECT_EQ(k.Find("kind")->text, "b");
}

TEST(ReviewFindings, SingleFindingWithItsFields) {
  auto r = Parse(R"({"ticket":"W-1","finding":"cache key\nignores locale","severity":"Major",
                           "files":["a.cc",{"path":"b.cc"}],"lesson":"key on all inputs"})");
  auto f = ReviewFindings(r, 7, "2026-01-02");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].text, "cache key ignores locale");
  EXPECT_EQ(f[0].severity, "major");
  EXPECT_EQ(f[0].ticket, "W-1");
  EXPECT_EQ(f[0].lesson, "key on all inputs");
  EXPECT_EQ(f[0].files, (std::vector<std::string>{"a.cc", "b.cc"}));
  EXPECT_EQ(f[0].line, 7);
  EXPECT_EQ(f[0].date, "2026-01-02");
}

TEST(ReviewFindings, FindingKeysInOrderOfPreference) {
  EXPECT_EQ(ReviewFindings(Parse(R"({"summary":"s","title":"t"})"), 1, "")[0].text, "s");
  EXPECT_EQ(ReviewFindings(Parse(R"({"title":"t","comment":"c"})"), 1, "")[0].text, "t");
  EXPECT_EQ(ReviewFindings(Parse(R"({"finding":"  ","issue":"i"})"), 1, "")[0].text, "i");
  EXPECT_TRUE(ReviewFindings(Parse(R"({"verdict":"approve"})"), 1, "").empty());
}

TEST(ReviewFindings, ListOfFindingsInheritsFromTheRecord) {
  auto r = Parse(R"({"pr":12,"severity":"minor","files":"x.cc",
      "findings":["plain one",{"title":"nested","severity":"critical","file":"y.cc"},{"x":1}]})");
  auto f = ReviewFindings(r, 3, "");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].text, "plain one");
  EXPECT_EQ(f[0].severity, "minor");
  EXPECT_EQ(f[0].files, std::vector<std::string>{"x.cc"});
  EXPECT_EQ(f[0].ticket, "PR #12");
  EXPECT_EQ(f[1].text, "nested");
  EXPECT_EQ(f[1].severity, "critical");
  EXPECT_EQ(f[1].files, std::vector<std::string>{"y.cc"});
}

TEST(SlicingFields, KeepsTheSeedsFieldNames) {
  auto s = SlicingFields(Parse(R"({"ticket_id":"W-3","verbs":["Add"],"traits":["ui"],
      "depth":2,"verdict":"Split","reason":"two\nsteps"})"),
                         5, "2026-01-01");
  EXPECT_EQ(s.ticket, "W-3");
  EXPECT_EQ(s.verdict, "split");
  EXPECT_EQ(s.reason, "two steps");
  EXPECT_EQ(s.depth, "2");
  EXPECT_EQ(s.verbs, std::vector<std::string>{"add"});
  EXPECT_EQ(SlicingFields(Parse("{}"), 1, "").verdict, "(none)");
}

TEST(SeverityRank, OrdersCommonWords) {
  EXPECT_GT(SeverityRank("critical"), SeverityRank("major"));
  EXPECT_EQ(SeverityRank("major"), SeverityRank("high"));
  EXPECT_GT(SeverityRank("major"), SeverityRank("minor"));
  EXPECT_GT(SeverityRank("nit"), SeverityRank("whatever"));
  EXPECT_GT(SeverityRank("whatever"), SeverityRank(""));
}

TEST(Markdown, OneLineCollapsesAndCuts) {
  EXPECT_EQ(OneLine("  a\n\tb  c ", 100), "a b c");
  EXPECT_EQ(OneLine("abcdef", 4), "abc…");
  EXPECT_EQ(OneLine("äöüß", 3), "äö…");
  EXPECT_EQ(OneLine("a\xff"
                    "b",
                    10),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(Cell("a|b", 10), "a\\|b");
}

TEST(Markdown, YamlScalarQuotesWhatNeedsIt) {
  EXPECT_EQ(YamlScalar("Gotchas"), "Gotchas");
  EXPECT_EQ(YamlScalar("github.com_acme memory"), "github.com_acme memory");
  EXPECT_EQ(YamlScalar("a: b"), "\"a: b\"");
  EXPECT_EQ(YamlScalar("yes"), "\"yes\"");
  EXPECT_EQ(YamlScalar("-x"), "\"-x\"");
  EXPECT_EQ(YamlScalar("say \"hi\""), "say \"hi\"");
  EXPECT_EQ(YamlScalar("\"q\""), "\"\\\"q\\\"\"");
  EXPECT_EQ(Frontmatter("T", "2026-01-01", {"a", "b"}),
            "---\ntitle: T\nupdated: 2026-01-01\ntags: [a, b]\n---\n");
}

TEST(Markdown, GroupKeyAndPercent) {
  EXPECT_EQ(GroupKey("Cache key ignores the locale."), GroupKey("cache  key ignores the locale"));
  EXPECT_EQ(Percent(2, 3), "67%");
  EXPECT_EQ(Percent(1, 3), "33%");
  EXPECT_EQ(Percent(1, 0), "0%");
}

}  // namespace
}  // namespace lore::distill
