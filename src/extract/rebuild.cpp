#include <nlohmann/json.hpp>

#include "activity/session_log.h"
#include "lore/consolidate/staging.h"
#include "lore/extract/extract.h"
#include "lore/extract/rules.h"
#include "lore/json/value.h"

namespace lore::extract {

Result<RebuildOutcome> Rebuild(const store::Store& store, const std::string& session,
                               text::TimePoint now) {
  RebuildOutcome out;
  LORE_ASSIGN(auto files, activity::ListSessionLogs(store));
  const std::string wanted = session.empty() ? "" : activity::SessionFileStem(session);
  for (const auto& f : files) {
    if (!wanted.empty() && f.stem != wanted) continue;
    LORE_ASSIGN(activity::SessionLog log, activity::ReadSessionLog(f.path, f.stem));
    // The session's own id, as its entries were staged: the spans carry it.
    const std::string id = log.session_id;
    ++out.sessions;
    size_t next = 0;
    for (const auto& span : log.spans) {
      ++out.spans;
      RulesEngine engine;
      engine.Checkout(span.cwd);
      while (next < log.events.size() && log.events[next].line <= span.last) {
        if (log.events[next].line >= span.first) LORE_TRY(engine.Take(log.events[next]));
        ++next;
      }
      LORE_ASSIGN(consolidate::StagedEntry entry, engine.Finish());
      if (IsEmpty(entry)) continue;
      entry.source.session_id = id;
      entry.source.range = {static_cast<uint64_t>(span.first), static_cast<uint64_t>(span.last)};
      LORE_ASSIGN(std::string staged,
                  consolidate::Stage(store, consolidate::RenderStagedEntry(entry), now));
      out.staged_ids.push_back(std::move(staged));
      ++out.staged;
    }
  }
  return out;
}

std::string RebuildJson(const RebuildOutcome& o) {
  Json j = {{"status", "rebuilt"},
            {"sessions", o.sessions},
            {"spans", o.spans},
            {"staged", o.staged},
            {"staged_ids", o.staged_ids}};
  return j.dump();
}

}  // namespace lore::extract
