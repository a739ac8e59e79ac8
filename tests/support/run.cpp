#include "support/run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "support/exec_image.h"

namespace lore::testing {

std::string LoreBinary() {
#ifdef LORE_BINARY
  return LORE_BINARY;
#else
  return "lore";
#endif
}

std::string LoreTestBinary() {
#ifdef LORE_TEST_BINARY
  return LORE_TEST_BINARY;
#else
  return "lore-test";
#endif
}

RunResult Run(const std::vector<std::string>& argv, const RunOptions& opts) {
  RunResult r;
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) return r;
  const ExecImage image(argv, opts.env);  // before the fork: see exec_image.h
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    if (!opts.cwd.empty() && ::chdir(opts.cwd.c_str()) != 0) _exit(126);
    if (opts.as_uid >= 0) {
      if (::setgid(static_cast<gid_t>(opts.as_uid)) != 0 ||
          ::setuid(static_cast<uid_t>(opts.as_uid)) != 0) {
        _exit(125);
      }
    }
    image.Exec();
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  // Feed stdin and drain both outputs without blocking on any one of them.
  ::signal(SIGPIPE, SIG_IGN);
  size_t written = 0;
  int in_fd = in[1];
  if (opts.input.empty()) {
    ::close(in_fd);
    in_fd = -1;
  } else {
    ::fcntl(in_fd, F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open || in_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    if (out_open) fds[n++] = {out[0], POLLIN, 0};
    if (err_open) fds[n++] = {err[0], POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    if (::poll(fds, static_cast<nfds_t>(n), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      if (fds[i].fd == in_fd) {
        ssize_t w = ::write(in_fd, opts.input.data() + written, opts.input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN) written = opts.input.size();
        if (written >= opts.input.size()) {
          ::close(in_fd);
          in_fd = -1;
        }
        continue;
      }
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      bool is_out = fds[i].fd == out[0];
      if (got <= 0) {
        (is_out ? out_open : err_open) = false;
      } else {
        (is_out ? r.out : r.err).append(buf, static_cast<size_t>(got));
      }
    }
  }
  ::close(out[0]);
  ::close(err[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

RunResult Lore(const std::vector<std::string>& args, const RunOptions& opts) {
  std::vector<std::string> argv{LoreBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, opts);
}

RunResult LoreTest(const std::vector<std::string>& args, const RunOptions& opts) {
  std::vector<std::string> argv{LoreTestBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return Run(argv, opts);
}

RunOptions IsolatedOptions(const std::string& dir, const std::string& lore_home,
                           std::string input) {
  RunOptions o;
  o.input = std::move(input);
  o.env["HOME"] = dir + "/home";
  o.env["LORE_HOME"] = dir + "/" + lore_home;
  o.env["XDG_CONFIG_HOME"] = std::nullopt;
  return o;
}

}  // namespace lore::testing
