// Memory and knowledge records across machines: a change travels, a record
// changed on two machines since their common version is never overwritten
// (both kept, reported by sync, lint and status), and resolving it syncs.
#include "e2e/team_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using TeamRecordsTest = TeamTest;

constexpr const char* kDecision = "memory/decisions/use-sqlite.md";

std::string Decision(const std::string& body) {
  return "---\ntitle: Use SQLite\nstatus: accepted\ndate: 2026-11-30\n---\n" + body + "\n";
}

TEST_F(TeamRecordsTest, AChangeTravelsAndAConflictKeepsBothVersions) {
  MakeMachine(1);
  MakeMachine(2);
  ASSERT_EQ(Team(1, "init").exit_code, 0);
  const std::string rel1 = std::string("m1/") + kTeamKey + "/" + kDecision;
  const std::string rel2 = std::string("m2/") + kTeamKey + "/" + kDecision;
  t_.Write(rel1, Decision("We keep the index in SQLite."));
  ASSERT_EQ(Sync(1).exit_code, 0);
  ASSERT_EQ(Sync(2).exit_code, 0);
  EXPECT_EQ(t_.Read(rel2), Decision("We keep the index in SQLite.")) << "the decision travelled";
  // Both edit it before syncing again.
  t_.Write(rel1, Decision("We keep the index in SQLite, WAL mode."));
  t_.Write(rel2, Decision("We keep the index in SQLite, FTS5."));
  ASSERT_EQ(Sync(1).exit_code, 0);
  auto r = Sync(2);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(std::string(kDecision) + " changed here and on another machine"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(t_.Read(rel2), Decision("We keep the index in SQLite, FTS5.")) << "never overwritten";
  const std::string copy =
      std::string("m2/") + kTeamKey + "/team/conflicts/memory/decisions/use-sqlite.m1.md";
  EXPECT_EQ(t_.Read(copy), Decision("We keep the index in SQLite, WAL mode.")) << "both kept";
  auto lint = Lore({"lint", kTeamRepo}, Opts(2));
  EXPECT_NE(
      (lint.out + lint.err)
          .find(
              "warning: memory/decisions/use-sqlite.md changed here and on m1 since the last sync"),
      std::string::npos)
      << lint.out << lint.err;
  auto status = Team(2, "status");
  EXPECT_NE(status.out.find("conflict: " + std::string(kDecision)), std::string::npos)
      << status.out;
  // A person merges and removes the copy: the next sync pushes the merge.
  t_.Write(rel2, Decision("We keep the index in SQLite, WAL mode and FTS5."));
  std::filesystem::remove(t_ / copy);
  auto merged = Sync(2);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.err.find("changed here and on another machine"), std::string::npos)
      << merged.err;
  ASSERT_EQ(Sync(1).exit_code, 0);
  EXPECT_EQ(t_.Read(rel1), Decision("We keep the index in SQLite, WAL mode and FTS5."));
  EXPECT_EQ(Team(1, "status").out.find("conflict:"), std::string::npos);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
