#include "cli/exec_llm.h"

#include <unistd.h>

#include <cerrno>

#include "cli/io.h"
#include "lore/consolidate/spawn.h"
#include "lore/fs/fd.h"

namespace lore::cli {

int ExecLoreLlm(std::vector<std::string> args, const std::string& fallback) {
  auto exe = consolidate::SelfExe();
  if (!exe) return ReportError(exe.error());
  std::string llm = fs::Join(fs::Dirname(*exe), "lore-llm");
  if (::access(llm.c_str(), X_OK) != 0) {
    return ReportError(Error{ErrorCode::kUnavailable, "the LLM engine's program is missing", llm, 0,
                             "install lore-llm next to lore, or " + fallback});
  }
  args.insert(args.begin(), llm);
  std::vector<char*> argv;
  for (auto& s : args) argv.push_back(s.data());
  argv.push_back(nullptr);
  ::execv(llm.c_str(), argv.data());
  return ReportError(fs::ErrnoError(errno, "cannot run", llm));
}

}  // namespace lore::cli
