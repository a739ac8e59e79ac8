#include "lore/app/consolidate.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "lore/consolidate/run_lock.h"
#include "lore/fs/fd.h"
#include "lore/sys/process.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

constexpr const char* kEntry =
    R"({"source":{"session_id":"s1","range":[1,2]},"decisions":[{"options":["sqlite a",)"
    R"("sqlite b"],"chosen":"sqlite b","rationale":"because"}],"discussions":[],)"
    R"("attempts":[],"requests":[]})";

class AppConsolidateTest : public testing::AppStoreTest {
 protected:
  void SetUp() override {
    AppStoreTest::SetUp();
    ASSERT_TRUE(EnsureStore(*store_, std::chrono::system_clock::now()));
  }
  void Config(const std::string& text) { std::ofstream(store_->config_path()) << text; }
};

TEST_F(AppConsolidateTest, StagingKeepsAValidEntryOnly) {
  auto bad = Stage(*store_, R"({"source":{"session_id":"s","range":[5,1]}})",
                   std::chrono::system_clock::now());
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput) << bad.error().Format();
  auto id = Stage(*store_, kEntry, std::chrono::system_clock::now());
  ASSERT_TRUE(id) << id.error().Format();
  EXPECT_TRUE(fs::Exists(store_->Path("staging/" + *id + ".json"))) << *id;
}

TEST_F(AppConsolidateTest, AConsolidationIsDueAtAThresholdUnlessOneRuns) {
  Config("[memory.staging]\nthreshold_files = 2\n");
  auto due = ConsolidationDue(*store_);
  ASSERT_TRUE(due) << due.error().Format();
  EXPECT_FALSE(*due) << "nothing staged";
  ASSERT_TRUE(Stage(*store_, kEntry, std::chrono::system_clock::now()));
  due = ConsolidationDue(*store_);
  ASSERT_TRUE(due) << due.error().Format();
  EXPECT_FALSE(*due) << "one entry of two";
  ASSERT_TRUE(Stage(*store_, kEntry, std::chrono::system_clock::now()));
  due = ConsolidationDue(*store_);
  ASSERT_TRUE(due) << due.error().Format();
  EXPECT_TRUE(*due);
  {
    auto held = consolidate::RunLock::TryAcquire(*store_);
    ASSERT_TRUE(held) << held.error().Format();
    ASSERT_TRUE(held->lock);
    ASSERT_TRUE(held->lock->Publish({::getpid(), sys::HostName(), "2026-01-01T00:00:00.000Z", {}}));
    due = ConsolidationDue(*store_);
    ASSERT_TRUE(due) << due.error().Format();
    EXPECT_FALSE(*due) << "the running consolidation takes the entries";
  }
  Config("[memory.staging]\nthreshold_files = 0\n");
  due = ConsolidationDue(*store_);
  ASSERT_FALSE(due) << "settings that cannot be read are an Error";
  EXPECT_NE(due.error().Format().find("config.toml"), std::string::npos) << due.error().Format();
}

TEST_F(AppConsolidateTest, TheRulesEngineConsolidatesWhatIsStaged) {
  ASSERT_TRUE(Stage(*store_, kEntry, std::chrono::system_clock::now()));
  auto settings = LoadSettings(*store_);
  ASSERT_TRUE(settings) << settings.error().Format();
  EXPECT_EQ(settings->engine, "rules");
  OpenedStore opened{*store_, *settings};
  auto idle = ConsolidateWithRules(opened, false);
  ASSERT_TRUE(idle) << idle.error().Format();
  EXPECT_TRUE(idle->report.runs.empty()) << "under the thresholds without flush";
  auto c = ConsolidateWithRules(opened, true);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(c->exit_code, 0);
  ASSERT_EQ(c->report.runs.size(), 1u);
  EXPECT_EQ(c->report.runs.front().outcome, "ok");
  EXPECT_FALSE(c->report.runs.front().changed.empty());
  EXPECT_FALSE(c->lines.empty());
}

