#include "cli/exec_llm.h"

#include <unistd.h>

#include <cerrno>

#include "cli/io.h"
#include "lore/consolidate/spawn.h"
#include "lore/fs/fd.h"

namespace lore::cli {

std::string BesideLore(const std::string& program) {
  auto exe = consolidate::SelfExe();
  return exe ? fs::Join(fs::Dirname(*exe), program) : std::string();
}

int ExecBesideLore(const std::string& program, std::vector<std::string> args, Error missing) {
  const std::string path = BesideLore(program);
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) {
    missing.path = path;
    return ReportError(missing);
  }
  args.insert(args.begin(), path);
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(path.c_str(), argv.data());
  return ReportError(fs::ErrnoError(errno, "cannot run", path));
}

int ExecLoreLlm(std::vector<std::string> args, const std::string& fallback) {
  return ExecBesideLore("lore-llm", std::move(args),
                        Error{ErrorCode::kUnavailable, "the LLM engine's program is missing", "", 0,
                              "install lore-llm next to lore, or " + fallback});
}

}  // namespace lore::cli
