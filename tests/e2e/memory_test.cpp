// Black-box tests of `lore memory read|write|edit|replace` (docs/records.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "doc/rfc3339.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources:\n- {session_id: s1, range: [3, 17]}  # from the staged entry\n---\n"
    "# Use SQLite\n\nWe keep **one** file.\n\n    indented code\n";

class MemoryTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "stores", std::move(input));
  }
  RunResult Memory(std::vector<std::string> args, std::string input = {}) const {
    args.insert(args.begin(), "memory");
    args.insert(args.begin() + 2, kRepo);
    return Lore(args, Opts(std::move(input)));
  }
  std::string Store() const { return t_ / (std::string("stores/") + kKey); }
  std::string Read(const std::string& rel) const {
    return t_.Read(std::string("stores/") + kKey + "/" + rel);
  }
  std::map<std::string, std::string> Snapshot() const {
    std::map<std::string, std::string> out;
    for (const auto& e : stdfs::recursive_directory_iterator(Store())) {
      out[e.path().string()] =
          e.is_directory() ? "<dir>" : t_.Read(stdfs::relative(e.path(), t_.path()).string());
    }
    return out;
  }
  TempDir t_;
};

TEST_F(MemoryTest, WriteFromStdinKeepsEveryByteAndReadPrintsThem) {
  auto w = Memory({"write", "decision", "use-sqlite"}, kDecision);
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(w.out, Store() + "/memory/decisions/use-sqlite.md\n");
  EXPECT_EQ(w.err, "");
  EXPECT_EQ(Read("memory/decisions/use-sqlite.md"), kDecision);
  auto r = Memory({"read", "decision", "use-sqlite"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, kDecision);
}

TEST_F(MemoryTest, WriteOfAnExistingSlugIsRefusedAndChangesNothing) {
  ASSERT_EQ(Memory({"write", "decision", "use-sqlite"}, kDecision).exit_code, 0);
  auto before = Snapshot();
  auto w = Memory({"write", "decision", "use-sqlite"}, kDecision);
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_EQ(w.out, "");
  std::string path = Store() + "/memory/decisions/use-sqlite.md";
  EXPECT_EQ(w.err, "lore: error: a decision named 'use-sqlite' already exists: " + path +
                       "; update it with 'lore memory edit' instead, or choose another slug\n"
                       "lore: nothing written: 1 error in " +
                       path + "\n");
  EXPECT_EQ(Snapshot(), before);
}

TEST_F(MemoryTest, RefusedWorkflowWriteChangesNothing) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  t_.Write(std::string("stores/") + kKey + "/memory/workflow/release.md",
           "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: Release\nrequires: "
           "[setup]\n---\n1. tag\n");
  t_.Write(std::string("stores/") + kKey + "/knowledge/setup.md", "---\n---\n");
  auto before = Snapshot();
  std::string text = "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: Other\n---\nx\n";
  for (auto args : std::vector<std::vector<std::string>>{{"write", "workflow", "other"},
                                                         {"edit", "workflow", "release"}}) {
    auto r = Memory(args, text);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("lore: error: memory/workflow/ is written by people only"),
              std::string::npos)
        << r.err;
  }
  auto e = Memory({"edit", "workflow", "release", "--append", "2. push"});
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_EQ(e.err,
            "lore: error: memory/workflow/ is written by people only; lore refuses to "
            "write it: " +
                Store() +
                "/memory/workflow/release.md; edit the workflow file "
                "by hand, or write a knowledge page instead\nlore: nothing written: 1 error in " +
                Store() + "/memory/workflow/release.md\n");
  auto rep = Memory({"replace", "workflow", "release", "--by", "other"});
  EXPECT_EQ(rep.exit_code, 1);
  EXPECT_EQ(Snapshot(), before);
  auto read = Memory({"read", "workflow", "release"});
  EXPECT_EQ(read.exit_code, 0);
  EXPECT_EQ(read.out,
            "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: Release\nrequires: "
            "[setup]\n---\n1. tag\n");
}

TEST_F(MemoryTest, LinterErrorsAreAllReportedAndNothingIsWritten) {
  auto w = Memory({"write", "decision", "Bad_Slug"}, "---\nstatus: closed\nsources: [a\n---\n");
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("lore: error: slug 'Bad_Slug' is not valid"), std::string::npos) << w.err;
  EXPECT_NE(w.err.find("lore: error: frontmatter is not valid YAML"), std::string::npos) << w.err;
  EXPECT_FALSE(stdfs::exists(Store() + "/memory"));
  auto v = Memory({"write", "decision", "ok-slug"}, "---\nstatus: closed\n---\n");
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_EQ(std::count(v.err.begin(), v.err.end(), '\n'), 5) << v.err;  // 4 errors + summary
}

