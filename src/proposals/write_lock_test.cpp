#include "lore/proposals/write_lock.h"

#include <fcntl.h>
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
    auto h = ParseLockBody(t.Read("proposals-write.lock"));
    ASSERT_TRUE(h);
    EXPECT_EQ(h->pid, ::getpid());
    EXPECT_EQ(h->host, sys::HostName());
    EXPECT_EQ(fs::Judge(h, std::chrono::system_clock::now()), fs::HolderState::kLive);
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
  ASSERT_TRUE(lock->reclaimed());
  EXPECT_EQ(lock->reclaimed()->pid, dead);
  EXPECT_EQ(ParseLockBody(t.Read("proposals-write.lock"))->pid, ::getpid());
}

TEST(WriteLockTest, LiveForeignAndUnreadableLocksAreLeftAlone) {
  testing::TempDir t;
  const std::string path = t / "proposals-write.lock";
  struct Case {
    std::string body;
    std::string expect;
  };
  const Case cases[] = {
      {Body(::getppid(), sys::HostName()),
       "timed out waiting for the proposals write lock held by pid"},
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

TEST(WriteLockTest, TheBodyIsTheOriginalToolsHolder) {
  auto h = ParseLockBody(Body(42, "h1"));
  ASSERT_TRUE(h);
  EXPECT_EQ(h->pid, 42);
  EXPECT_EQ(h->host, "h1");
  EXPECT_EQ(h->since, "2026-01-01T00:00:00.000Z");
  EXPECT_EQ(RenderLockBody(*h), Body(42, "h1"));
  EXPECT_FALSE(ParseLockBody("garbage"));
  EXPECT_FALSE(ParseLockBody(R"({"pid":0,"host":"h"})"));
  EXPECT_FALSE(ParseLockBody(R"({"pid":7})"));
}

// A lock older than this process cannot be this process's: its pid was
// reused, and the lock is reclaimed.
TEST(WriteLockTest, ALockOfAReusedPidIsReclaimed) {
  testing::TempDir t;
  const std::string path = t / "proposals-write.lock";
  t.Write("proposals-write.lock", Body(::getpid(), sys::HostName()));
  struct timespec old[2] = {{1000, 0}, {1000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), old, 0), 0);
  auto lock = WriteLock::Acquire(path, 200ms);
  ASSERT_TRUE(lock) << lock.error().Format();
  ASSERT_TRUE(lock->reclaimed());
  EXPECT_EQ(lock->reclaimed()->pid, ::getpid());
}

// The store lock comes with it: an export (shared) waits for a propose.
TEST(WriteLockTest, HoldsTheStoreLock) {
  testing::TempDir t;
  {
    auto lock = WriteLock::Acquire(t / "proposals-write.lock");
    ASSERT_TRUE(lock) << lock.error().Format();
    auto reader = store::StoreLock::Acquire(t.path(), fs::LockMode::kShared, 0ms);
    ASSERT_FALSE(reader);
    EXPECT_EQ(reader.error().code, ErrorCode::kBusy);
  }
  EXPECT_TRUE(store::StoreLock::Acquire(t.path(), fs::LockMode::kShared, 0ms));
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
