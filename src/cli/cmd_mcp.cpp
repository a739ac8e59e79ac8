// lore mcp: the Model Context Protocol server over stdio.
#include <unistd.h>

#include <climits>
#include <csignal>
#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/store.h"
#include "lore/mcp/lore_server.h"

namespace lore::cli {
namespace {

int RunMcp(const std::string& repo_arg) {
  std::string repo = repo_arg;
  if (repo.empty()) {
    char cwd[PATH_MAX];
    repo = ::getcwd(cwd, sizeof cwd) ? cwd : ".";
  }
  auto store = app::LocateWorkedIn(repo);
  if (!store) return ReportError(store.error());
  const char* wave = std::getenv("LORE_WAVE");
  mcp::Server server = mcp::MakeLoreServer(*store, {repo, wave ? wave : ""});
  ::signal(SIGPIPE, SIG_IGN);  // a client gone away is an error on write, not a crash
  if (auto s = mcp::Serve(server, STDIN_FILENO, STDOUT_FILENO); !s) return ReportError(s.error());
  return kExitOk;
}

}  // namespace

void RegisterMcpCommands(Registry& r) {
  auto repo = std::make_shared<std::string>();
  CLI::App* sub = r.Add("mcp", "Serve the store to an agent over MCP (JSON-RPC on stdin/stdout)",
                        [repo]() { return RunMcp(*repo); });
  sub->add_option("--repo", *repo,
                  "The repository whose store to serve (default: the current directory)");
}

}  // namespace lore::cli
