// UTC time stamps in the formats lore writes (ISO 8601 / RFC 3339).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace lore::text {

using TimePoint = std::chrono::system_clock::time_point;

// "2026-11-30T15:23:25Z"
std::string UtcSeconds(TimePoint t);
// "2026-11-30T15:23:25.123Z"
std::string UtcMillis(TimePoint t);
// "2026-11-30"
std::string UtcDate(TimePoint t);

// Parses an ISO 8601 / RFC 3339 date or date-time: "YYYY-MM-DD",
// "YYYY-MM-DDTHH:MM[:SS[.fff…]]" with "Z", "+hh:mm" or no zone (taken as UTC).
std::optional<TimePoint> ParseIso(std::string_view s);

}  // namespace lore::text