TEST_F(MemoryTest, WriteAndEditFromFlags) {
  auto w =
      Memory({"write", "request", "fast-cli", "--source", "sess:1:4-9", "--body", "Keep it fast."});
  ASSERT_EQ(w.exit_code, 0) << w.err;
  std::string text = Read("memory/requests/fast-cli.md");
  EXPECT_NE(text.find("sources:\n  - session_id: sess:1\n    range: [4, 9]\n---\nKeep it fast.\n"),
            std::string::npos)
      << text;
  auto e = Memory({"edit", "request", "fast-cli", "--set", "updated_at=2030-01-01T00:00:00Z",
                   "--source", "s2:10-12", "--append", "Under 1 ms."});
  ASSERT_EQ(e.exit_code, 0) << e.err;
  text = Read("memory/requests/fast-cli.md");
  EXPECT_NE(text.find("updated_at: 2030-01-01T00:00:00Z\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("  - session_id: s2\n    range: [10, 12]\n---\nKeep it fast.\n\nUnder 1 ms.\n"),
      std::string::npos)
      << text;
  // Without --set updated_at, edit stamps the time.
  ASSERT_EQ(Memory({"edit", "request", "fast-cli", "--set", "owner=alice"}).exit_code, 0);
  text = Read("memory/requests/fast-cli.md");
  size_t at = text.find("updated_at: ") + 12;
  std::string stamp = text.substr(at, text.find('\n', at) - at);
  EXPECT_TRUE(doc::IsRfc3339(stamp)) << stamp;
  EXPECT_NE(stamp, "2030-01-01T00:00:00Z");
  EXPECT_NE(text.find("owner: alice\n"), std::string::npos);
}

TEST_F(MemoryTest, EditFromStdinReplacesTheWholeRecord) {
  ASSERT_EQ(Memory({"write", "decision", "use-sqlite"}, kDecision).exit_code, 0);
  std::string next = std::string(kDecision) + "\nAppended by hand.\n";
  auto e = Memory({"edit", "decision", "use-sqlite"}, next);
  ASSERT_EQ(e.exit_code, 0) << e.err;
  EXPECT_EQ(Read("memory/decisions/use-sqlite.md"), next);
  auto missing = Memory({"edit", "decision", "nope"}, next);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "lore: no such decision: " + Store() +
                             "/memory/decisions/nope.md; check the slug, or create the record with "
                             "'lore memory write'\n");
}

TEST_F(MemoryTest, ReplaceMarksTheRecordAndNeedsTheTarget) {
  ASSERT_EQ(Memory({"write", "decision", "old-way"}, kDecision).exit_code, 0);
  auto before = Snapshot();
  auto bad = Memory({"replace", "decision", "old-way", "--by", "new-way"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("'replaced_by' names decision 'new-way', which does not exist"),
            std::string::npos);
  EXPECT_EQ(Snapshot(), before);
  ASSERT_EQ(Memory({"write", "decision", "new-way"}, kDecision).exit_code, 0);
  auto ok = Memory({"replace", "decision", "old-way", "--by", "new-way"});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  std::string text = Read("memory/decisions/old-way.md");
  EXPECT_NE(text.find("status: replaced\nreplaced_by: new-way\n"), std::string::npos) << text;
  EXPECT_NE(text.find("---\n# Use SQLite\n\nWe keep **one** file.\n\n    indented code\n"),
            std::string::npos);
  EXPECT_TRUE(stdfs::exists(Store() + "/memory/decisions/new-way.md"));
}

TEST_F(MemoryTest, JsonOutcome) {
  auto w = Memory({"write", "decision", "use-sqlite", "--json"}, kDecision);
  ASSERT_EQ(w.exit_code, 0);
  Json j = Json::parse(w.out);
  EXPECT_EQ(j.dump(), Json({{"ok", true},
                            {"written", true},
                            {"path", Store() + "/memory/decisions/use-sqlite.md"},
                            {"errors", 0},
                            {"warnings", 0},
                            {"findings", Json::array()}})
                          .dump());
  auto again = Memory({"write", "decision", "use-sqlite", "--json"}, kDecision);
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(again.err, "");
  Json k = Json::parse(again.out);
  EXPECT_EQ(k["ok"], false);
  EXPECT_EQ(k["errors"], 1);
  EXPECT_EQ(k["findings"][0]["rule"], "slug-exists");
}

TEST_F(MemoryTest, UsageErrorsExitTwo) {
  EXPECT_EQ(Memory({"read", "bogus", "x"}).exit_code, 2);
  EXPECT_EQ(Memory({"read", "decision"}).exit_code, 2);
  EXPECT_EQ(Lore({"memory"}, Opts()).exit_code, 2);
  EXPECT_EQ(Memory({"replace", "decision", "x"}).exit_code, 2);  // --by is required
  auto missing = Memory({"read", "summary"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind("lore: no such summary: ", 0), 0u);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
