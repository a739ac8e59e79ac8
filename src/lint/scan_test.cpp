#include "lore/lint/scan.h"

#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <filesystem>

#include "support/temp_dir.h"

namespace lore::lint {
namespace {

using doc::Kind;
using ::testing::ElementsAre;
using testing::TempDir;

constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources: []\n---\nb\n";

TEST(Scan, ListsValidMarkdownSlugsSorted) {
  TempDir t;
  t.Write("memory/decisions/b.md", kDecision);
  t.Write("memory/decisions/a.md", kDecision);
  t.Write("memory/decisions/.hidden.md", kDecision);
  t.Write("memory/decisions/notes.txt", "x");
  t.Write("memory/decisions/Bad.md", kDecision);
  t.Write("memory/decisions/sub.md/x.md", kDecision);
  auto slugs = ListSlugs(t.path(), Kind::kDecision);
  ASSERT_TRUE(slugs);
  EXPECT_THAT(*slugs, ElementsAre("a", "b"));
  EXPECT_THAT(*ListSlugs(t.path(), Kind::kRequest), ElementsAre());
  EXPECT_THAT(*ListSlugs(t.path(), Kind::kSummary), ElementsAre());
  t.Write("memory/summary.md", "---\n---\n");
  EXPECT_THAT(*ListSlugs(t.path(), Kind::kSummary), ElementsAre("summary"));
}

TEST(Scan, LoadsEveryKindAndLintsTheWholeStore) {
  TempDir t;
  t.Write("memory/summary.md", "---\nupdated_at: 2026-01-02T03:04:05Z\n---\nS\n");
  t.Write("memory/decisions/a.md", kDecision);
  t.Write("memory/requests/r.md", "---\nsources: []\n---\n");
  t.Write("knowledge/k.md", "not a record\n");
  t.Write("memory/workflow/w.md",
          "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: d\nrequires: [k, gone]\n---\n");
  t.Write("elsewhere.md", kDecision);
  ASSERT_EQ(::symlink((t / "elsewhere.md").c_str(), (t / "memory/decisions/link.md").c_str()), 0);
  auto store = LoadStore(t.path());
  ASSERT_TRUE(store);
  ASSERT_EQ(store->records.size(), 6u);
  EXPECT_EQ(store->records[0].kind, Kind::kSummary);
  EXPECT_EQ(store->records[1].slug, "a");
  EXPECT_FALSE(store->records[2].readable);  // link.md
  EXPECT_TRUE(store->view.Has(Kind::kKnowledge, "k"));
  EXPECT_FALSE(store->view.Has(Kind::kDecision, "link"));
  Report r = LintStore(*store);
  std::vector<std::string> rules;
  for (const Finding& f : r.findings)
    rules.push_back(f.rule + " " + std::filesystem::path(f.path).filename().string());
  EXPECT_THAT(rules, ElementsAre("unreadable link.md", "missing-field r.md", "missing-field r.md",
                                 "frontmatter k.md", "missing-reference w.md"));
}

TEST(Scan, ASymlinkedFolderIsReportedNotFollowed) {
  TempDir t;
  t.Write("real/x.md", kDecision);
  std::filesystem::create_directories(t / "memory");
  ASSERT_EQ(::symlink((t / "real").c_str(), (t / "memory/decisions").c_str()), 0);
  auto store = LoadStore(t.path());
  ASSERT_TRUE(store);
  EXPECT_TRUE(store->records.empty());
  ASSERT_EQ(store->problems.size(), 1u);
  EXPECT_EQ(store->problems[0].code, ErrorCode::kSymlink);
  EXPECT_EQ(LintStore(*store).findings.at(0).rule, "unreadable");
  EXPECT_FALSE(LoadStore(t / "missing"));
}

std::vector<std::string> Lines(const Report& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) out.push_back(f.Format());
  return out;
}

// `lore lint`'s one pass gives LintStore's findings, in its order: on a small
// store, and on one large enough to be read by several threads.
TEST(Scan, LintStoreAtGivesTheFindingsOfLoadAndLint) {
  for (int records : {3, 700}) {
    TempDir t;
    t.Write("memory/summary.md", "---\n---\nS\n");
    t.Write("memory/requests/r.md", "---\nsources: []\n---\n");
    t.Write("knowledge/k.md", "not a record\n");
    t.Write("memory/workflow/w.md",
            "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: d\nrequires: [k, gone]\n---\n");
    for (int i = 0; i < records; ++i) {
      std::string replaced = i % 3 == 1 ? "status: replaced\nreplaced_by: d" +
                                              std::to_string(i % 7 ? i + 1 : i - 1) + "\n"
                                        : "status: open\n";
      t.Write("memory/decisions/d" + std::to_string(i) + ".md",
              "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n" +
                  replaced + "sources: []\n---\nb\n");
    }
    t.Write("memory/decisions/Bad.md", kDecision);
    auto loaded = LoadStore(t.path());
    ASSERT_TRUE(loaded);
    auto linted = LintStoreAt(t.path());
    ASSERT_TRUE(linted);
    EXPECT_EQ(linted->records, loaded->records.size());
    Report want = LintStore(*loaded);
    EXPECT_GT(want.findings.size(), 3u);
    EXPECT_EQ(Lines(linted->report), Lines(want));
  }
  EXPECT_FALSE(LintStoreAt("/nonexistent/store"));
}

// `lore check` asks only which records cannot be read or parsed.
TEST(Scan, LintStoreAtReadableGivesOnlyTheUnreadableAndUnparsed) {
  TempDir t;
  t.Write("memory/requests/r.md", "---\nsources: []\n---\n");  // missing fields: not asked
  t.Write("knowledge/k.md", "not a record\n");
  t.Write("memory/decisions/a.md", kDecision);
  t.Write("elsewhere.md", kDecision);
  ASSERT_EQ(::symlink((t / "elsewhere.md").c_str(), (t / "memory/decisions/link.md").c_str()), 0);
  auto r = LintStoreAt(t.path(), Checks::kReadable);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->records, 4u);
  std::vector<std::string> rules;
  for (const Finding& f : r->report.findings)
    rules.push_back(f.rule + " " + std::filesystem::path(f.path).filename().string());
  EXPECT_THAT(rules, ElementsAre("unreadable link.md", "frontmatter k.md"));
}

}  // namespace
}  // namespace lore::lint
