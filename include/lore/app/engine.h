// `lore init <agent> --engine E`: which engine a store's extractions and
// consolidations use, written into its config.toml (docs/consolidation.md,
// "Model back ends"). `rules` (the default) sets both engines to rules and
// leaves llm.provider alone; `claude-code`, `anthropic` or `openai` sets both
// to llm and llm.provider to it. The rest of config.toml is kept byte for
// byte (config::SetStrings).
#pragma once

#include <string>
#include <string_view>

#include <cstdint>
#include <optional>

#include "lore/error.h"
#include "lore/fs/file_lock.h"
#include "lore/store/store.h"

namespace lore::app {

// The engines `--engine` takes.
inline constexpr std::string_view kEngineChoices[] = {"rules", "claude-code", "anthropic",
                                                      "openai"};

// Writes the choice; returns the line to print.
Result<std::string> ChooseEngine(const store::Store& store, std::string_view engine);

// At most one model run per store at a time (extractions, consolidations and
// digests alike): the lock a run holds, waiting for the run before it (runs
// are detached, as the hooks start them).
Result<fs::FileLock> BeginModelRun(const store::Store& store);

// Adds what a run used to the day's record (extract::AddModelUsage), whatever
// the run's outcome; a failure to count is a warning.
std::optional<Error> CountModelUsage(const store::Store& store, int64_t tokens);

}  // namespace lore::app
