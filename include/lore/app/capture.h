// Capture (seed 003) as use cases every front end shares: `lore ensure`,
// `lore append-review|append-slicing`, the reviewer-memory drop-in's verbs
// and MCP `capture_review` (docs/capture.md).
#pragma once

#include <string>
#include <string_view>

#include "lore/capture/capture.h"  // Kind, ReportStyle, Appended: the types named below
#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// Appends the one JSON object `input` as a record of `kind` to the store's
// raw.jsonl (the store ensured and checked first); nothing is written when
// the input or the store is bad.
Result<capture::Appended> Capture(const store::Store& store, std::string_view input,
                                  capture::Kind kind, text::TimePoint now);

// Creates the store if missing and checks it, then returns `ensure`'s JSON
// report in `style`.
Result<std::string> Ensure(const store::Store& store, capture::ReportStyle style,
                           text::TimePoint now);

}  // namespace lore::app
