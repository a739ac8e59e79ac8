// `lore status` and the MCP `status` tool's `consolidation`: one view of a
// store's consolidation, read from its files, in one JSON shape
// (docs/consolidation.md):
//
//   {"staged": {"files", "bytes"}, "thresholds": {"files", "bytes"}, "due",
//    "running": null | {"pid", "pod_name", "started_at", "consumed_ids"},
//    "stale_lock", "last_run": null | <run record>,
//    "failed_extract": null | {"at", "session_id", "error"},
//    "last_extract": null | {"at", "session_id", "engine", "outcome", "error"},
//    "model_usage": {"day", "tokens", "runs", "max_tokens_per_day", "running"},
//    "pending_proposals": <the proposals queued for the person's review>}
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/json/value.h"

#include "lore/consolidate/run_lock.h"
#include "lore/consolidate/run_state.h"
#include "lore/consolidate/settings.h"
#include "lore/consolidate/staging.h"
#include "lore/error.h"
#include "lore/extract/extract.h"
#include "lore/store/store.h"

namespace lore::app {

struct StatusView {
  consolidate::StagingTotals staged;
  consolidate::Settings settings;                // its thresholds
  bool due = false;                              // staged is at a threshold
  std::optional<consolidate::LockBody> running;  // the live run's lock
  bool stale_lock = false;                       // a dead run's lock remains
  std::optional<consolidate::RunRecord> last_run;
  // The hooks run extract detached, where nobody reads its stderr.
  std::optional<extract::ExtractFailure> failed_extract;
  std::optional<extract::ExtractRecord> last_extract;
  // Today's model runs (extractions, consolidations, digests): tokens used.
  extract::ModelUsage model_usage;
  bool model_running = false;     // a model run (extract, consolidation, digest) holds its lock
  int64_t pending_proposals = 0;  // queued, awaiting the person's `lore review`
  std::vector<Error> warnings;    // to show; the rest of the view still holds
};

enum class Recovery {
  kFinish,    // finish an interrupted commit first (lore status)
  kReadOnly,  // change nothing (the MCP server reads only)
};

// The view of an existing store.
Result<StatusView> Status(const store::Store& store, const consolidate::Settings& settings,
                          Recovery recovery);

// The view for a reader that changes nothing (the MCP server): the store's
// own settings, Recovery::kReadOnly.
Result<StatusView> ReadOnlyStatus(const store::Store& store);

// The view in the shape above (`lore status --json`).
Json StatusJson(const StatusView& v);

// The view as `lore status` prints it, one line each; `repo` (the argument as
// given) is named in the line that says how to review pending proposals.
std::vector<std::string> StatusText(const StatusView& v, std::string_view repo = "<repo>");

}  // namespace lore::app
