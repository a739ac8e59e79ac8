// RFC 3339 date-times, the only time format record frontmatter accepts.
#pragma once

#include <string_view>

namespace lore::doc {

// True when `s` is an RFC 3339 date-time: "YYYY-MM-DDTHH:MM:SS" with an
// optional fraction and a zone "Z" or "+hh:mm"/"-hh:mm" ("T" and "Z" may be
// lower case, and "T" a space, as RFC 3339 section 5.6 allows). Calendar
// ranges are checked (month, day of month with leap years, 23:59:60 at most).
bool IsRfc3339(std::string_view s);

}  // namespace lore::doc
