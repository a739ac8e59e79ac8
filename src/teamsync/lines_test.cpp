#include "teamsync/lines.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::teamsync {
namespace {

TEST(TeamLines, OnlyCompleteLinesAreTakenWithTheirOffsets) {
  std::vector<LineAt> lines;
  EXPECT_EQ(SplitComplete("a\nbb\n\nc", 10, &lines), 16);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].offset, 10);
  EXPECT_EQ(lines[0].text, "a");
  EXPECT_EQ(lines[1].offset, 12);
  EXPECT_EQ(lines[1].text, "bb");
  EXPECT_EQ(lines[2].offset, 15);
  EXPECT_EQ(lines[2].text, "");
  lines.clear();
  EXPECT_EQ(SplitComplete("cut off", 7, &lines), 7);
  EXPECT_TRUE(lines.empty());
  EXPECT_EQ(SplitComplete("", 0, &lines), 0);
}

TEST(TeamLines, ARewriteIsNoticedByTheSizeOrTheBytesBeforeTheCursor) {
  LogCursor c{0, 6, Hex("{}\n{}\n")};
  EXPECT_FALSE(Rewritten(c, 6, "{}\n{}\n"));
  EXPECT_FALSE(Rewritten(c, 100, "{}\n{}\n"));
  EXPECT_TRUE(Rewritten(c, 5, ""));
  EXPECT_TRUE(Rewritten(c, 100, "{}\n[]\n"));
  EXPECT_FALSE(Rewritten(LogCursor{}, 0, ""));
  EXPECT_FALSE(Rewritten(LogCursor{}, 42, ""));
}

TEST(TeamLines, CopyFieldsAreByteaHexEscapedForCopyText) {
  std::string out;
  AppendCopyBytea(std::string("{\"a\":\"\t\\\"}\0", 11), &out);
  EXPECT_EQ(out, "\\\\x7b2261223a22095c227d00");  // tabs, backslashes, NUL: all hex
  out.clear();
  AppendCopyBytea("", &out);
  EXPECT_EQ(out, "\\\\x");
}

TEST(TeamLines, StatesRoundTripAndABrokenOneSaysHowToRepair) {
  testing::TempDir t;
  PushState push{{"raw.jsonl", LogCursor{2, 123, "0a"}}, {"events.jsonl", LogCursor{0, 9, ""}}};
  ASSERT_TRUE(SavePushState(t / "team/push-state.json", push));
  auto p = LoadPushState(t / "team/push-state.json");
  ASSERT_TRUE(p) << p.error().Format();
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ(p->at("raw.jsonl").gen, 2);
  EXPECT_EQ(p->at("raw.jsonl").offset, 123);
  EXPECT_EQ(p->at("raw.jsonl").tail_hex, "0a");
  PullState pull{{"m1", {{"raw.jsonl", 0}, {"learnings.jsonl", 3}}}};
  ASSERT_TRUE(SavePullState(t / "team/pull-state.json", pull));
  auto q = LoadPullState(t / "team/pull-state.json");
  ASSERT_TRUE(q);
  EXPECT_EQ(*q, pull);
  EXPECT_TRUE(LoadPushState(t / "missing.json")->empty());
  t.Write("bad.json", R"({"raw.jsonl": {"gen": 0}})");
  auto bad = LoadPushState(t / "bad.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().Format().find("inserts nothing twice"), std::string::npos);
  t.Write("bad2.json", R"({"../x": {"raw.jsonl": 0}})");
  EXPECT_FALSE(LoadPullState(t / "bad2.json"));
}

}  // namespace
}  // namespace lore::teamsync
