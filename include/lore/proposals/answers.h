// The person's picks, as an agent reports them after rendering the batches
// of batches.h with AskUserQuestion, turned into one Decision per presented
// proposal (docs/proposals.md, "Review inside the agent"). Two shapes:
//
//   {"queue": "<fingerprint>", "batches": [{"batch": 1, "picked": [labels or ids]}, …]}
//   {"queue": "<fingerprint>", "<question text>": "<label>, <label>", …}
//
// The second is Claude Code's answers map (question -> the picked labels
// joined by ", "), optionally nested as {"queue": …, "answers": {…}}; a value
// may also be an array of labels. In both, "picked" may be a joined string
// and an id (or its first eight or more characters) may stand for a label.
//
// Everything is checked before a decision is returned: the fingerprint, that
// every batch is answered once (unless partial answers are allowed: the
// proposals of unanswered batches then stay queued), and that every pick
// names an option of its batch. Unpicked proposals of an answered batch are
// declined as user-declined.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/review.h"
#include "lore/text/time.h"

namespace lore::proposals {

struct AnswerOptions {
  bool allow_partial = false;
  text::TimePoint now{};
  std::string source = "<answers>";  // the file named in errors
};

// Which proposals the answers are about: `presented` (indexes into
// `set.scan.records`) in the order the batches were made, and their
// decisions, one per entry of `presented`.
struct Answered {
  std::vector<size_t> presented;
  std::vector<Decision> decisions;
};

// Reads `text` against `set` as it is now. The fingerprint is matched
// against the pending proposals, then (a review of these answers that was
// interrupted having settled some of them) against every record of the
// queue, so that applying the same answers again completes the review.
Result<Answered> ReadAnswers(std::string_view text, const ReviewSet& set,
                             const AnswerOptions& options);

// Bounds of an answers text (strict JSON).
inline constexpr size_t kMaxAnswersBytes = size_t{4} << 20;

}  // namespace lore::proposals
