#include "lore/agent_setup/install.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "lore/agent_setup/review_command.h"
#include "support/temp_dir.h"

namespace lore::agent_setup {
namespace {

using testing::TempDir;
namespace sfs = std::filesystem;

std::chrono::system_clock::time_point At(int64_t secs) {
  return std::chrono::system_clock::time_point(std::chrono::seconds(secs));
}

mode_t ModeOf(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(AgentSetupInstall, PlansThreeFilesAndWritesThem) {
  TempDir dir;
  auto plan = PlanInstall("claude-code", dir.path());
  ASSERT_TRUE(plan) << plan.error().Format();
  ASSERT_EQ(plan->files.size(), 3u);
  EXPECT_TRUE(plan->changed());
  EXPECT_FALSE(sfs::exists(dir / ".claude"));  // planning writes nothing
  auto done = Apply(*plan, At(1764591396));
  ASSERT_TRUE(done) << done.error().Format();
  EXPECT_EQ(done->size(), 3u);
  EXPECT_EQ(dir.Read(std::string(kReviewCommandRel)), ReviewCommandText());
  EXPECT_EQ(ModeOf(dir / ".mcp.json"), 0600u);
  EXPECT_EQ(ModeOf(dir / ".claude"), 0700u);
  auto again = PlanInstall("claude-code", dir.path());
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->changed());
}

TEST(AgentSetupInstall, BackupKeepsOldBytesAndModeIsKept) {
  TempDir dir;
  dir.Write(".mcp.json", "{\"mcpServers\": {}}");
  ASSERT_EQ(::chmod((dir / ".mcp.json").c_str(), 0640), 0);
  auto plan = PlanInstall("claude-code", dir.path());
  ASSERT_TRUE(plan);
  auto done = Apply(*plan, At(1764591396));
  ASSERT_TRUE(done) << done.error().Format();
  const std::string backup = dir / ".mcp.json.lore-backup-20251201T121636Z";
  EXPECT_EQ(dir.Read(".mcp.json.lore-backup-20251201T121636Z"), "{\"mcpServers\": {}}");
  EXPECT_EQ(ModeOf(backup), 0600u);
  EXPECT_EQ(ModeOf(dir / ".mcp.json"), 0640u);
  // A second change within the same second gets its own backup name.
  dir.Write(".mcp.json", "{}");
  auto plan2 = PlanInstall("claude-code", dir.path());
  ASSERT_TRUE(plan2);
  ASSERT_TRUE(Apply(*plan2, At(1764591396)));
  EXPECT_EQ(dir.Read(".mcp.json.lore-backup-20251201T121636Z-2"), "{}");
}

TEST(AgentSetupInstall, FileChangedSincePlanningIsRefused) {
  TempDir dir;
  auto plan = PlanInstall("claude-code", dir.path());
  ASSERT_TRUE(plan);
  dir.Write(".claude/settings.json", "{\"model\": \"x\"}");
  auto done = Apply(*plan, At(0));
  ASSERT_FALSE(done);
  EXPECT_EQ(done.error().code, ErrorCode::kBusy);
  EXPECT_EQ(dir.Read(".claude/settings.json"), "{\"model\": \"x\"}");
}

TEST(AgentSetupInstall, SymlinksAreRefused) {
  TempDir dir;
  dir.Write("real.json", "{}");
  sfs::create_directories(dir / ".claude");
  sfs::create_symlink(dir / "real.json", dir / ".claude/settings.json");
  auto plan = PlanInstall("claude-code", dir.path());
  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().code, ErrorCode::kSymlink);
  EXPECT_EQ(plan.error().path, dir / ".claude/settings.json");

  TempDir other;
  sfs::create_directory_symlink(dir.path(), other / ".claude");
  auto linked = PlanInstall("claude-code", other.path());
  ASSERT_FALSE(linked);
  EXPECT_EQ(linked.error().code, ErrorCode::kSymlink);
}

TEST(AgentSetupInstall, UnknownAgentAndMissingProject) {
  TempDir dir;
  EXPECT_EQ(PlanInstall("vim", dir.path()).error().code, ErrorCode::kInvalidInput);
  EXPECT_FALSE(PlanInstall("claude-code", dir / "missing"));
}

TEST(AgentSetupBinary, ResolvesLikeAShell) {
  TempDir dir;
  dir.Write("a/lore", "#!/bin/sh\n");
  dir.Write("b/lore", "#!/bin/sh\n");
  ASSERT_EQ(::chmod((dir / "b/lore").c_str(), 0700), 0);  // a/lore is not executable
  sfs::create_directories(dir / "c/lore");                // a folder, skipped
  const std::string path = dir / "c" + ":" + dir / "a" + ":" + dir / "b";
  EXPECT_EQ(ResolveOnPath("lore", path, "/"), dir / "b/lore");
  EXPECT_EQ(ResolveOnPath("lore", dir / "a", "/"), "");
  EXPECT_EQ(ResolveOnPath("lore", "::", dir / "b"), dir / "b/lore");  // empty entry: cwd
  sfs::create_symlink(dir / "b/lore", dir / "link");
  EXPECT_TRUE(SameFile(dir / "link", dir / "b/lore"));
  EXPECT_FALSE(SameFile(dir / "a/lore", dir / "b/lore"));
  EXPECT_FALSE(SameFile(dir / "none", dir / "none"));
}

}  // namespace
}  // namespace lore::agent_setup
