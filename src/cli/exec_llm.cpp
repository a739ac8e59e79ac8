#include "cli/exec_llm.h"

#include <unistd.h>

#include "cli/io.h"
#include "proc/process.h"

namespace lore::cli {

std::string BesideLore(const std::string& program) { return proc::Beside(program); }

int ExecBesideLore(const std::string& program, std::vector<std::string> args, Error missing) {
  const std::string path = BesideLore(program);
  if (path.empty() || ::access(path.c_str(), X_OK) != 0) {
    missing.path = path;
    return ReportError(missing);
  }
  args.insert(args.begin(), path);
  return ReportError(proc::Exec(args));
}

int ExecLoreLlm(std::vector<std::string> args, const std::string& fallback) {
  return ExecBesideLore("lore-llm", std::move(args),
                        Error{ErrorCode::kUnavailable, "the LLM engine's program is missing", "", 0,
                              "install lore-llm next to lore, or " + fallback});
}

}  // namespace lore::cli
