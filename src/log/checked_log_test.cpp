#include "lore/log/checked_log.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "support/temp_dir.h"

namespace lore::log {
namespace {

class CheckedLogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.Write("raw.jsonl", "");
    paths_ = LogPaths{t_ / "raw.jsonl", t_ / ".check", "fix it"};
  }
  testing::TempDir t_;
  LogPaths paths_;
};

TEST_F(CheckedLogTest, AppendsWholeLinesAndCountsThem) {
  auto a = Append(paths_, "{\"a\":1}");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->line, 1);
  EXPECT_TRUE(a->revalidated);  // first sight of the log
  auto b = Append(paths_, "{\"b\":2}");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->line, 2);
  EXPECT_FALSE(b->revalidated);  // unchanged since lore's own write: not re-read
  EXPECT_EQ(t_.Read("raw.jsonl"), "{\"a\":1}\n{\"b\":2}\n");
}

TEST_F(CheckedLogTest, ForeignChangeIsRevalidatedAndBadLineNamed) {
  ASSERT_TRUE(Append(paths_, "{\"a\":1}"));
  {
    std::ofstream out(paths_.log, std::ios::app);
    out << "{\"b\":2}\nnot json\n";
  }
  auto a = Append(paths_, "{\"c\":3}");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().line, 3);
  EXPECT_EQ(a.error().path, paths_.log);
  EXPECT_EQ(t_.Read("raw.jsonl"), "{\"a\":1}\n{\"b\":2}\nnot json\n");  // nothing written
  EXPECT_FALSE(Validate(paths_));
}

TEST_F(CheckedLogTest, SameSizeEditBehindOurBackIsCaught) {
  ASSERT_TRUE(Append(paths_, "{\"a\":1}"));
  ASSERT_TRUE(Validate(paths_));
  usleep(2000);
  t_.Write("raw.jsonl", "{\"a\":1]\n");  // same size, now invalid
  auto v = Validate(paths_);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().line, 1);
}

TEST_F(CheckedLogTest, DamagedSideFileOnlyCostsARevalidation) {
  ASSERT_TRUE(Append(paths_, "{\"a\":1}"));
  t_.Write(".check", "garbage");
  auto a = Append(paths_, "{\"b\":1}");
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->revalidated);
  EXPECT_EQ(a->line, 2);
}

TEST_F(CheckedLogTest, MissingFinalNewlineIsAddedBeforeTheNewLine) {
  t_.Write("raw.jsonl", "{\"a\":1}");
  auto a = Append(paths_, "{\"b\":2}");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->line, 2);
  EXPECT_EQ(t_.Read("raw.jsonl"), "{\"a\":1}\n{\"b\":2}\n");
}

TEST_F(CheckedLogTest, CheckAllListsEveryBadLine) {
  t_.Write("raw.jsonl", "x\n{\"ok\":1}\n[]\n{\"cut\":");
  auto problems = CheckAll(paths_);
  ASSERT_EQ(problems.size(), 3u);
  EXPECT_EQ(problems[0].line, 1);
  EXPECT_EQ(problems[1].line, 3);
  EXPECT_EQ(problems[2].line, 4);
}

}  // namespace
}  // namespace lore::log
