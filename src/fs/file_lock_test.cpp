#include "lore/fs/file_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "lore/sys/process.h"
#include "support/temp_dir.h"

namespace lore::fs {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::system_clock;

pid_t DeadPid() {
  pid_t pid = ::fork();
  if (pid == 0) _exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

Holder Me() { return Holder{::getpid(), sys::HostName(), "2026-01-01T00:00:00.000Z"}; }

ino_t Inode(const std::string& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

// True once some process waits in flock(2) for the inode `ino` (a "->" line
// of /proc/locks), polled for at most five seconds.
bool SomeoneWaitsFor(ino_t ino) {
  const std::string tail = ":" + std::to_string(ino) + " ";
  for (auto end = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < end;) {
    auto locks = ReadFile("/proc/locks", Kind::kState);
    if (!locks) return false;
    size_t at = 0;
    while ((at = locks->find("->", at)) != std::string::npos) {
      size_t eol = locks->find('\n', at);
      if (locks->substr(at, eol - at).find(tail) != std::string::npos) return true;
      at = eol;
    }
    std::this_thread::sleep_for(1ms);
  }
  return false;
}

// The one judgement: live, dead, reused, another host's, unreadable.
TEST(LockJudge, LiveHolder) { EXPECT_EQ(Judge(Me(), Clock::now()), HolderState::kLive); }

TEST(LockJudge, DeadPidOnThisHost) {
  Holder h = Me();
  h.pid = DeadPid();
  EXPECT_EQ(Judge(h, Clock::now()), HolderState::kDead);
}

TEST(LockJudge, ReusedPidIsDead) {
  // This process started after a lock taken in 1970: its pid was reused.
  EXPECT_EQ(Judge(Me(), Clock::from_time_t(1000)), HolderState::kDead);
}

TEST(LockJudge, AnotherHostsHolderIsNeverJudgedDead) {
  Holder h = Me();
  h.host = "elsewhere.invalid";
  h.pid = DeadPid();
  EXPECT_EQ(Judge(h, Clock::from_time_t(1000)), HolderState::kForeign);
}

TEST(LockJudge, NoHolderNamed) {
  EXPECT_EQ(Judge(std::nullopt, Clock::now()), HolderState::kUnreadable);
  EXPECT_EQ(Judge(Holder{0, "h", ""}, Clock::now()), HolderState::kUnreadable);
  EXPECT_EQ(Judge(Holder{7, "", ""}, Clock::now()), HolderState::kUnreadable);
}

TEST(LockJudge, OneWordingOfBusy) {
  Holder h{42, "h1", "2026-01-01T00:00:00.000Z"};
  auto live = BusyError("the x lock", "/s/x.lock", h, HolderState::kLive);
  EXPECT_EQ(live.code, ErrorCode::kBusy);
  EXPECT_EQ(live.Format(),
            "timed out waiting for the x lock held by pid 42 on host h1 since "
            "2026-01-01T00:00:00.000Z: /s/x.lock; retry when that process has finished");
  EXPECT_EQ(BusyError("the x lock", "/s/x.lock", h, HolderState::kForeign).Format(),
            "the x lock is held by pid 42 on host h1 since 2026-01-01T00:00:00.000Z (another "
            "host): /s/x.lock; lore never breaks another host's lock: if no lore process runs on "
            "h1, remove the lock file by hand");
  EXPECT_EQ(BusyError("the x lock", "/s/x.lock", std::nullopt, HolderState::kUnreadable).Format(),
            "the x lock has a body lore cannot read: /s/x.lock; if no lore process is using this "
            "store, remove the lock file by hand");
  EXPECT_EQ(BusyError("the store lock", "/s").Format(),
            "timed out waiting for the store lock: /s; another lore process holds it; retry when "
            "it has finished");
}

TEST(FileLockTest, ASecondTakerWaitsThenGivesUp) {
  testing::TempDir t;
  auto first = FileLock::Acquire(t / "a.lock", LockMode::kExclusive);
  ASSERT_TRUE(first);
  const auto start = std::chrono::steady_clock::now();
  auto second = FileLock::Acquire(t / "a.lock", {LockMode::kShared, 30ms, LockTarget::kFile, "A"});
  ASSERT_FALSE(second);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
  EXPECT_EQ(second.error().Format(),
            "timed out waiting for A: " + (t / "a.lock") +
                "; another lore process holds it; retry when it has finished");
  first->Release();
  EXPECT_TRUE(FileLock::TryAcquire(t / "a.lock", LockMode::kShared));
  EXPECT_TRUE(std::filesystem::exists(t / "a.lock"));  // a kFile stays
}

TEST(FileLockTest, UnlockFdLetsAnotherTakeIt) {
  testing::TempDir t;
  t.Write("log", "");
  auto fd = Open(t / "log", O_RDONLY);
  ASSERT_TRUE(fd);
  ASSERT_TRUE(LockFd(fd->get(), LockMode::kExclusive, t / "log"));
  auto other = Open(t / "log", O_RDONLY);
  EXPECT_FALSE(LockFd(other->get(), LockMode::kShared, t / "log", 0ms));
  UnlockFd(fd->get());
  EXPECT_TRUE(LockFd(other->get(), LockMode::kShared, t / "log", 0ms));
}

TEST(FileLockTest, AnOwnedFileLivesAsLongAsItsHolder) {
  testing::TempDir t;
  const std::string path = t / "run.lock";
  const LockOptions owned{LockMode::kExclusive, 0ms, LockTarget::kOwnedFile, "the run lock"};
  {
    auto lock = FileLock::Acquire(path, owned);
    ASSERT_TRUE(lock) << lock.error().Format();
    EXPECT_EQ(lock->left_body(), "");
    ASSERT_TRUE(lock->Publish("{\"pid\":1}\n"));
    ASSERT_TRUE(lock->Publish("me\n"));  // replaced in place
    EXPECT_EQ(t.Read("run.lock"), "me\n");
    auto busy = FileLock::Acquire(path, owned);
    ASSERT_FALSE(busy);
    EXPECT_EQ(busy.error().code, ErrorCode::kBusy);
    auto view = PeekLockFile(path);
    ASSERT_TRUE(view && *view);
    EXPECT_EQ((*view)->body, "me\n");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  auto none = PeekLockFile(path);
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
}

TEST(FileLockTest, WhatADeadHolderLeftIsTakenOver) {
  testing::TempDir t;
  const std::string path = t / "run.lock";
  t.Write("run.lock", "left by the dead\n");  // the flock died with its holder
  auto lock = FileLock::Acquire(path, {LockMode::kExclusive, 0ms, LockTarget::kOwnedFile});
  ASSERT_TRUE(lock);
  EXPECT_EQ(lock->left_body(), "left by the dead\n");
  EXPECT_EQ(t.Read("run.lock"), "");
}

// A folder exchanged while a taker waits for it (an import swapping the
// store): the taker ends up holding the folder now at the path.
TEST(FileLockTest, AFolderExchangedWhileWaitingIsTakenAnew) {
  testing::TempDir t;
  std::filesystem::create_directory(t / "store");
  const LockOptions folder{LockMode::kExclusive, kWaitForever, LockTarget::kFolder,
                           "the store lock"};
  auto held = FileLock::Acquire(t / "store", folder);
  ASSERT_TRUE(held);
  ino_t got = 0;
  std::thread waiter([&] {
    auto lock = FileLock::Acquire(t / "store", folder);
    struct stat st;
    if (lock && ::fstat(lock->fd(), &st) == 0) got = st.st_ino;
  });
  const bool waiting = SomeoneWaitsFor(Inode(t / "store"));
  std::filesystem::rename(t / "store", t / "old");
  std::filesystem::create_directory(t / "store");
  held->Release();
  waiter.join();
  ASSERT_TRUE(waiting);
  EXPECT_EQ(got, Inode(t / "store"));
  EXPECT_NE(got, Inode(t / "old"));
  auto missing = FileLock::Acquire(t / "none", folder);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace lore::fs
