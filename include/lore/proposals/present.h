// How proposals are shown for review (docs/proposals.md): batches of at
// most four, one prompt per batch, a label and a description per item.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lore/json/value.h"

namespace lore::proposals {

inline constexpr size_t kBatchSize = 4;

// ceil(n / 4) batches of consecutive indexes 0..n-1, each of at most four.
std::vector<std::vector<size_t>> Batches(size_t n);

// "Batch 2 of 3 — which learnings should be stored permanently? Unselected
// ones are archived as declined."; with one batch the sentence stands alone
// (and so starts with a capital: "Which learnings …").
std::string Prompt(size_t batch /*1-based*/, size_t batches);

// Field `key` of `record` as one line of text for a terminal or any text
// output: a string with its escape sequences and control characters dropped
// and its line breaks and tabs made spaces (activity::ReadableLine), another
// value as JSON; "" when absent. The queue may hold lines another program
// wrote: what lore prints of a proposal never carries a terminal's codes
// (a title change, a cleared screen, hidden text). JSON output needs none of
// this: the JSON writer escapes control characters.
std::string FieldText(const Json& record, const char* key);

// "[<type cut or padded to 7>] | <subject cut to 40 with …, padded to 40> |
// conf=0.85". Widths count code points; conf has two decimals, rounded as
// JavaScript's toFixed(2) rounds.
std::string Label(const Json& record);
// "evidence: <evidence cut to 60 with …>".
std::string Description(const Json& record);

// `text` as lines of at most `width` code points (at least 20), broken at
// spaces (a word longer than a line is cut), the first line after `first`,
// the others after `indent`; each line ends with "\n". Control characters
// are shown as spaces.
std::string Wrap(std::string_view text, size_t width, std::string_view first,
                 std::string_view indent);

// A proposal whole, for the terminal review: its type and confidence, then
// its subject, insight and evidence in full, wrapped to `width` columns
// after `indent` (the first line follows `lead`):
//   <lead>architecture-pattern, confidence 0.85
//   <indent>reducer always re-evaluates on unrelated state
//   <indent>insight: the selector memoises on the whole store, so …
//   <indent>         … continued
//   <indent>evidence: 3 consecutive sessions hit the same pattern in W2
std::string Whole(const Json& record, size_t width, std::string_view lead, std::string_view indent);

// Helpers, exposed for tests.
std::string FitWidth(std::string_view s, size_t width, bool pad, bool ellipsis);
std::string ToFixed2(double v);

}  // namespace lore::proposals
