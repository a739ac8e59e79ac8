// Linting records as they would be in a Workspace: the linter (lint/lint.h)
// with a view of the store that includes the run's own uncommitted writes.
#pragma once

#include <string_view>

#include "consolidate/paths.h"
#include "lore/consolidate/workspace.h"
#include "lore/error.h"
#include "lore/lint/lint.h"

namespace lore::consolidate {

// What the linter's view of the store holds.
enum class ViewScope {
  kFull,        // every slug of the record's kind (and knowledge, for workflows)
  kReferences,  // only the records on its replaced_by chain: no slug-exists or
                // similar-slug checks, for writers that ensure unique slugs
                // themselves (the rules engine), at a cost independent of the store
};

// Lints `text` as the record at `path` of `ws`. kCreate when the record does
// not exist in the workspace yet, else kUpdate. The view also holds the
// replaced_by of every record on the record's replaced_by chain. An Error
// only when the workspace cannot be read.
Result<lint::Report> LintInWorkspace(Workspace& ws, const StorePath& path, std::string_view text,
                                     ViewScope scope = ViewScope::kFull);

// The first error of `report` as an Error naming the file and line, with
// the count of the others ("... and 2 more").
Error FirstLintError(const lint::Report& report);

}  // namespace lore::consolidate
