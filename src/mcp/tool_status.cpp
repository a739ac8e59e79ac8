// The status tool: where the store is and what it holds, counted from the
// files (no index needed).
#include "lore/app/counts.h"
#include "lore/app/recall.h"
#include "lore/app/status.h"
#include "lore/app/store.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {

Result<Json> StoreStatus(ToolState& s, const Json&) {
  const store::Store& st = s.store;
  Json out;
  out["key"] = st.key();
  out["store"] = st.dir();
  out["digest"] = st.index_path();
  LORE_ASSIGN(const bool exists, app::CheckExisting(st));
  out["exists"] = exists;
  if (!exists) return out;  // the first four only (docs/agents.md)
  LORE_ASSIGN(app::StoreCounts c,
              app::CountStore(st, app::kCountFolders | app::kCountQueue | app::kCountLearnings |
                                      app::kCountRaw | app::kCountPages));
  out["raw_records"] = c.raw_records;
  out["learnings"] = c.learnings;  // what an agent is offered (docs/learnings.md)
  out["expired_learnings"] = c.expired_learnings;
  out["pending_proposals"] = c.pending;
  out["memory"] = Json{{"summary", c.summary},
                       {"decisions", c.decisions},
                       {"requests", c.requests},
                       {"knowledge", c.knowledge}};
  // What `lore status --json` reports (app/status.h), read only: no recovery is
  // attempted, and what cannot be read of a failed extract is left out.
  LORE_ASSIGN(app::StatusView v, app::ReadOnlyStatus(st));
  out["consolidation"] = app::StatusJson(v);
  out["okf_pages"] = c.okf_pages;
  LORE_ASSIGN(app::UsageStats usage, app::Usage(st));
  out["usage"] = app::UsageJson(usage, 10);
  return out;
}

}  // namespace lore::mcp
