// UUID version 7 (RFC 9562): time-ordered identifiers for staged entries and
// consolidation runs. Sorting the text sorts by creation time (milliseconds);
// within one process, ids made in the same millisecond still sort in the
// order they were made.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lore/text/time.h"

namespace lore::consolidate {

// A new UUIDv7 for time `now`, lower-case "xxxxxxxx-xxxx-7xxx-yxxx-xxxxxxxxxxxx".
// 48 bits of Unix milliseconds, a 12-bit counter that keeps ids monotonic
// within the process, and 62 random bits (getrandom).
std::string NewUuidV7(text::TimePoint now);

// True when `s` is a lower-case UUID of version 7 in the canonical form.
bool IsUuidV7(std::string_view s);

// The creation time embedded in a UUIDv7 (millisecond precision).
std::optional<text::TimePoint> UuidV7Time(std::string_view s);

}  // namespace lore::consolidate
