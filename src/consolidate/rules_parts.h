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
  const store::Store* store;  // for the session logs; null in tests without one
  std::vector<std::string> notes;
  // knowledge slugs by the session ids of their last_sources (built once).
  std::map<std::string, std::vector<std::string>> knowledge_by_session;
  bool knowledge_indexed = false;
  text::TimePoint now{};  // the run's time: what aged out by use is judged at it
};

// One staged entry with its time: the session's (its `ended_at`), else when
// it was staged.
struct TimedEntry {
  const StagedEntry& entry;
  text::TimePoint time;
  std::string stamp;  // RFC 3339 seconds of `time`
};

// An item's own time stamp, else its entry's.
std::string StampOf(const TimedEntry& e, const ItemOrigin& origin);

Status ApplyDecision(RulesContext& ctx, const TimedEntry& e, const StagedDecision& d);
Status ApplyRequest(RulesContext& ctx, const TimedEntry& e, const StagedRequest& q);
Status ApplyKnowledge(RulesContext& ctx, const TimedEntry& e);
// Failures whose signature recurs across sessions, into knowledge/gotcha-*.md.
Status ApplyGotchas(RulesContext& ctx, const std::vector<TimedEntry>& entries);
// memory/summary.md rewritten as the briefing.
Status ApplyBriefing(RulesContext& ctx, const std::vector<TimedEntry>& entries);

// Limits that keep every body lore writes within the linter's. (Sources are
// never dropped: each says where a record came from, and the linter only
// warns about many.)
inline constexpr size_t kMaxBullets = 12;   // rationale or summary lines of a decision or request
inline constexpr size_t kBodyLimit = 8000;  // the linter's limit for a body

// Drops the oldest "- " bullet lines of `body` until it has at most
// `max_bullets` and at most `max_chars` code points.
void CapBullets(std::string& body, size_t max_bullets, size_t max_chars);

// Adds `s` to `sources` unless present; true when added.
bool AddSource(std::optional<std::vector<doc::Source>>& sources, const doc::Source& s);

}  // namespace lore::consolidate::detail
