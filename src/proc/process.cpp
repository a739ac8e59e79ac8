#include "proc/process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "lore/fs/fd.h"

extern char** environ;

namespace lore::proc {
namespace {

std::vector<char*> Argv(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

Error NoProgram(std::string_view what) {
  return Error{ErrorCode::kInternal, "nothing to run for " + std::string(what), "", 0,
               "report this as a bug"};
}

}  // namespace

Result<std::string> SelfExe() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", "/proc/self/exe"));
  return std::string(buf, static_cast<size_t>(n));
}

std::string Beside(std::string_view program) {
  auto exe = SelfExe();
  return exe ? fs::Join(fs::Dirname(*exe), std::string(program)) : std::string();
}

Status StartDetached(const std::vector<std::string>& args, std::string_view what) {
  if (args.empty()) return tl::unexpected(NoProgram(what));
  if (::access(args[0].c_str(), X_OK) != 0) {  // the child cannot tell us: ask first
    return tl::unexpected(fs::ErrnoError(errno, "cannot start " + std::string(what), args[0]));
  }
  std::vector<char*> argv = Argv(args);
  // fork, not posix_spawn: posix_spawn's vfork holds the caller until the
  // child has exec'd, and on a busy machine that wait costs the hook
  // milliseconds (bench/extract_bench). The child calls only
  // async-signal-safe functions.
  pid_t pid = ::fork();
  if (pid < 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot start " + std::string(what), args[0]));
  }
  if (pid == 0) {
    ::setsid();
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::syscall(SYS_close_range, 3U, ~0U, 0U);  // no lock or socket of ours stays open
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return Ok();
}

Result<int> Run(const std::vector<std::string>& args, Streams streams) {
  if (args.empty()) return tl::unexpected(NoProgram("a child"));
  std::vector<char*> argv = Argv(args);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (streams == Streams::kStdoutToStderr) posix_spawn_file_actions_adddup2(&fa, 2, 1);
  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return tl::unexpected(fs::ErrnoError(rc, "cannot run", args[0]));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return tl::unexpected(fs::ErrnoError(errno, "cannot wait for", args[0]));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

Error Exec(const std::vector<std::string>& args) {
  if (args.empty()) return NoProgram("exec");
  std::vector<char*> argv = Argv(args);
  ::execv(argv[0], argv.data());
  return fs::ErrnoError(errno, "cannot run", args[0]);
}

namespace {

void CloseFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

int Decode(int status) {
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

}  // namespace

Result<Child> Child::Start(const Options& o) {
  if (o.argv.empty()) return tl::unexpected(NoProgram("a child"));
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot make a pipe for", o.argv[0]));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(in[0]), ::close(in[1]);
    return tl::unexpected(fs::ErrnoError(e, "cannot make a pipe for", o.argv[0]));
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
    return tl::unexpected(fs::ErrnoError(e, "cannot make a pipe for", o.argv[0]));
  }
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    std::string_view kv(*e);
    bool replaced = false;
    for (const auto& [k, v] : o.set_env) {
      if (kv.size() > k.size() && kv.substr(0, k.size()) == k && kv[k.size()] == '=')
        replaced = true;
    }
    if (!replaced) env_strings.emplace_back(kv);
  }
  for (const auto& [k, v] : o.set_env) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<char*> argv = Argv(o.argv);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, o.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]), ::close(out[1]), ::close(err[1]);
  if (rc != 0) {
    ::close(in[1]), ::close(out[0]), ::close(err[0]);
    return tl::unexpected(fs::ErrnoError(rc, "cannot run", o.argv[0]));
  }
  Child c;
  c.pid_ = pid;
  c.in_ = in[1];
  c.out_ = out[0];
  c.err_ = err[0];
  for (int fd : {c.in_, c.out_, c.err_}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return c;
}

Child::Child(Child&& o) noexcept
    : pid_(std::exchange(o.pid_, -1)),
      in_(std::exchange(o.in_, -1)),
      out_(std::exchange(o.out_, -1)),
      err_(std::exchange(o.err_, -1)),
      status_(o.status_) {}

Child::~Child() {
  if (pid_ > 0 && !status_) {
    Kill();
    Wait();
  }
  CloseFd(in_);
  CloseFd(out_);
  CloseFd(err_);
}

void Child::CloseIn() { CloseFd(in_); }

void Child::Kill() {
  if (pid_ > 0 && !status_) ::kill(-pid_, SIGKILL);
}

std::optional<int> Child::Poll() {
  if (status_ || pid_ <= 0) return status_;
  int status = 0;
  pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) status_ = Decode(status);
  return status_;
}

int Child::Wait() {
  if (status_ || pid_ <= 0) return status_.value_or(-1);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  status_ = Decode(status);
  return *status_;
}

Result<std::string> Output(const std::vector<std::string>& argv, const std::string& cwd,
                           size_t limit, int timeout_ms) {
  Child::Options o;
  o.argv = argv;
  o.cwd = cwd;
  LORE_ASSIGN(Child c, Child::Start(o));
  c.CloseIn();
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  bool open_out = true, open_err = true;
  char buf[16384];
  while (open_out || open_err) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      c.Kill();
      c.Wait();
      return Fail(ErrorCode::kIo, "took longer than " + std::to_string(timeout_ms) + " ms", argv[0],
                  0, "run it by hand to see why");
    }
    pollfd fds[2] = {{open_out ? c.out() : -1, POLLIN, 0}, {open_err ? c.err() : -1, POLLIN, 0}};
    int n = ::poll(fds, 2, static_cast<int>(left));
    if (n < 0 && errno != EINTR) return Fail(fs::ErrnoError(errno, "cannot wait for", argv[0]));
    if (n <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        if (i == 0 && out.size() < limit) {
          out.append(buf, std::min(static_cast<size_t>(got), limit - out.size()));
        }
      } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
        (i == 0 ? open_out : open_err) = false;
      }
    }
  }
  int status = c.Wait();
  if (status != 0) {
    return Fail(ErrorCode::kIo, "exited with status " + std::to_string(status), argv[0], 0,
                "run it by hand to see why");
  }
  return out;
}

}  // namespace lore::proc
