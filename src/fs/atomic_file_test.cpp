#include "lore/fs/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

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
