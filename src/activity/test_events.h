// Events and cards for the tests of activity/: a tool call, its result, and the
// card of a list of events (one span over them).
#ifndef LORE_ACTIVITY_TEST_EVENTS_H_
#define LORE_ACTIVITY_TEST_EVENTS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "activity/card.h"
#include "activity/session_log.h"

namespace lore::activity::test {

inline Event Use(int64_t line, const std::string& id, const std::string& tool,
                 const std::string& detail) {
  Event e = MakeEvent(EventKind::kToolUse, line);
  e.tool_id = id;
  e.tool_name = tool;
  e.detail = detail;
  return e;
}

inline Event Result(int64_t line, const std::string& id, ResultStatus status,
                    const std::string& text, std::optional<int64_t> exit = std::nullopt) {
  Event e = MakeEvent(EventKind::kToolResult, line);
  e.tool_id = id;
  e.status = status;
  e.text = text;
  e.exit_code = exit;
  return e;
}

// A card of `events` alone (one span over them).
inline SessionCard CardOf(std::vector<Event> events) {
  SessionLog log;
  log.session_id = "s1";
  log.spans.push_back(
      Span{1, 40, "s1", "2026-01-17T10:00:00Z", "2026-01-17T11:00:00Z", "main", "/r"});
  log.events = std::move(events);
  return ReadCard(log);
}

}  // namespace lore::activity::test

#endif  // LORE_ACTIVITY_TEST_EVENTS_H_
