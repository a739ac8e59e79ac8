// Black-box tests of `lore memory write/edit --set`: values are read as the
// record parser reads them, and an invalid value is blamed on the flag, not
// on the record's file (docs/records.md).
#include <gtest/gtest.h>

#include <filesystem>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources: []\n---\n# Use SQLite\n";

class MemorySetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto w = Memory({"write", "decision", "use-sqlite"}, kDecision);
    ASSERT_EQ(w.exit_code, 0) << w.err;
  }
  RunResult Memory(std::vector<std::string> args, std::string input = {}) const {
    args.insert(args.begin(), "memory");
    args.insert(args.begin() + 2, kRepo);
    return Lore(args, IsolatedOptions(t_.path(), "stores", std::move(input)));
  }
  std::string Path() const {
    return t_ / (std::string("stores/") + kKey + "/memory/decisions/use-sqlite.md");
  }
  std::string Text() const {
    return t_.Read(std::string("stores/") + kKey + "/memory/decisions/use-sqlite.md");
  }
  RunResult Lint() const { return Lore({"lint", kRepo}, IsolatedOptions(t_.path(), "stores")); }
  TempDir t_;
};

// What `lore lint` accepts in the file, --set accepts as the same value.
TEST_F(MemorySetTest, QuotedValuesMeanWhatTheyMeanInTheFile) {
  auto e = Memory({"edit", "decision", "use-sqlite", "--set", "status=\"resolved\"", "--set",
                   "updated_at='2026-02-01T00:00:00Z'"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string text = Text();
  EXPECT_NE(text.find("status: resolved\n"), std::string::npos) << text;
  EXPECT_NE(text.find("updated_at: 2026-02-01T00:00:00Z\n"), std::string::npos) << text;
  EXPECT_EQ(Lint().exit_code, 0) << Lint().out << Lint().err;
  // A value that is not one YAML scalar is still taken as text.
  auto colon = Memory({"edit", "decision", "use-sqlite", "--set", "note=Use: WAL"});
  ASSERT_EQ(colon.exit_code, 0) << colon.err;
  EXPECT_NE(Text().find("note: \"Use: WAL\"\n"), std::string::npos) << Text();
}

// Keys the parser keeps (any one-line text) can be set and unset too.
TEST_F(MemorySetTest, AnyKeyTheParserReadsCanBeSet) {
  auto e = Memory(
      {"edit", "decision", "use-sqlite", "--set", "ticket.id=W-1", "--set", "Review Board=[a, b]"});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  std::string text = Text();
  EXPECT_NE(text.find("ticket.id: W-1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Review Board: [a, b]\n"), std::string::npos) << text;
  EXPECT_EQ(Lint().exit_code, 0) << Lint().out << Lint().err;
  // The same file, written by hand, reads back the same.
  std::string by_hand = text;
  auto again = Memory({"edit", "decision", "use-sqlite"}, by_hand);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto un = Memory({"edit", "decision", "use-sqlite", "--unset", "ticket.id"});
  ASSERT_EQ(un.exit_code, 0) << un.err;
  EXPECT_EQ(Text().find("ticket.id"), std::string::npos) << Text();
}

TEST_F(MemorySetTest, AnInvalidValueNamesTheFlagNotTheFile) {
  std::string before = Text();
  auto bad = Memory({"edit", "decision", "use-sqlite", "--set", "status=closed"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err,
            "lore: error: 'status' is 'closed', not one of open, resolved, replaced: --set "
            "status=closed; write status: open, status: resolved, or status: replaced (with "
            "replaced_by)\nlore: nothing written: 1 error in " +
                Path() + "\n");
  auto time = Memory({"edit", "decision", "use-sqlite", "--set", "created_at=yesterday"});
  EXPECT_EQ(time.exit_code, 1);
  EXPECT_NE(time.err.find("'created_at' is not an RFC 3339 time: 'yesterday': --set "
                          "created_at=yesterday; "),
            std::string::npos)
      << time.err;
  auto typed = Memory({"edit", "decision", "use-sqlite", "--set", "sources=[1]"});
  EXPECT_EQ(typed.exit_code, 1);
  EXPECT_EQ(typed.err.rfind("lore: invalid --set sources=[1] ('sources' must be a list "
                            "of {session_id, range: [from, to]});",
                            0),
            0u)
      << typed.err;
  EXPECT_EQ(typed.err.find(Path()), std::string::npos) << typed.err;
  // A new record built from flags: the same.
  auto w = Memory({"write", "decision", "other", "--set", "status=maybe"});
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("not one of open, resolved, replaced: --set status=maybe;"),
            std::string::npos)
      << w.err;
  EXPECT_EQ(Text(), before);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
