#include "lore/consolidate/run_lock.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "lore/consolidate/staging.h"
#include "lore/sys/process.h"
#include "support/temp_dir.h"

namespace lore::consolidate {
namespace {

namespace stdfs = std::filesystem;

store::Store MakeStore(const testing::TempDir& t) {
  stdfs::create_directories(t / "s/staging");
  return store::Store::AtDir(t.path(), "s");
}

TEST(RunLock, SecondTakerSeesTheHolder) {
  testing::TempDir t;
  auto store = MakeStore(t);
  auto first = RunLock::TryAcquire(store);
  ASSERT_TRUE(first && first->lock);
  EXPECT_FALSE(first->reclaimed);
  ASSERT_TRUE(first->lock->Publish({::getpid(), "pod", "2026-01-01T00:00:00.000Z", {"a", "b"}}));
  auto second = RunLock::TryAcquire(store);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->lock);
  ASSERT_TRUE(second->holder);
  EXPECT_EQ(second->holder->consumed_ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(
      t.Read("s/staging/.consolidation.lock"),
      R"({"pid":)" + std::to_string(::getpid()) +
          R"(,"pod_name":"pod","started_at":"2026-01-01T00:00:00.000Z","consumed_ids":["a","b"]})"
          "\n");
  first->lock->Release();
  EXPECT_FALSE(stdfs::exists(t / "s/staging/.consolidation.lock"));
  auto third = RunLock::TryAcquire(store);
  ASSERT_TRUE(third && third->lock);
}

TEST(RunLock, ADeadHoldersLockIsReclaimed) {
  testing::TempDir t;
  auto store = MakeStore(t);
  pid_t child = ::fork();
  if (child == 0) {
    auto a = RunLock::TryAcquire(store);
    if (!a || !a->lock || !a->lock->Publish({::getpid(), sys::HostName(), "then", {"x"}}))
      ::_exit(1);
    ::_exit(0);  // dies holding it: the file stays, the flock goes
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_EQ(WEXITSTATUS(status), 0);
  auto view = InspectRunLock(store);
  ASSERT_TRUE(view && *view);
  EXPECT_FALSE((*view)->alive);
  EXPECT_EQ((*view)->body.pid, child);
  auto a = RunLock::TryAcquire(store);
  ASSERT_TRUE(a && a->lock);
  ASSERT_TRUE(a->reclaimed);
  EXPECT_EQ(a->reclaimed->pid, child);
  EXPECT_EQ(a->reclaimed->consumed_ids, std::vector<std::string>{"x"});
}

TEST(RunLock, ParsesBodiesLeniently) {
  EXPECT_FALSE(ParseLockBody(""));
  EXPECT_FALSE(ParseLockBody(R"({"pid":"x"})"));
  auto b = ParseLockBody(R"({"pid":7})");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->pid, 7);
}

}  // namespace
}  // namespace lore::consolidate
