#include "lore/sys/process.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lore::sys {
namespace {

pid_t DeadPid() {
  pid_t pid = ::fork();
  if (pid == 0) _exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

TEST(Process, AliveDeadAndInvalidPids) {
  EXPECT_TRUE(ProcessAlive(::getpid()));
  EXPECT_TRUE(ProcessAlive(1));  // another user's process counts (EPERM)
  EXPECT_FALSE(ProcessAlive(DeadPid()));
  EXPECT_FALSE(ProcessAlive(0));
  EXPECT_FALSE(ProcessAlive(-1));
  EXPECT_FALSE(ProcessAlive(int64_t{1} << 40));
}

TEST(Process, StartTimeIsBeforeNowAndAfterBoot) {
  auto start = ProcessStartTime(::getpid());
  ASSERT_TRUE(start);
  const auto now = Clock::now();
  EXPECT_LE(*start, now);
  EXPECT_GT(*start, now - std::chrono::hours(24 * 365));
  EXPECT_FALSE(ProcessStartTime(DeadPid()));
}

// The pid-reuse check: a process that started after the act cannot be the
// one that acted.
TEST(Process, APidThatStartedAfterTheActWasReused) {
  const auto start = *ProcessStartTime(::getpid());
  EXPECT_TRUE(ProcessAliveSince(::getpid(), Clock::now()));
  EXPECT_TRUE(ProcessAliveSince(::getpid(), start));
  EXPECT_FALSE(ProcessAliveSince(::getpid(), start - std::chrono::seconds(5)));
  EXPECT_FALSE(ProcessAliveSince(DeadPid(), Clock::now()));
}

TEST(Process, HostNameIsNeverEmpty) { EXPECT_FALSE(HostName().empty()); }

}  // namespace
}  // namespace lore::sys
