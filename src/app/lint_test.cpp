#include "lore/app/lint.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "lore/app/memory.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

using AppLintTest = testing::AppStoreTest;

constexpr const char* kLintedDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources:\n- {session_id: s1, range: [3, 17]}\n---\nWe use **SQLite**.\n";

TEST_F(AppLintTest, AStoreNeverMadeIsNotFound) {
  auto r = LintStore(*store_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(r.error().what, "no store for this repository");
  EXPECT_EQ(r.error().path, store_->dir());
  EXPECT_NE(r.error().repair.find("lore ensure"), std::string::npos);
}

TEST_F(AppLintTest, EveryRecordIsLinted) {
  ASSERT_TRUE(WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kLintedDecision).outcome);
  auto clean = LintStore(*store_);
  ASSERT_TRUE(clean) << clean.error().Format();
  EXPECT_EQ(clean->store, store_->dir());
  const size_t records = clean->records;
  EXPECT_GE(records, 1u);
  EXPECT_FALSE(clean->report.HasErrors());
  // A record changed behind lore's back: its finding names the file.
  std::string bad = kLintedDecision;
  bad.replace(bad.find("status: open"), 12, "status: closed");
  std::ofstream(store_->Path("memory/decisions/use-sqlite.md")) << bad;
  auto r = LintStore(*store_);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->records, records);
  ASSERT_TRUE(r->report.HasErrors());
  EXPECT_EQ(r->report.findings.front().field, "status");
  EXPECT_EQ(r->report.findings.front().path, store_->Path("memory/decisions/use-sqlite.md"));
}

}  // namespace
}  // namespace lore::app
