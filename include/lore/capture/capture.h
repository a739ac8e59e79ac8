// Capture verbs of seed 003: appending review and slicing records to a
// store's permanent raw.jsonl.
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/json/reader.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::capture {

enum class Kind { kReview, kSlicing };

// The largest record a capture verb accepts, and how it is read: strict JSON,
// nesting at most 128 deep, numbers kept exactly as written (docs/capture.md).
// Below the log's line limit (log::kMaxLineBytes, 16 MiB), so that what is
// captured is always a line `lore check` reads.
inline constexpr size_t kMaxRecordBytes = size_t{8} << 20;
json::Limits CaptureLimits();

// Turns the whole of standard input `input` (exactly one JSON object, UTF-8)
// into the compact line to append: the caller's bytes kept (fields in order,
// numbers and escapes as written, only white space removed, U+0085, U+2028
// and U+2029 escaped), `kind` and `recorded_at` (UTC to the second, ending
// in Z) set in place or added at the end. A repeated key is refused.
// Errors name "<stdin>" and the line of the problem.
Result<std::string> MakeRecordLine(std::string_view input, Kind kind, text::TimePoint now);

struct Appended {
  int64_t line = 0;  // the line number in raw.jsonl
};

// Ensures the store exists and is sound, then appends the record.
// Nothing is written when the input or the store is bad.
Result<Appended> Append(const store::Store& store, std::string_view input, Kind kind,
                        text::TimePoint now);

// How `ensure` spells its JSON: lore's compact form, or the reference
// script's `json.dumps` defaults (", " and ": " separators, non-ASCII as
// \uXXXX escapes).
enum class ReportStyle { kCompact, kPython };

// The JSON object printed by `lore ensure`:
// {"key","root","raw_path","index_path","has_content"}.
Result<std::string> EnsureReport(const store::Store& store,
                                 ReportStyle style = ReportStyle::kCompact);

}  // namespace lore::capture