// A decision among long options is titled by the first words of each; the body keeps
// them whole.
TEST_F(AppConsolidateTest, ADecisionAmongLongOptionsHasAShortTitle) {
  auto settings = LoadSettings(*store_);
  ASSERT_TRUE(settings) << settings.error().Format();
  OpenedStore opened{*store_, *settings};
  const std::string chosen =
      "Keep DNS-01 and add resolvers to the tls block of the cf_tls snippet in the template "
      "that renders the Caddyfile for every host of the house";
  const std::string other =
      "Drop the local zone from Pi-hole so it forwards unknown names under the house domain to "
      "Cloudflare";
  ASSERT_TRUE(Stage(*store_,
                    R"({"source":{"session_id":"s1","range":[1,2]},"decisions":[{"options":[")" +
                        chosen + R"(",")" + other + R"("],"chosen":")" + chosen +
                        R"(","rationale":"smallest blast radius"}],"discussions":[],)"
                        R"("attempts":[],"requests":[]})",
                    std::chrono::system_clock::now()));
  auto c = ConsolidateWithRules(opened, true);
  ASSERT_TRUE(c) << c.error().Format();
  std::string path;
  for (const auto& e : std::filesystem::directory_iterator(store_->Path("memory/decisions")))
    path = e.path().string();
  auto text = fs::ReadFile(path, fs::Kind::kState);
  ASSERT_TRUE(text) << path;
  const size_t title = text->find("\n# ");
  ASSERT_NE(title, std::string::npos) << *text;
  const std::string line = text->substr(title + 1, text->find('\n', title + 1) - title - 1);
  EXPECT_LE(line.size(), 2 + 120 + 7 + 60 + 1) << line;
  EXPECT_EQ(line.rfind("# Keep DNS-01 and add resolvers", 0), 0u) << line;
  EXPECT_NE(line.find("(over Drop the local zone from Pi-hole"), std::string::npos) << line;
  EXPECT_NE(text->find("Chosen: " + chosen), std::string::npos) << "the body has it whole";
  EXPECT_NE(text->find(other), std::string::npos) << "the body has it whole";
  EXPECT_NE(text->find("- smallest blast radius"), std::string::npos);
}

// A decision whose body a person filled to the linter's limit with their own text
// (no bullets to drop) is left as it was; the run does not fail on it.
TEST_F(AppConsolidateTest, ABodyFilledToItsLimitIsLeftAsItWas) {
  auto settings = LoadSettings(*store_);
  ASSERT_TRUE(settings) << settings.error().Format();
  OpenedStore opened{*store_, *settings};
  ASSERT_TRUE(Stage(*store_, kEntry, std::chrono::system_clock::now()));
  auto first = ConsolidateWithRules(opened, true);
  ASSERT_TRUE(first) << first.error().Format();
  std::string path;
  for (const auto& e : std::filesystem::directory_iterator(store_->Path("memory/decisions")))
    path = e.path().string();
  ASSERT_FALSE(path.empty());
  auto text = fs::ReadFile(path, fs::Kind::kState);
  ASSERT_TRUE(text);
  const size_t end = text->find("\n---\n", 4);
  ASSERT_NE(end, std::string::npos);
  const std::string full = text->substr(0, end + 5) + std::string(8000, 'p');
  std::ofstream(path, std::ios::binary | std::ios::trunc) << full;
  std::string again = kEntry;
  again.replace(again.find("\"s1\""), 4, "\"s2\"");
  again.replace(again.find("because"), 7, "because two");
  ASSERT_TRUE(Stage(*store_, again, std::chrono::system_clock::now()));
  auto c = ConsolidateWithRules(opened, true);
  ASSERT_TRUE(c) << c.error().Format();
  ASSERT_EQ(c->report.runs.size(), 1u);
  EXPECT_EQ(c->report.runs.front().outcome, "ok") << c->report.runs.front().error;
  auto after = fs::ReadFile(path, fs::Kind::kState);
  ASSERT_TRUE(after);
  EXPECT_NE(after->find(std::string(8000, 'p')), std::string::npos);
  EXPECT_EQ(after->find("because two"), std::string::npos);
}

// An engine with a bug: it throws where it should have returned an error.
class ThrowingEngine : public consolidate::Engine {
 public:
  std::string_view name() const override { return "rules"; }
  Result<std::vector<std::string>> Run(const consolidate::RunInput&,
                                       consolidate::Workspace&) override {
    return std::string_view("abc").substr(7), std::vector<std::string>{};
  }
};

// A bug in the engine fails the run, and says so where the next session looks
// (the run's state), instead of ending the process with nothing recorded.
TEST_F(AppConsolidateTest, AnEnginesBugFailsTheRunAndIsRecorded) {
  auto id = Stage(*store_, kEntry, std::chrono::system_clock::now());
  ASSERT_TRUE(id) << id.error().Format();
  auto settings = LoadSettings(*store_);
  ASSERT_TRUE(settings) << settings.error().Format();
  OpenedStore opened{*store_, *settings};
  ThrowingEngine engine;
  auto c = Consolidate(opened, engine, true);
  ASSERT_TRUE(c) << c.error().Format();
  EXPECT_EQ(c->exit_code, 1);
  ASSERT_EQ(c->report.runs.size(), 1u);
  EXPECT_EQ(c->report.runs.front().outcome, "failed");
  EXPECT_NE(c->report.runs.front().error.find("the rules engine failed"), std::string::npos)
      << c->report.runs.front().error;
  EXPECT_TRUE(fs::Exists(store_->Path("staging/" + *id + ".json"))) << "the entry stays";
  auto state = fs::ReadFile(store_->Path("staging/.consolidation.state.json"), fs::Kind::kState);
  ASSERT_TRUE(state);
  EXPECT_NE(state->find("\"failed\""), std::string::npos) << *state;
}

}  // namespace
}  // namespace lore::app
