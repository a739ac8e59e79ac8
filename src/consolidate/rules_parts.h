// Internal to lore::consolidate: the pieces of the rules engine, one per kind
// of staged item (see rules_engine.h for the rules).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "consolidate/record_set.h"
#include "lore/consolidate/engine.h"

namespace lore::consolidate::detail {

struct RulesContext {
  Workspace& ws;
  RecordSet set;
  const Settings& settings;
  std::vector<std::string> notes;
  // knowledge slugs by the session ids of their last_sources (built once).
  std::map<std::string, std::vector<std::string>> knowledge_by_session;
  bool knowledge_indexed = false;
};

// One staged entry with its time.
struct TimedEntry {
  const StagedEntry& entry;
  text::TimePoint time;
  std::string stamp;  // RFC 3339 seconds of `time`
};

Status ApplyDecision(RulesContext& ctx, const TimedEntry& e, const StagedDecision& d);
Status ApplyRequest(RulesContext& ctx, const TimedEntry& e, const StagedRequest& q);
// Discussions of every entry and the run's attempts, into memory/summary.md.
Status ApplySummary(RulesContext& ctx, const std::vector<TimedEntry>& entries);
Status ApplyKnowledge(RulesContext& ctx, const TimedEntry& e);

// Adds `s` to `sources` unless present; true when added.
bool AddSource(std::optional<std::vector<doc::Source>>& sources, const doc::Source& s);

}  // namespace lore::consolidate::detail
