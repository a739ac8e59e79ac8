#include "teamsync/records.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace lore::teamsync {
namespace {

TEST(TeamRecords, DecideNeverOverwritesAChangeMadeOnBothSides) {
  using A = RecordAction;
  EXPECT_EQ(Decide("", "", ""), A::kNone);
  EXPECT_EQ(Decide("v1", "v1", "v1"), A::kAgree);
  EXPECT_EQ(Decide("v1", "", "v1"), A::kAgree) << "made alike on both";
  EXPECT_EQ(Decide("v1", "", ""), A::kPush) << "new here";
  EXPECT_EQ(Decide("v2", "v1", "v1"), A::kPush) << "changed here only";
  EXPECT_EQ(Decide("", "", "v1"), A::kPull) << "new on the team";
  EXPECT_EQ(Decide("v1", "v1", "v2"), A::kPull) << "changed elsewhere only";
  EXPECT_EQ(Decide("v2", "v1", "v3"), A::kConflict);
  EXPECT_EQ(Decide("v2", "", "v3"), A::kConflict) << "made differently on both";
  EXPECT_EQ(Decide("", "v1", "v1"), A::kNone) << "a deletion is not propagated";
  EXPECT_EQ(Decide("", "v1", "v2"), A::kPull);
}

TEST(TeamRecords, SharedRecordsAndTheirConflictCopies) {
  EXPECT_TRUE(IsSharedRecord("memory/summary.md"));
  EXPECT_TRUE(IsSharedRecord("memory/decisions/use-sqlite.md"));
  EXPECT_TRUE(IsSharedRecord("knowledge/caching.md"));
  EXPECT_FALSE(IsSharedRecord("memory/workflow/release.md"));
  EXPECT_FALSE(IsSharedRecord("memory/decisions/../x.md"));
  EXPECT_FALSE(IsSharedRecord("knowledge/a/b.md"));
  EXPECT_EQ(ConflictRel("memory/decisions/use-sqlite.md", "m1"),
            "team/conflicts/memory/decisions/use-sqlite.m1.md");
  testing::TempDir t;
  t.Write("team/conflicts/memory/decisions/use-sqlite.m1.md", "x");
  t.Write("team/conflicts/knowledge/caching.laptop-2.md", "y");
  t.Write("team/conflicts/knowledge/stray.txt", "z");
  auto c = ListConflicts(t.path());
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].record_rel, "knowledge/caching.md");
  EXPECT_EQ(c[0].machine, "laptop-2");
  EXPECT_EQ(c[1].copy_rel, "team/conflicts/memory/decisions/use-sqlite.m1.md");
  t.Write("memory/decisions/b.md", "b");
  t.Write("memory/decisions/a.md", "a");
  t.Write("memory/workflow/w.md", "w");
  t.Write("knowledge/k.md", "k");
  EXPECT_EQ(ListRecordFiles(t.path()),
            (std::vector<std::string>{"knowledge/k.md", "memory/decisions/a.md",
                                      "memory/decisions/b.md"}));
  EXPECT_NE(ContentVersion("a"), ContentVersion("b"));
  EXPECT_EQ(ContentVersion("a").size(), 16u);
}

TEST(TeamRecords, StateRoundTrips) {
  testing::TempDir t;
  RecordState s;
  s.synced["knowledge/k.md"] = "00000000000000aa";
  s.conflicts["memory/summary.md"] = "00000000000000bb";
  ASSERT_TRUE(SaveRecordState(t / "team/records-state.json", s));
  auto back = LoadRecordState(t / "team/records-state.json");
  ASSERT_TRUE(back) << back.error().Format();
  EXPECT_EQ(back->synced, s.synced);
  EXPECT_EQ(back->conflicts, s.conflicts);
  t.Write("bad.json", R"({"synced": {"../etc/passwd": "x"}})");
  EXPECT_FALSE(LoadRecordState(t / "bad.json"));
}

}  // namespace
}  // namespace lore::teamsync
