#include "consolidate/bullets.h"

#include <gtest/gtest.h>

namespace lore::consolidate::detail {
namespace {

TEST(BulletBody, AddsSectionsAndLinesKeepingOtherText) {
  BulletBody b("# Summary\n\nProse by a person.\n");
  b.Add("Discussions", "- one");
  b.Add("Attempts", "- tried");
  b.Add("Discussions", "- two");
  EXPECT_EQ(b.Render(),
            "# Summary\n\nProse by a person.\n\n## Discussions\n\n- one\n- two\n\n## Attempts\n\n- "
            "tried\n");
  EXPECT_EQ(b.Find("Discussions", "- tw"), 7);
  EXPECT_TRUE(b.Has("Attempts", "- tried"));
  EXPECT_FALSE(b.Has("Discussions", "- tried"));
  EXPECT_TRUE(b.DropOldest("Discussions"));
  EXPECT_EQ(
      b.Render(),
      "# Summary\n\nProse by a person.\n\n## Discussions\n\n- two\n\n## Attempts\n\n- tried\n");
}

TEST(BulletBody, EmptySectionGetsABlankLineAfterItsHeading) {
  BulletBody b("## Updates\n## Other\n- x\n");
  b.Add("Updates", "- new");
  EXPECT_EQ(b.Render(), "## Updates\n\n- new\n## Other\n- x\n");
  EXPECT_FALSE(BulletBody("text\n").DropOldest("Updates"));
}

TEST(BulletText, OneLineAndCut) {
  EXPECT_EQ(OneLine("  a\r\n b\t c  "), "a b c");
  EXPECT_EQ(Cut("abcdef", 4), "abc…");
  EXPECT_EQ(Cut("日本語です", 5), "日本語です");
  EXPECT_EQ(Cut("日本語です", 3), "日本…");
}

}  // namespace
}  // namespace lore::consolidate::detail
