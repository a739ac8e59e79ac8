// The flags `lore memory write` and `lore memory edit` take to build or
// change a record without writing its Markdown by hand (app::RecordEdits).
#pragma once

#include <CLI/CLI.hpp>

#include "lore/app/memory.h"

namespace lore::cli {

// Adds the flags to `sub`, read into `edits` (whose body file "-" is this
// process's standard input); `edit` adds --unset, --append and --no-touch.
void AddRecordFlags(CLI::App* sub, app::RecordEdits& edits, bool edit);

}  // namespace lore::cli
