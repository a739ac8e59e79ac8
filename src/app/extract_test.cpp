#include "lore/app/extract.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lore/app/store.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

class AppExtractTest : public testing::AppStoreTest {
 protected:
  void Config(const std::string& text) {
    ASSERT_TRUE(store_->Ensure(std::chrono::system_clock::now()));
    std::ofstream(store_->config_path(), std::ios::app) << text;
  }
};

TEST_F(AppExtractTest, TheEngineAskedForElseConfigs) {
  auto plain = ExtractEngine(*store_, "");
  ASSERT_TRUE(plain) << plain.error().Format();
  EXPECT_EQ(*plain, "rules");
  Config("[memory]\nextract_engine = \"llm\"\n");
  EXPECT_EQ(ExtractEngine(*store_, "").value_or(""), "llm");
  EXPECT_EQ(ExtractEngine(*store_, "rules").value_or(""), "rules");
}

TEST_F(AppExtractTest, ABrokenConfigIsSaidEvenWithAnEngineAsked) {
  Config("[memory]\nextract_engine = \"gpt\"\n");
  auto r = ExtractEngine(*store_, "rules");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().Format().find("memory.extract_engine"), std::string::npos)
      << r.error().Format();
}

TEST_F(AppExtractTest, RebuildCreatesTheStoreThenStagesAgainFromTheSessionLogs) {
  auto empty = RebuildFromSessionLogs(*store_, "", std::chrono::system_clock::now());
  ASSERT_TRUE(empty) << empty.error().Format();
  EXPECT_NE(empty->find(R"("sessions":0)"), std::string::npos) << *empty;
  EXPECT_TRUE(std::filesystem::exists(store_->Path("raw.jsonl"))) << "the store was created";

  t_.Write(
      "s1.jsonl",
      R"({"type":"user","sessionId":"s1","message":{"content":"Add a cache to the search path; we decided to use an LRU."}})"
      "\n");
  ExtractRequest req;
  req.options.transcript = t_ / "s1.jsonl";
  req.options.now = std::chrono::system_clock::now();
  auto extracted = ExtractWithRules(*store_, req);
  ASSERT_TRUE(extracted) << extracted.error().Format();
  EXPECT_NE(extracted->json.find("s1"), std::string::npos) << extracted->json;

  auto again = RebuildFromSessionLogs(*store_, "s1", std::chrono::system_clock::now());
  ASSERT_TRUE(again) << again.error().Format();
  EXPECT_NE(again->find(R"("sessions":1)"), std::string::npos) << *again;
}

}  // namespace
}  // namespace lore::app
