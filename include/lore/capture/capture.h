// Capture verbs of seed 003: appending review and slicing records to a
// store's permanent raw.jsonl.
#pragma once

#include <string>
#include <string_view>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::capture {

enum class Kind { kReview, kSlicing };

// Turns the whole of standard input `input` (exactly one JSON object, UTF-8)
// into the compact line to append: fields kept in order, `kind` and
// `recorded_at` (UTC to the second, ending in Z) set, non-ASCII kept.
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
