// Starting the binary under test without waiting for it (to kill it, or to
// act while it runs), and polling for a condition. Header-only.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "support/exec_image.h"

namespace lore::testing {

// A child process with stdin from /dev/null and stdout/stderr to files.
class Child {
 public:
  // Starts `argv` with `env` changes (a value sets, nullopt unsets); output
  // goes to `out_path` and `err_path`.
  Child(const std::vector<std::string>& argv,
        const std::map<std::string, std::optional<std::string>>& env, const std::string& out_path,
        const std::string& err_path) {
    const ExecImage image(argv, env);  // before the fork: see exec_image.h
    pid_ = ::fork();
    if (pid_ == 0) {
      int in = ::open("/dev/null", O_RDONLY);
      int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(in, 0);
      ::dup2(out, 1);
      ::dup2(err, 2);
      image.Exec();
    }
  }
  ~Child() {
    if (pid_ > 0 && !reaped_) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  pid_t pid() const { return pid_; }
  void Kill(int sig = SIGKILL) { ::kill(pid_, sig); }
  // Waits for the child; returns its exit code (128+N when killed by signal N).
  int Wait() {
    if (reaped_) return code_;
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    reaped_ = true;
    code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return code_;
  }

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  int code_ = -1;
};

// Polls `done` every 10 ms for at most `limit`; returns its last value.
inline bool WaitFor(const std::function<bool()>& done,
                    std::chrono::milliseconds limit = std::chrono::seconds(30)) {
  auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return done();
}

}  // namespace lore::testing
