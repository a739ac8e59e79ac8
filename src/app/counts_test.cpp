#include "lore/app/counts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "lore/app/browse.h"
#include "lore/hook/session.h"
#include "mcp/lore_tools.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class StoreCountsTest : public testing::RemoteStoreTest {
 protected:
  void Make() { ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now())); }
  // Writes `rel` of the store.
  void Write(const std::string& rel, const std::string& text) {
    std::string dir = store_->dir();
    std::filesystem::create_directories(std::filesystem::path(dir + "/" + rel).parent_path());
    WriteFile(dir + "/" + rel, text);
  }
  // A store holding a little of everything, and what is not to be counted
  // beside it: dot files, other suffixes, a folder named like a record.
  void Fill() {
    Make();
    Write("memory/summary.md", "---\nkind: summary\n---\n# Summary\n\nThe widget cache.\n");
    Write("memory/decisions/use-lru.md", "decision");
    Write("memory/decisions/drop-redis.md", "decision");
    Write("memory/decisions/.draft.md", "a dot file");
    Write("memory/decisions/notes.txt", "not a record");
    std::filesystem::create_directories(store_->dir() + "/memory/decisions/folder.md");
    Write("memory/requests/add-metrics.md", "request");
    Write("knowledge/gotcha-cache-ttl.md", "page");
    Write("knowledge/cache.md", "page");
    Write("sessions/s1.jsonl", "{}\n");
    Write("sessions/s2.txt", "not a log");
    Write("learnings.jsonl",
          R"({"id":"L1","type":"fragile-file","subject":"cache.cpp","insight":"Lock first.",)"
          R"("confidence":0.6,"occurrences":1,"expires_at":"2099-01-01T00:00:00Z"})"
          "\n"
          R"({"id":"L2","type":"fragile-file","subject":"old.cpp","confidence":0,"occurrences":1})"
          "\n{\"cut\":\n\n");
    Write("proposals.jsonl", "{\"id\":\"p1\"}\n{\"id\":\"p2\"}\nnot json\n\n");
    Write("raw.jsonl", "{\"a\":1}\n\n{\"a\":2}\n{\"a\":3}\n");
    Write("okf/cache.md", "---\ntitle: Cache\n---\n# Cache\n");  // beside the made index.md
    Write("okf/.tmp", "");
  }
};

constexpr unsigned kEveryCount =
    kCountFolders | kCountQueue | kCountLearnings | kCountRaw | kCountPages;

TEST_F(StoreCountsTest, CountsTheFilesAPersonCanOpen) {
  Fill();
  auto c = CountStore(*store_, kEveryCount);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(c->decisions, 2);  // not the dot file, the .txt, the folder
  EXPECT_EQ(c->requests, 1);
  EXPECT_EQ(c->knowledge, 2);
  EXPECT_EQ(c->gotchas, 1);
  EXPECT_EQ(c->sessions, 1);
  EXPECT_EQ(c->pending, 2);  // the queue's records, not its malformed line
  EXPECT_EQ(c->learnings, 1);
  EXPECT_EQ(c->expired_learnings, 1);  // and the malformed line is no learning
  EXPECT_EQ(c->raw_records, 3);
  EXPECT_EQ(c->okf_pages, (std::vector<std::string>{"cache.md", "index.md"}));
  EXPECT_TRUE(c->summary);
  EXPECT_TRUE(c->HoldsMemory());
}

TEST_F(StoreCountsTest, ReadsOnlyWhatIsAskedFor) {
  Fill();
  auto c = CountStore(*store_, kCountFolders);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(c->decisions, 2);
  EXPECT_EQ(c->pending, 0);
  EXPECT_EQ(c->learnings + c->expired_learnings + c->raw_records, 0);
  EXPECT_TRUE(c->okf_pages.empty());
  EXPECT_FALSE(c->summary);
  auto logs = CountStore(*store_, kCountQueue | kCountRaw);
  ASSERT_TRUE(logs) << logs.error().Format();
  EXPECT_EQ(logs->decisions, 0);
  EXPECT_EQ(logs->pending, 2);
  EXPECT_EQ(logs->raw_records, 3);
}

TEST_F(StoreCountsTest, AStoreNotMadeHoldsNothing) {
  auto c = CountStore(*store_, kEveryCount);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->HoldsMemory());
  EXPECT_EQ(c->pending + c->learnings + c->raw_records, 0);
  Make();
  c = CountStore(*store_, kEveryCount);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_FALSE(c->HoldsMemory());
  EXPECT_FALSE(c->summary);
}

TEST_F(StoreCountsTest, AFolderReachedThroughASymlinkIsAnError) {
  Make();
  const std::string elsewhere = t_ / "elsewhere";
  std::filesystem::create_directories(elsewhere);
  WriteFile(elsewhere + "/a.md", "decision");
  std::filesystem::remove_all(store_->dir() + "/knowledge");
  ASSERT_EQ(::symlink(elsewhere.c_str(), (store_->dir() + "/knowledge").c_str()), 0);
  EXPECT_FALSE(CountStore(*store_, kCountFolders));
}

// The briefing, the page and the MCP status tool say the same numbers.
TEST_F(StoreCountsTest, TheBriefingThePageAndTheStatusToolAgree) {
  Fill();
  auto c = CountStore(*store_, kEveryCount);
  ASSERT_TRUE(c) << c.error().Format();

  auto briefing = hook::SessionStartContext(*store_, "startup", kRemote);
  ASSERT_TRUE(briefing) << briefing.error().Format();
  EXPECT_NE(briefing->find("More in lore's memory: 2 decisions, 1 request, 2 knowledge pages "
                           "(1 gotcha) and 1 session log"),
            std::string::npos)
      << *briefing;
  EXPECT_NE(briefing->find("2 proposed learnings await review"), std::string::npos);

  auto page = OverviewJson(*store_, kRemote);
  ASSERT_TRUE(page) << page.error().Format();
  const Json& counts = (*page)["counts"];
  EXPECT_EQ(counts["decisions"], c->decisions);
  EXPECT_EQ(counts["requests"], c->requests);
  EXPECT_EQ(counts["knowledge"], c->knowledge);
  EXPECT_EQ(counts["sessions"], c->sessions);
  EXPECT_EQ(counts["pending"], c->pending);
  // The page lists every learning, live or not (its #learnings view).
  EXPECT_EQ(counts["learnings"], c->learnings + c->expired_learnings);

  mcp::ToolState state{*store_, {}, {}};
  auto status = mcp::StoreStatus(state, Json::object());
  ASSERT_TRUE(status) << status.error().Format();
  EXPECT_EQ((*status)["memory"]["decisions"], c->decisions);
  EXPECT_EQ((*status)["memory"]["requests"], c->requests);
  EXPECT_EQ((*status)["memory"]["knowledge"], c->knowledge);
  EXPECT_EQ((*status)["memory"]["summary"], true);
  EXPECT_EQ((*status)["pending_proposals"], c->pending);
  EXPECT_EQ((*status)["consolidation"]["pending_proposals"], c->pending);
  EXPECT_EQ((*status)["learnings"], c->learnings);
  EXPECT_EQ((*status)["expired_learnings"], c->expired_learnings);
  EXPECT_EQ((*status)["raw_records"], c->raw_records);
  EXPECT_EQ((*status)["okf_pages"], Json(c->okf_pages));
}

}  // namespace
}  // namespace lore::app
