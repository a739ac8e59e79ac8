#include "proc/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace lore::proc
