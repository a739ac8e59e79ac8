#include "lore/proposals/write_lock.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "lore/sys/process.h"
#include "support/temp_dir.h"

namespace lore::proposals {
namespace {

using namespace std::chrono_literals;

pid_t DeadPid() {
  pid_t pid = ::fork();
  if (pid == 0) _exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

std::string Body(int64_t pid, const std::string& host) {
  return R"({"pid":)" + std::to_string(pid) + R"(,"host":")" + host +
         R"(","acquiredAt":"2026-01-01T00:00:00.000Z"})";
}

ino_t Inode(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

TEST(WriteLockTest, TakesAndReleases) {
  testing::TempDir t;
  const std::string path = t / "proposals-write.lock";
  {
    auto lock = WriteLock::Acquire(path);
    ASSERT_TRUE(lock) << lock.error().Format();
    LockHolder h = ParseLockBody(t.Read("proposals-write.lock"));
    EXPECT_TRUE(h.readable);
    EXPECT_EQ(h.pid, ::getpid());
    EXPECT_EQ(h.host, sys::HostName());
    EXPECT_EQ(Judge(h, ::time(nullptr)), HolderState::kLive);
    // A second taker times out while we hold it.
    auto second = WriteLock::Acquire(path, 50ms);
    ASSERT_FALSE(second);
    EXPECT_EQ(second.error().code, ErrorCode::kBusy);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(t.path()), {}), 0);  // no temp left
}

TEST(WriteLockTest, StaleHolderOnThisHostIsReclaimed) {
  testing::TempDir t;
  const std::string path = t / "proposals-write.lock";
  const pid_t dead = DeadPid();
  t.Write("proposals-write.lock", Body(dead, sys::HostName()));
  auto lock = WriteLock::Acquire(path, 200ms);
  ASSERT_TRUE(lock) << lock.error().Format();
  EXPECT_EQ(lock->reclaimed().pid, dead);
  EXPECT_EQ(ParseLockBody(t.Read("proposals-write.lock")).pid, ::getpid());
}

TEST(WriteLockTest, LiveForeignAndUnreadableLocksAreLeftAlone) {
  testing::TempDir t;
  const std::string path = t / "proposals-write.lock";
  struct Case {
    std::string body;
    std::string expect;
  };
  const Case cases[] = {
      {Body(::getppid(), sys::HostName()), "timed out waiting for the proposals write lock held by pid"},
      {Body(DeadPid(), "elsewhere.invalid"), "(another host)"},
      {"garbage", "a body lore cannot read"},
  };
  for (const Case& c : cases) {
    t.Write("proposals-write.lock", c.body);
    const ino_t before = Inode(path);
    const auto start = std::chrono::steady_clock::now();
    auto lock = WriteLock::Acquire(path, 300ms);
    const auto waited = std::chrono::steady_clock::now() - start;
    ASSERT_FALSE(lock) << c.body;
    EXPECT_EQ(lock.error().code, ErrorCode::kBusy);
    EXPECT_NE(lock.error().Format().find(c.expect), std::string::npos) << lock.error().Format();
    EXPECT_EQ(lock.error().path, path);
    EXPECT_GE(waited, 300ms);
    EXPECT_LT(waited, 2s);
    EXPECT_EQ(t.Read("proposals-write.lock"), c.body);
    EXPECT_EQ(Inode(path), before);
  }
}

TEST(WriteLockTest, ReusedPidIsStale) {
  LockHolder h = ParseLockBody(Body(::getpid(), sys::HostName()));
  // A lock older than this process cannot be this process's.
  EXPECT_EQ(Judge(h, 1000), HolderState::kDead);
  EXPECT_EQ(Judge(h, ::time(nullptr)), HolderState::kLive);
}

TEST(WriteLockTest, SymlinkRefused) {
  testing::TempDir t;
  t.Write("target", Body(1, "x"));
  std::filesystem::create_symlink(t / "target", t / "proposals-write.lock");
  auto lock = WriteLock::Acquire(t / "proposals-write.lock", 100ms);
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().code, ErrorCode::kSymlink);
}

}  // namespace
}  // namespace lore::proposals
