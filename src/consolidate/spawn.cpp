#include "lore/consolidate/spawn.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "lore/fs/fd.h"

namespace lore::consolidate {

Result<std::string> SelfExe() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", "/proc/self/exe"));
  return std::string(buf, static_cast<size_t>(n));
}

Status SpawnDetached(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t child = ::fork();
  if (child < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot fork to start", argv[0]));
  if (child == 0) {
    // Intermediate child: a new session, then the grandchild, then leave so
    // that the grandchild is adopted by init and never becomes our zombie.
    ::setsid();
    pid_t grandchild = ::fork();
    if (grandchild != 0) ::_exit(grandchild < 0 ? 1 : 0);
    int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
    }
    ::syscall(SYS_close_range, 3U, ~0U, 0U);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Fail(ErrorCode::kIo, "cannot start a background consolidation", argv[0], 0,
                "run 'lore consolidate <repo> --foreground' by hand");
  }
  return Ok();
}

}  // namespace lore::consolidate
