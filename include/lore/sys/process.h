// This host and its processes: the one judgement of whether the process a
// pid names is still the one that wrote a lock or a temporary file.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace lore::sys {

using Clock = std::chrono::system_clock;

// This machine's host name (gethostname(2)); "unknown" when it has none.
std::string HostName();

// True when a process `pid` exists on this host: kill(pid, 0) succeeds or
// fails only for lack of permission (another user's process). False for
// pid <= 0.
bool ProcessAlive(int64_t pid);

// When process `pid` started, to the second (its start in /proc/<pid>/stat
// after the boot time in /proc/stat); nullopt when that cannot be read.
std::optional<Clock::time_point> ProcessStartTime(int64_t pid);

// True when `pid` is alive and may be the process that acted at `at` (took
// a lock, wrote a file): one that started more than a second after `at` got
// the pid by reuse, and the one that acted is gone. Without /proc, the same
// as ProcessAlive.
bool ProcessAliveSince(int64_t pid, Clock::time_point at);

}  // namespace lore::sys
