#include "cli/team_review.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/fs/fd.h"
#include "lore/teamsync/review.h"

namespace lore::cli {

TeamStep RunTeamStep(std::vector<std::string> args) {
  const std::string path = LoreTeamPath();
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) {
    ReportError(Error{ErrorCode::kUnavailable, "the team store's program is missing", path, 0,
                      "install lore-team next to lore (docs/team.md)"});
    return TeamStep::kFailed;
  }
  args.insert(args.begin(), path);
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) ::_exit(127);
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  if (pid < 0) {
    ReportError(fs::ErrnoError(errno, "cannot run", path));
    return TeamStep::kFailed;
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      ReportError(fs::ErrnoError(errno, "cannot wait for", path));
      return TeamStep::kFailed;
    }
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return TeamStep::kDone;
  if (WIFEXITED(status) && WEXITSTATUS(status) == teamsync::kExitTeamOffline)
    return TeamStep::kOffline;
  return TeamStep::kFailed;
}

}  // namespace lore::cli
