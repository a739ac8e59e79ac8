#include "lore/app/search.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lore/app/recall.h"
#include "lore/app/store.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

class AppSearchTest : public testing::AppStoreTest {
 protected:
  void Record(const std::string& rel, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(store_->Path(rel)).parent_path());
    std::ofstream(store_->Path(rel)) << text;
  }
};

TEST_F(AppSearchTest, AKeptIndexFindsNothingWithoutAStoreAndCreatesNone) {
  KeptIndex kept;
  auto hits = kept.SearchJson(*store_, "cache", {}, true);
  ASSERT_TRUE(hits) << hits.error().Format();
  EXPECT_TRUE(hits->empty());
  EXPECT_FALSE(std::filesystem::exists(store_->dir()));
}

TEST_F(AppSearchTest, AKeptIndexSeesWhatWasWrittenSinceTheLastSearch) {
  ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
  Record("memory/decisions/lru.md", "---\nstatus: open\n---\nThe search cache is an LRU.\n");
  KeptIndex kept;
  auto first = kept.SearchJson(*store_, "cache", {}, true);
  ASSERT_TRUE(first) << first.error().Format();
  ASSERT_EQ(first->size(), 1u) << first->dump();
  EXPECT_TRUE((*first)[0].contains("scope")) << first->dump();

  Record("memory/decisions/ttl.md", "---\nstatus: open\n---\nCache entries expire after a day.\n");
  auto second = kept.SearchJson(*store_, "cache", {}, false);
  ASSERT_TRUE(second) << second.error().Format();
  EXPECT_EQ(second->size(), 2u) << second->dump();
  EXPECT_FALSE((*second)[0].contains("scope")) << second->dump();

  // Each hit shown is counted as the agent's use.
  auto usage = Usage(*store_);
  ASSERT_TRUE(usage) << usage.error().Format();
  EXPECT_EQ(usage->shown, 3);
}

}  // namespace
}  // namespace lore::app
