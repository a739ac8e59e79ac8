#include "lore/log/jsonl.h"

#include <gtest/gtest.h>

namespace lore::log {
namespace {

TEST(LineScanner, SplitsLinesAndMarksMissingNewline) {
  LineScanner s("a\n\nb");
  Line l;
  ASSERT_TRUE(s.Next(&l));
  EXPECT_EQ(l.number, 1);
  EXPECT_EQ(l.text, "a");
  ASSERT_TRUE(s.Next(&l));
  EXPECT_EQ(l.text, "");
  ASSERT_TRUE(s.Next(&l));
  EXPECT_EQ(l.number, 3);
  EXPECT_EQ(l.text, "b");
  EXPECT_FALSE(l.has_newline);
  EXPECT_FALSE(s.Next(&l));
}

TEST(ScanObjects, BlankLinesAreFine) {
  auto r = ScanObjects("{\"a\":1}\n\n   \n{\"b\":2}\n");
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.objects, 2);
  EXPECT_EQ(r.lines, 4);
  EXPECT_TRUE(r.ends_with_newline);
}

TEST(ScanObjects, InvalidUtf8IsNamedWithItsLine) {
  auto r = ScanObjects("{\"a\":1}\n{\"b\":\"\xff\"}\n");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_EQ(r.problems[0].what, "invalid UTF-8");
}

TEST(ScanObjects, NonObjectLines) {
  auto r = ScanObjects("[1,2]\n\"s\"\n42\n{\"ok\":true}\nnot json\n");
  ASSERT_EQ(r.problems.size(), 4u);
  EXPECT_EQ(r.problems[0].line, 1);
  EXPECT_EQ(r.problems[0].what, "a JSON value that is not an object");
  EXPECT_EQ(r.problems[3].line, 5);
  EXPECT_EQ(r.problems[3].what, "not valid JSON: unexpected 'n'");
}

TEST(ScanObjects, TruncatedLastLine) {
  auto r = ScanObjects("{\"a\":1}\n{\"b\":");
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].line, 2);
  EXPECT_NE(r.problems[0].what.find("cut off"), std::string::npos);
  EXPECT_FALSE(r.ends_with_newline);
}

TEST(ScanObjects, CompleteLastLineWithoutNewlineIsValid) {
  auto r = ScanObjects("{\"a\":1}\n{\"b\":2}");
  EXPECT_TRUE(r.problems.empty());
  EXPECT_EQ(r.objects, 2);
  EXPECT_FALSE(r.ends_with_newline);
}

TEST(ScanObjects, StopsCollectingAtTheLimit) {
  auto r = ScanObjects("x\ny\nz\n", 2);
  EXPECT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.lines, 3);
}

}  // namespace
}  // namespace lore::log
