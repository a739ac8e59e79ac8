// Internal to lore::archive: what an import does with the settings and the
// session-start files it brings (docs/agents.md, "What an import may change").
#pragma once

#include <string>
#include <vector>

#include "lore/archive/archive.h"
#include "lore/error.h"

namespace lore::archive {

// In the unpacked store `temp`, before it replaces the store `dir` (which
// may not exist), under the store lock. Without `with_config`: the
// archive's config.toml becomes config.toml.imported and the store's own
// config.toml (if any) is copied in. With it: the archive's config.toml
// must parse (errors name it inside `archive`), and every LLM setting it
// changes is listed in `report->setting_changes`.
Status GuardSettings(const std::string& temp, const std::string& dir, bool with_config,
                     const std::string& archive, ImportReport* report);

// The files injected into every session start (memory/summary.md,
// okf/index.md) whose bytes differ between `dir` (may not exist) and
// `temp`: "memory/summary.md (replaced)" or "okf/index.md (new)".
std::vector<std::string> InjectedChanges(const std::string& dir, const std::string& temp);

}  // namespace lore::archive
