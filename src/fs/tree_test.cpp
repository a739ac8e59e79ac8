#include "lore/fs/tree.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "fs/exchange.h"
#include "support/temp_dir.h"

namespace lore::fs {
namespace {

namespace stdfs = std::filesystem;

TEST(RemoveTree, RemovesNestedFoldersAndFiles) {
  testing::TempDir t;
  t.Write("d/a.txt", "a");
  t.Write("d/e/f/b.txt", "b");
  ASSERT_EQ(::mkdir((t / "d/empty").c_str(), 0700), 0);
  ASSERT_TRUE(RemoveTree(t / "d"));
  EXPECT_FALSE(stdfs::exists(t / "d"));
}

TEST(RemoveTree, UnlinksSymlinksWithoutFollowingThem) {
  testing::TempDir t;
  t.Write("outside/keep.txt", "keep");
  t.Write("d/x.txt", "x");
  ASSERT_EQ(::symlink((t / "outside").c_str(), (t / "d/link").c_str()), 0);
  ASSERT_TRUE(RemoveTree(t / "d"));
  EXPECT_FALSE(stdfs::exists(t / "d"));
  EXPECT_EQ(t.Read("outside/keep.txt"), "keep");
}

TEST(RemoveTree, ASymlinkAtTheTopIsRemovedNotFollowed) {
  testing::TempDir t;
  t.Write("outside/keep.txt", "keep");
  ASSERT_EQ(::symlink((t / "outside").c_str(), (t / "link").c_str()), 0);
  ASSERT_TRUE(RemoveTree(t / "link"));
  EXPECT_FALSE(stdfs::is_symlink(t / "link"));
  EXPECT_EQ(t.Read("outside/keep.txt"), "keep");
}

TEST(RemoveTree, MissingIsFineAndFilesAreRemovedToo) {
  testing::TempDir t;
  EXPECT_TRUE(RemoveTree(t / "nothing"));
  t.Write("f.txt", "f");
  EXPECT_TRUE(RemoveTree(t / "f.txt"));
  EXPECT_FALSE(stdfs::exists(t / "f.txt"));
}

TEST(RemoveTree, AFailureNamesTheEntry) {
  if (::geteuid() == 0) GTEST_SKIP() << "root may remove anything";
  testing::TempDir t;
  t.Write("d/sub/x.txt", "x");
  ASSERT_EQ(::chmod((t / "d/sub").c_str(), 0500), 0);
  auto s = RemoveTree(t / "d");
  ::chmod((t / "d/sub").c_str(), 0700);
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().path.find("x.txt"), std::string::npos) << s.error().Format();
}

TEST(ExchangePaths, SwapsTwoFolders) {
  testing::TempDir t;
  t.Write("a/one.txt", "1");
  t.Write("b/two.txt", "2");
  auto r = ExchangePaths(t / "a", t / "b");
  ASSERT_TRUE(r) << r.error().Format();
  if (!*r) GTEST_SKIP() << "this file system cannot exchange";
  EXPECT_EQ(t.Read("a/two.txt"), "2");
  EXPECT_EQ(t.Read("b/one.txt"), "1");
}

TEST(ExchangePaths, AMissingSideIsAnError) {
  testing::TempDir t;
  t.Write("a/one.txt", "1");
  auto r = ExchangePaths(t / "a", t / "missing");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().Format().find("missing"), std::string::npos);
}

}  // namespace
}  // namespace lore::fs
