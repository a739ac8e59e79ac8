// UUIDs (RFC 9562) in their canonical text form
// "xxxxxxxx-xxxx-Vxxx-yxxx-xxxxxxxxxxxx": version 4 (random) for proposals,
// version 7 (time-ordered) for staged entries and consolidation runs.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace lore::sys {

// A new random UUIDv4, lower-case (122 random bits, sys/random.h).
std::string NewUuidV4();

// True when `id` is a UUIDv4 in the canonical form, in either case (queue
// lines written by other tools may use upper case).
bool IsUuidV4(std::string_view id);

// A new UUIDv7 for time `now`, lower-case: 48 bits of Unix milliseconds, a
// 12-bit counter that keeps ids monotonic within the process (sorting the
// text sorts by creation, ids of one millisecond in the order they were
// made) and 62 random bits.
std::string NewUuidV7(std::chrono::system_clock::time_point now);

// True when `s` is a lower-case UUIDv7 in the canonical form.
bool IsUuidV7(std::string_view s);

// The creation time embedded in a UUIDv7 (millisecond precision).
std::optional<std::chrono::system_clock::time_point> UuidV7Time(std::string_view s);

}  // namespace lore::sys
