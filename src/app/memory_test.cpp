#include "lore/app/memory.h"

#include <gtest/gtest.h>

#include "lore/fs/fd.h"
#include "support/temp_dir.h"

namespace lore::app {
namespace {

constexpr const char* kMemoryRepo = "git@github.com:acme/widgets.git";
constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources:\n- {session_id: s1, range: [3, 17]}\n---\nWe use **SQLite**.\n";

class AppMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store::Env env;
    env.lore_home = t_ / "stores";
    auto s = store::Store::Locate(kMemoryRepo, env);
    ASSERT_TRUE(s) << s.error().Format();
    store_ = std::move(*s);
  }
  testing::TempDir t_;
  std::optional<store::Store> store_;
};

TEST_F(AppMemoryTest, AWriteMakesTheStoreThenTheRecord) {
  RecordChange w = WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision);
  EXPECT_TRUE(w.warnings.empty());
  ASSERT_TRUE(w.outcome) << w.outcome.error().Format();
  EXPECT_TRUE(w.outcome->ok());
  EXPECT_TRUE(w.outcome->written);
  EXPECT_EQ(w.outcome->path, store_->Path("memory/decisions/use-sqlite.md"));
  auto text = ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite");
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, kDecision);
  // A second write of the slug is the linter's refusal, not an Error.
  RecordChange again = WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision);
  ASSERT_TRUE(again.outcome) << again.outcome.error().Format();
  EXPECT_FALSE(again.outcome->ok());
  EXPECT_FALSE(again.outcome->written);
}

TEST_F(AppMemoryTest, AChangeOfAStoreNotMadeIsTheRecordsNoSuch) {
  bool asked = false;
  RecordChange e = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite", [&] {
    asked = true;
    return Result<std::string>(kDecision);
  });
  ASSERT_FALSE(e.outcome);
  EXPECT_EQ(e.outcome.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(asked);  // the text (standard input) is not read for nothing
  RecordChange r =
      ReplaceRecord(*store_, doc::Kind::kDecision, "use-sqlite", "other", text::TimePoint{});
  ASSERT_FALSE(r.outcome);
  EXPECT_EQ(r.outcome.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(fs::Exists(store_->dir()));
}

TEST_F(AppMemoryTest, EditsChangeTheRecord) {
  ASSERT_TRUE(WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision).outcome);
  std::string edited = kDecision;
  edited.replace(edited.find("**SQLite**"), 10, "SQLite, with WAL");
  RecordChange e = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite",
                                  [&] { return Result<std::string>(edited); });
  ASSERT_TRUE(e.outcome) << e.outcome.error().Format();
  EXPECT_TRUE(e.outcome->written);
  EXPECT_EQ(*ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite"), edited);
  RecordChange c = EditRecord(*store_, doc::Kind::kDecision, "use-sqlite", [](doc::Record& r) {
    r.body = "We use SQLite.\n";
    return Ok();
  });
  ASSERT_TRUE(c.outcome) << c.outcome.error().Format();
  EXPECT_TRUE(c.outcome->written);
  EXPECT_NE(ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite")->find("We use SQLite.\n"),
            std::string::npos);
  // Text that cannot be had is the change's Error.
  RecordChange none = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite", [] {
    return Result<std::string>(Fail(ErrorCode::kInvalidInput, "no record on standard input"));
  });
  ASSERT_FALSE(none.outcome);
  EXPECT_EQ(none.outcome.error().what, "no record on standard input");
}

}  // namespace
}  // namespace lore::app
