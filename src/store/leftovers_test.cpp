#include "store/leftovers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "support/temp_dir.h"

namespace lore::store {
namespace {

namespace stdfs = std::filesystem;

// The pid of a process that has exited and been reaped.
pid_t DeadPid() {
  pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

class LeftoversTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(store_.Ensure(std::chrono::system_clock::now())); }
  std::string Name(const std::string& base, const char* what, pid_t pid) const {
    return "." + base + "." + what + "." + std::to_string(pid) + ".0000abcd";
  }
  std::vector<std::string> Found() const {
    std::vector<std::string> out;
    for (const auto& l : FindLeftovers(store_)) out.push_back(l.path);
    return out;
  }

  testing::TempDir t_;
  Store store_ = Store::AtDir(t_ / "root", "example.com_a_b");
  pid_t dead_ = DeadPid();
};

TEST_F(LeftoversTest, ListsDeadWritersTemporariesAndLeavesLiveOnes) {
  const std::string dead_file = store_.Path(Name("raw.jsonl", "tmp", dead_));
  const std::string deep_file = store_.Path("memory/decisions/" + Name("x.md", "tmp", dead_));
  const std::string live_file = store_.Path(Name("raw.jsonl", "tmp", ::getpid()));
  const std::string skeleton = t_ / ("root/" + Name(store_.key(), "new", dead_));
  const std::string import = t_ / ("root/" + Name("import", "new", dead_));
  const std::string other = t_ / ("root/" + Name("other_key", "new", dead_));
  for (const auto& f : {dead_file, deep_file, live_file}) {
    stdfs::create_directories(stdfs::path(f).parent_path());
    std::ofstream(f) << "half";
  }
  for (const auto& d : {skeleton, import, other}) stdfs::create_directories(d + "/okf");

  EXPECT_EQ(Found(), (std::vector<std::string>{skeleton, import, dead_file, deep_file}));
  EXPECT_TRUE(store_.CheckAll().empty());  // leftovers are not problems of the store
  auto found = FindLeftovers(store_);
  ASSERT_EQ(found.size(), 4u);
  std::string line = LeftoverProblem(found[2]).Format();
  EXPECT_NE(line.find("pid " + std::to_string(dead_)), std::string::npos) << line;
  EXPECT_NE(line.find(dead_file), std::string::npos) << line;
  EXPECT_NE(line.find("run lore check --repair"), std::string::npos) << line;

  std::vector<std::string> removed;
  ASSERT_TRUE(RemoveLeftovers(store_, &removed));
  EXPECT_EQ(removed.size(), 4u);
  EXPECT_TRUE(store_.CheckAll().empty());
  EXPECT_TRUE(stdfs::exists(live_file));
  EXPECT_TRUE(stdfs::exists(other));  // another store's: its own check sweeps it
  EXPECT_FALSE(stdfs::exists(skeleton));
}

TEST_F(LeftoversTest, BundleFoldersOfAKilledDistillGoOnlyWhileOkfIsInPlace) {
  stdfs::create_directories(store_.Path(".okf.new"));
  t_.Write("root/example.com_a_b/.okf.new/index.md", "half");
  EXPECT_EQ(Found(), (std::vector<std::string>{store_.Path(".okf.new")}));
  stdfs::rename(store_.okf_dir(), store_.Path(".okf.old"));  // between the two renames
  EXPECT_TRUE(Found().empty());  // all that is left of okf/: lore distill restores it
  stdfs::rename(store_.Path(".okf.old"), store_.okf_dir());
  ASSERT_TRUE(RemoveLeftovers(store_, nullptr));
  EXPECT_FALSE(stdfs::exists(store_.Path(".okf.new")));
  EXPECT_TRUE(stdfs::exists(store_.index_path()));
}

TEST_F(LeftoversTest, SymlinkedFoldersAreNotFollowed) {
  t_.Write("elsewhere/" + Name("f", "tmp", dead_), "x");
  stdfs::create_symlink(t_ / "elsewhere", store_.Path("memory"));
  EXPECT_TRUE(Found().empty());
}

}  // namespace
}  // namespace lore::store
