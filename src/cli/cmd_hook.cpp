// `lore hook <event>`: the agent hooks (FORMATS.md section 9). A hook never
// blocks the agent: whatever happens, it exits 0 (problems go to stderr).
// Each event is one row of the table in RegisterHookCommands.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/hook/pre_tool_use.h"

namespace lore::cli {
namespace {

struct HookVerb {
  const char* name;
  const char* summary;
  int (*run)();
};

std::string EnvOr(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

int PreToolUse() {
  auto input = ReadStdin();
  if (!input) {
    ReportWarning(input.error());
    return kExitOk;
  }
  char cwd[PATH_MAX];
  const std::string here = ::getcwd(cwd, sizeof cwd) ? cwd : ".";
  auto r = hook::RecordPreToolUse(*input, store::Env::FromProcess(), EnvOr("LORE_WAVE"), here,
                                  std::chrono::system_clock::now());
  if (!r) ReportWarning(r.error());
  return kExitOk;
}

constexpr HookVerb kHooks[] = {
    {"pre-tool-use", "PreToolUse: audit `lore propose` shell calls into events.jsonl", PreToolUse},
};

}  // namespace

void RegisterHookCommands(Registry& r) {
  auto chosen = std::make_shared<std::vector<std::pair<CLI::App*, int (*)()>>>();
  CLI::App* hook =
      r.Add("hook", "Run an agent hook (reads the hook JSON on stdin; always exits 0)", [chosen]() {
        for (const auto& [sub, run] : *chosen) {
          if (sub->parsed()) return run();
        }
        return kExitOk;
      });
  hook->require_subcommand(1);
  for (const HookVerb& h : kHooks)
    chosen->emplace_back(hook->add_subcommand(h.name, h.summary), h.run);
  r.OnParseError(hook, [](const std::string& message) {
    ReportWarning(Error{ErrorCode::kInvalidInput, message, "", 0, "see 'lore help hook'"});
    return kExitOk;
  });
}

}  // namespace lore::cli
