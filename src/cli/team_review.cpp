#include "cli/team_review.h"

#include <unistd.h>

#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/app/team.h"
#include "lore/fs/fd.h"
#include "proc/process.h"

namespace lore::cli {

TeamStep RunTeamStep(std::vector<std::string> args) {
  const std::string path = LoreTeamPath();
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) {
    ReportError(Error{ErrorCode::kUnavailable, "the team store's program is missing", path, 0,
                      "install lore-team next to lore (docs/team.md)"});
    return TeamStep::kFailed;
  }
  args.insert(args.begin(), path);
  auto status = proc::Run(args, proc::Streams::kStdoutToStderr);
  if (!status) {
    ReportError(status.error());
    return TeamStep::kFailed;
  }
  if (*status == 0) return TeamStep::kDone;
  if (*status == app::kExitTeamOffline) return TeamStep::kOffline;
  return TeamStep::kFailed;
}

}  // namespace lore::cli
