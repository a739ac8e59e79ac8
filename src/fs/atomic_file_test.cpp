#include "fs/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "fs/temp_name.h"
#include "support/temp_dir.h"

namespace lore::fs {
namespace {

size_t Entries(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(AtomicFile, CommitReplacesContentsWithMode0600) {
  testing::TempDir t;
  t.Write("f.txt", "old");
  ASSERT_TRUE(WriteFileAtomic(t / "f.txt", "new contents"));
  EXPECT_EQ(t.Read("f.txt"), "new contents");
  struct stat st;
  ASSERT_EQ(::stat((t / "f.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(Entries(t.path()), 1u);  // no temporary left behind
}

TEST(AtomicFile, UncommittedLeavesOldFileAndNoTemp) {
  testing::TempDir t;
  t.Write("f.txt", "old");
  {
    auto f = AtomicFile::Create(t / "f.txt");
    ASSERT_TRUE(f);
    ASSERT_TRUE(f->Write("half of the new"));
    EXPECT_TRUE(std::filesystem::exists(f->temp_path()));
  }
  EXPECT_EQ(t.Read("f.txt"), "old");
  EXPECT_EQ(Entries(t.path()), 1u);
}

TEST(AtomicFile, RefusesSymlinkTarget) {
  testing::TempDir t;
  t.Write("real.txt", "x");
  ASSERT_EQ(::symlink((t / "real.txt").c_str(), (t / "link.txt").c_str()), 0);
  auto s = WriteFileAtomic(t / "link.txt", "y");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().code, ErrorCode::kSymlink);
  EXPECT_EQ(t.Read("real.txt"), "x");
}

TEST(AtomicFile, MissingDirectoryIsAnErrorNamingThePath) {
  testing::TempDir t;
  auto s = WriteFileAtomic(t / "no/such/dir/f.txt", "y");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().Format().find("no/such/dir"), std::string::npos);
}

TEST(AtomicFile, TemporaryFollowsTheSchemeWithThisPid) {
  testing::TempDir t;
  auto f = AtomicFile::Create(t / "f.txt");
  ASSERT_TRUE(f);
  auto parsed = ParseTempName(Basename(f->temp_path()));
  ASSERT_TRUE(parsed) << f->temp_path();
  EXPECT_EQ(parsed->base, "f.txt");
  EXPECT_EQ(parsed->pid, ::getpid());
  EXPECT_EQ(Dirname(f->temp_path()), t.path());
}

TEST(AtomicFile, VisibleOnlyStillReplacesAtomically) {
  testing::TempDir t;
  t.Write("c.json", "old");
  ASSERT_TRUE(WriteFileAtomic(t / "c.json", "new", 0600, Durability::kVisibleOnly));
  EXPECT_EQ(t.Read("c.json"), "new");
  EXPECT_EQ(Entries(t.path()), 1u);
}

TEST(WriteNewFile, CreatesWithModeAndRefusesAnExistingFile) {
  testing::TempDir t;
  ::umask(022);
  ASSERT_TRUE(WriteNewFile(t / "n.txt", "data", 0600));
  EXPECT_EQ(t.Read("n.txt"), "data");
  struct stat st;
  ASSERT_EQ(::stat((t / "n.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = WriteNewFile(t / "n.txt", "other");
  ASSERT_FALSE(again);
  EXPECT_EQ(t.Read("n.txt"), "data");
}

TEST(Paths, AbsoluteIsLexical) {
  EXPECT_EQ(Absolute("/a/./b/../c//d/"), "/a/c/d");
  EXPECT_EQ(Absolute("/.."), "/");
  EXPECT_EQ(Absolute("x").front(), '/');
  EXPECT_EQ(Dirname("/a/b"), "/a");
  EXPECT_EQ(Dirname("/a"), "/");
  EXPECT_EQ(Basename("/a/b/"), "b");
}

}  // namespace
}  // namespace lore::fs
