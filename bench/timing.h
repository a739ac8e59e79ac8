// Whole-process timing for lore's benchmarks: spawn a command many times and
// report the median and 90th percentile of its wall time.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

extern char** environ;

namespace lore::bench {

struct Timing {
  double median_ms = 0, p90_ms = 0, min_ms = 0;
  int failures = 0;
};

struct Spawned {
  double wall_ms = 0, cpu_ms = 0;  // cpu: the child's user + system time
  long maxrss_kib = 0;             // the child's peak resident set
  bool ok = false;                 // exited with status 0
  int exit_code = -1;              // the exit status; -1 when killed by a signal
};

// Runs `argv` once with stdin from `stdin_path` (or /dev/null) and stdout and
// stderr discarded, and waits for it.
inline Spawned Spawn(const std::vector<std::string>& argv,
                     const std::string& stdin_path = "/dev/null") {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(),
                                   O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  Spawned out;
  auto start = std::chrono::steady_clock::now();
  pid_t pid;
  int rc = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return out;
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  out.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
               (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  out.maxrss_kib = ru.ru_maxrss;
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  out.ok = out.exit_code == 0;
  return out;
}

// Spawn's wall time in milliseconds, negative on failure.
inline double RunOnce(const std::vector<std::string>& argv,
                      const std::string& stdin_path = "/dev/null") {
  Spawned r = Spawn(argv, stdin_path);
  return r.ok ? r.wall_ms : -r.wall_ms;
}

inline Timing Measure(const std::vector<std::string>& argv, int runs,
                      const std::string& stdin_path = "/dev/null") {
  std::vector<double> times;
  Timing t;
  for (int i = 0; i < runs; ++i) {
    double ms = RunOnce(argv, stdin_path);
    if (ms < 0) {
      ++t.failures;
      ms = -ms;
    }
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  t.median_ms = times[times.size() / 2];
  t.p90_ms = times[times.size() * 9 / 10];
  t.min_ms = times.front();
  return t;
}

inline void PrintRow(const std::string& what, const Timing& t) {
  std::printf("%-44s median %7.3f ms   p90 %7.3f ms   min %7.3f ms%s\n", what.c_str(), t.median_ms,
              t.p90_ms, t.min_ms, t.failures ? "   (FAILURES!)" : "");
  std::fflush(stdout);
}

}  // namespace lore::bench
