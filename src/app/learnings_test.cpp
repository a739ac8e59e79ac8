#include "lore/app/learnings.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "support/app_store.h"

namespace lore::app {
namespace {

constexpr const char* kLive =
    R"({"id":"L1aa","type":"fragile-file","subject":"cache.cpp","confidence":0.6,)"
    R"("occurrences":1,"expires_at":"2099-01-01T00:00:00Z"})";
constexpr const char* kExpired =
    R"({"id":"L2bb","type":"fragile-file","subject":"old.cpp","confidence":0,"occurrences":1})";

class AppLearningsTest : public testing::RemoteStoreTest {
 protected:
  void Fill(const std::string& text) {
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
    std::ofstream(store_->learnings_path(), std::ios::binary) << text;
  }
  const text::TimePoint now_ = std::chrono::system_clock::now();
};

TEST_F(AppLearningsTest, AStoreNotMadeListsNoneAndPrunesNone) {
  auto listed = ListLearnings(*store_, /*json=*/true, /*all=*/true, now_);
  ASSERT_TRUE(listed) << listed.error().Format();
  EXPECT_FALSE(listed->warning);
  EXPECT_EQ(listed->text, "[]\n");
  auto pruned = PruneLearnings(*store_, now_);
  ASSERT_TRUE(pruned) << pruned.error().Format();
  EXPECT_EQ(pruned->pruned, 0);
  auto c = ContradictLearning(*store_, "L1aa");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(c.error().what, "no learning has id L1aa");
  EXPECT_FALSE(std::filesystem::exists(store_->dir()));
}

TEST_F(AppLearningsTest, TheListLeavesOutTheExpiredAndWarnsOfMalformedLines) {
  Fill(std::string(kLive) + "\n" + kExpired + "\n{\"cut\":\n");
  auto live = ListLearnings(*store_, /*json=*/true, /*all=*/false, now_);
  ASSERT_TRUE(live) << live.error().Format();
  EXPECT_NE(live->text.find("L1aa"), std::string::npos);
  EXPECT_EQ(live->text.find("L2bb"), std::string::npos);
  ASSERT_TRUE(live->warning);
  EXPECT_EQ(live->warning->what, "1 line is not a JSON object and is not listed in");
  EXPECT_EQ(live->warning->path, store_->learnings_path());
  auto all = ListLearnings(*store_, /*json=*/false, /*all=*/true, now_);
  ASSERT_TRUE(all) << all.error().Format();
  EXPECT_NE(all->text.find("cache.cpp"), std::string::npos);
  EXPECT_NE(all->text.find("old.cpp"), std::string::npos);
}

TEST_F(AppLearningsTest, ContradictThenPrune) {
  Fill(std::string(kLive) + "\n" + kExpired + "\n");
  auto c = ContradictLearning(*store_, "L1aa");
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(c->id, "L1aa");
  EXPECT_DOUBLE_EQ(c->before, 0.6);
  EXPECT_NEAR(c->after, 0.4, 1e-9);
  auto p = PruneLearnings(*store_, now_);
  ASSERT_TRUE(p) << p.error().Format();
  EXPECT_EQ(p->pruned, 1);
  EXPECT_EQ(p->pruned_ids, std::vector<std::string>{"L2bb"});
  EXPECT_EQ(p->kept, 1);
}

}  // namespace
}  // namespace lore::app
