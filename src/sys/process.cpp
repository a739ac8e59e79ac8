#include "lore/sys/process.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace lore::sys {
namespace {

// The first `max` bytes of a /proc file ("" when it cannot be read).
std::string ReadProc(const std::string& path, size_t max) {
  std::string out;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  while (out.size() < max) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

// The boot time in seconds since the epoch ("btime" of /proc/stat), or -1.
int64_t BootTime() {
  const std::string stat = ReadProc("/proc/stat", size_t{1} << 20);
  const size_t at = stat.find("\nbtime ");
  if (at == std::string::npos) return -1;
  return std::strtoll(stat.c_str() + at + 7, nullptr, 10);
}

}  // namespace

std::string HostName() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "unknown";
  return buf;
}

bool ProcessAlive(int64_t pid) {
  if (pid <= 0 || pid > 0x7fffffff) return false;
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

std::optional<Clock::time_point> ProcessStartTime(int64_t pid) {
  if (pid <= 0) return std::nullopt;
  const std::string stat = ReadProc("/proc/" + std::to_string(pid) + "/stat", 4096);
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so the
  // fields are counted from the last ')'; starttime is field 22.
  const size_t close = stat.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(stat).substr(close + 1);
  for (int field = 3; field < 22; ++field) {
    const size_t space = rest.find(' ', 1);
    if (space == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(space);
  }
  const long long ticks = std::strtoll(std::string(rest.substr(1)).c_str(), nullptr, 10);
  const long hz = ::sysconf(_SC_CLK_TCK);
  const int64_t boot = BootTime();
  if (ticks < 0 || hz <= 0 || boot < 0) return std::nullopt;
  return Clock::time_point(std::chrono::seconds(boot + ticks / hz));
}

bool ProcessAliveSince(int64_t pid, Clock::time_point at) {
  if (!ProcessAlive(pid)) return false;
  auto start = ProcessStartTime(pid);
  return !start || *start <= at + std::chrono::seconds(1);
}

}  // namespace lore::sys
