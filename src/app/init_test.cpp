#include "lore/app/init.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace lore::app {
namespace {

namespace as = agent_setup;

// A project and a HOME of their own, and a PATH without lore (each test is
// its own process: the environment is this test's).
class AppInitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(t_ / "home");
    std::filesystem::create_directories(t_ / "project");
    std::filesystem::create_directories(t_ / "bin");
    ::setenv("HOME", (t_ / "home").c_str(), 1);
    ::setenv("CODEX_HOME", (t_ / "home/.codex").c_str(), 1);
    ::setenv("PATH", (t_ / "bin").c_str(), 1);
    project_ = t_ / "project";
  }
  void Install(as::Scope scope) {
    auto plan = PlanInit("claude-code", project_, scope);
    ASSERT_TRUE(plan) << plan.error().Format();
    ASSERT_TRUE(plan->changed());
    auto applied = ApplyInit(*plan, std::chrono::system_clock::now());
    ASSERT_TRUE(applied) << applied.error().Format();
  }

  testing::TempDir t_;
  std::string project_;
};

TEST_F(AppInitTest, ClaudeCodeHasThreeScopesTheOthersTwo) {
  EXPECT_EQ(InitScopes("claude-code").size(), 3u);
  EXPECT_EQ(InitScopes("codex"), (std::vector<as::Scope>{as::Scope::kProject, as::Scope::kUser}));
  EXPECT_EQ(InitScopeNamed("local"), as::Scope::kLocal);
  EXPECT_EQ(InitScopeNamed("elsewhere"), as::Scope::kProject);
}

TEST_F(AppInitTest, ScopesAndStatesHaveTheNamesInitPrints) {
  for (as::Scope s : InitScopes("claude-code")) EXPECT_EQ(InitScopeNamed(InitScopeName(s)), s);
  EXPECT_EQ(InitScopeName(as::Scope::kLocal), "local");
  EXPECT_EQ(PieceStateName(as::PieceState::kInstalled), "installed");
  EXPECT_EQ(PieceStateName(as::PieceState::kMissing), "missing");
  EXPECT_EQ(PieceStateName(as::PieceState::kDifferent), "different");
}

TEST_F(AppInitTest, AFreshClaudeCodePlanAddsLoresPermissionOnce) {
  EXPECT_EQ(LorePermission(), "mcp__lore");
  auto plan = PlanInit("claude-code", project_, as::Scope::kLocal);
  ASSERT_TRUE(plan) << plan.error().Format();
  int adds = 0;
  for (const as::Piece& p : plan->pieces) adds += AddsLorePermission(p);
  EXPECT_EQ(adds, 1);
  Install(as::Scope::kLocal);
  auto again = PlanInit("claude-code", project_, as::Scope::kLocal);
  ASSERT_TRUE(again) << again.error().Format();
  for (const as::Piece& p : again->pieces) EXPECT_FALSE(AddsLorePermission(p)) << p.name;
  EXPECT_FALSE(AddsLorePermission(
      as::Piece{".claude/settings.json", "hook SessionStart", as::PieceState::kMissing, ""}));
}

TEST_F(AppInitTest, TheScopeFollowsTheHooksElseTheContributors) {
  bool asked = false;
  auto alone = ChooseInitScope("claude-code", project_, [&] {
    asked = true;
    return false;
  });
  EXPECT_TRUE(asked);
  EXPECT_EQ(alone.scope, as::Scope::kProject);
  EXPECT_EQ(ChooseInitScope("claude-code", project_, [] { return true; }).scope, as::Scope::kLocal);
  asked = false;
  auto codex = ChooseInitScope("codex", project_, [&] {
    asked = true;
    return true;
  });
  EXPECT_FALSE(asked) << "git is run only for Claude Code";
  EXPECT_EQ(codex.scope, as::Scope::kProject);

  Install(as::Scope::kUser);
  auto there = ChooseInitScope("claude-code", project_, [] { return true; });
  EXPECT_EQ(there.scope, as::Scope::kUser);
  EXPECT_EQ(there.why, "where lore's hooks already are");
}

TEST_F(AppInitTest, CheckFindsTheInstalledScopeAndHooksInTwo) {
  auto before = CheckInit("claude-code", project_, project_);
  EXPECT_FALSE(before.installed);
  EXPECT_FALSE(before.ok);
  EXPECT_TRUE(before.hook_scopes.empty());
  EXPECT_TRUE(before.binary.on_path.empty()) << "no lore on this PATH";

  Install(as::Scope::kProject);
  auto after = CheckInit("claude-code", project_, project_);
  EXPECT_TRUE(after.installed);
  ASSERT_TRUE(after.active);
  EXPECT_EQ(after.plans[*after.active].scope, as::Scope::kProject);
  EXPECT_EQ(after.hook_scopes, std::vector<std::string>{"project"});
  EXPECT_FALSE(after.ok) << "the hooks would not run this lore";
  EXPECT_EQ(ScopesWithLore("claude-code", project_), std::vector<as::Scope>{as::Scope::kProject});

  Install(as::Scope::kLocal);
  auto twice = CheckInit("claude-code", project_, project_);
  EXPECT_EQ(twice.hook_scopes, (std::vector<std::string>{"project", "local"}));
  auto local = PlanInit("claude-code", project_, as::Scope::kLocal);
  ASSERT_TRUE(local) << local.error().Format();
  auto other = HooksInOtherScopes("claude-code", *local);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(other[0].first, as::Scope::kProject);
  EXPECT_NE(other[0].second.find(".claude/settings.json"), std::string::npos) << other[0].second;
}

TEST_F(AppInitTest, ADryRunShowsEachFilesDiffAndRemovalUndoesTheInstall) {
  auto plan = PlanInit("claude-code", project_, as::Scope::kProject);
  ASSERT_TRUE(plan) << plan.error().Format();
  ASSERT_FALSE(plan->files.empty());
  EXPECT_NE(FileDiff(plan->files.front()).find("+"), std::string::npos);
  EXPECT_EQ(PiecesPresent(*plan), 0u);
  EXPECT_FALSE(AllInstalled(*plan));

  Install(as::Scope::kProject);
  auto removal = PlanInitRemoval("claude-code", project_, as::Scope::kProject);
  ASSERT_TRUE(removal) << removal.error().Format();
  ASSERT_TRUE(removal->changed());
  ASSERT_TRUE(ApplyInit(*removal, std::chrono::system_clock::now()));
  EXPECT_TRUE(ScopesWithLore("claude-code", project_).empty());
}

}  // namespace
}  // namespace lore::app
