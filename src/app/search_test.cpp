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

TEST_F(AppSearchTest, ARequestInTheFrontEndsWordsIsTheSearchsOptions) {
  const text::TimePoint now = std::chrono::system_clock::now();
  const int64_t seconds =
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  auto all = SearchOptionsFor({}, now);
  ASSERT_TRUE(all) << all.error().Format();
  EXPECT_FALSE(all->filter.scope);
  EXPECT_FALSE(all->filter.kind);
  EXPECT_EQ(all->filter.replaced, index::Replaced::kHide);
  EXPECT_EQ(all->filter.live_at, seconds);  // expired learnings hidden
  EXPECT_EQ(all->limit, search::kDefaultLimit);
  EXPECT_TRUE(all->params.compounds);  // the default stages
  EXPECT_FALSE(all->params.synonyms);

  SearchRequest r;
  r.scope = "knowledge";
  r.kind = "how-to";
  r.limit = 3;
  r.include_replaced = true;
  r.include_expired = true;
  r.expand = "none";
  auto one = SearchOptionsFor(r, now);
  ASSERT_TRUE(one) << one.error().Format();
  EXPECT_EQ(one->filter.scope, index::Scope::kKnowledge);
  EXPECT_EQ(one->filter.kind, "how-to");
  EXPECT_EQ(one->filter.replaced, index::Replaced::kInclude);
  EXPECT_FALSE(one->filter.live_at);
  EXPECT_EQ(one->limit, 3);
  EXPECT_FALSE(one->params.compounds);

  SearchRequest sessions;
  sessions.scope = "sessions";
  EXPECT_EQ(SearchOptionsFor(sessions, now)->filter.scope, index::Scope::kSessions);
}

TEST_F(AppSearchTest, AnUnknownScopeOrStageIsAnError) {
  SearchRequest r;
  r.scope = "everything";
  auto scope = SearchOptionsFor(r, text::TimePoint{});
  ASSERT_FALSE(scope);
  EXPECT_EQ(scope.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(scope.error().what, "unknown scope \"everything\"");
  EXPECT_EQ(scope.error().repair, "use one of memory, knowledge, learnings, raw, okf, all");
  r.scope = "";
  EXPECT_FALSE(SearchOptionsFor(r, text::TimePoint{}));
  r.scope = "all";
  r.expand = "synonyms,telepathy";
  EXPECT_FALSE(SearchOptionsFor(r, text::TimePoint{}));
}

TEST_F(AppSearchTest, HitsAreShownWithTheirScopesAndStagesNames) {
  ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
  Record("memory/decisions/lru.md", "---\nstatus: open\n---\nThe search cache is an LRU.\n");
  SearchRequest r;
  r.expand = "all";
  auto opts = SearchOptionsFor(r, std::chrono::system_clock::now());
  ASSERT_TRUE(opts) << opts.error().Format();
  auto found = Search(*store_, "caches", *opts, Asker::kPerson);
  ASSERT_TRUE(found) << found.error().Format();
  ASSERT_EQ(found->hits.size(), 1u);
  const HitWords words = WordsOf(found->hits[0]);
  EXPECT_EQ(words.scope, "memory");
  ASSERT_EQ(words.stages.size(), found->hits[0].expansions.size());
  for (size_t i = 0; i < words.stages.size(); ++i) {
    EXPECT_EQ(words.stages[i], search::StageName(found->hits[0].expansions[i].stage));
  }
  Json with = HitsJson(found->hits, true, true);
  ASSERT_EQ(with.size(), 1u) << with.dump();
  EXPECT_EQ(with[0]["scope"], "memory") << with.dump();
  EXPECT_TRUE(with[0].contains("explain")) << with.dump();
  Json without = HitsJson(found->hits, false, false);
  ASSERT_EQ(without.size(), 1u) << without.dump();
  EXPECT_FALSE(without[0].contains("scope")) << without.dump();
  EXPECT_FALSE(without[0].contains("explain")) << without.dump();
  EXPECT_TRUE(HitsJson({}, true, false).empty());
}

}  // namespace
}  // namespace lore::app
