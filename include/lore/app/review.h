// `lore review` as use cases any front end can call (docs/proposals.md,
// docs/team.md "Review"): where the review's queue is (the local one, or the
// batch this machine claimed from the team queue), decisions from flags, a
// plan, an agent's answers or the interactive picker, and the promotion with
// the team's claim check. The terminal itself (raw mode, reading keys,
// drawing screens) stays with the terminal front end, and so does running
// lore-team: it hands in a TeamRunner.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/json/value.h"
#include "lore/proposals/answers.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/review.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// What one step of lore-team (`review-claim`, `review-check`, `review-done`)
// came to.
enum class TeamStep {
  kDone,     // lore-team did it
  kOffline,  // the team database cannot be used: one warning line was printed
  kFailed,   // refused or failed: one line was printed
};
// Runs `lore-team <args…>` and waits for it (the front end starts processes).
using TeamRunner = std::function<TeamStep(std::vector<std::string> args)>;

// What a review works on: the local queue, or on a team store the batch this
// machine claimed from the team queue.
struct ReviewSource {
  proposals::Paths paths;
  bool team = false;  // paths.queue is the claimed batch
};

// The review's queue. On a team store (`team_store`: a [team] url and
// lore-team installed), with `claim` the batch (at most `claim_size`) is
// claimed first; offline, the local queue. nullopt when the team refused or
// failed (the runner printed one line).
std::optional<ReviewSource> OpenReviewSource(const store::Store& store, const std::string& repo,
                                             bool team_store, int claim_size, bool claim,
                                             const TeamRunner& team);

// The queue of `source` as it is now: its records, and which are pending
// (proposals::PrepareReview).
Result<proposals::ReviewSet> ReadReviewQueue(const ReviewSource& source);

// --batches: the AskUserQuestion inputs of the pending proposals of `source`
// and the fingerprint of the queue they were made from (docs/proposals.md,
// "Review inside the agent"): [{"batch","of","ids","queue","input"}], [] when
// none is pending. Writes nothing.
Result<Json> AgentBatchesJson(const ReviewSource& source);

// Whether `reason` is one a declined proposal is archived with:
// user-declined, overflow-truncate or manual-skip.
bool IsDeclineReason(std::string_view reason);

// The most an agent's answers may hold (--answers, a file or standard input).
inline constexpr size_t kMaxAnswersBytes = proposals::kMaxAnswersBytes;
// Reads the answers file `path`: a regular file of at most kMaxAnswersBytes.
Result<std::string> ReadAnswersFile(const std::string& path);
// Reads the plan file `path` (--plan): a regular file, not through a symlink,
// of at most the cap of a plan (docs/formats.md, "Reading files").
Result<std::string> ReadPlanFile(const std::string& path);

// Decisions by flags: --approve / --decline ids (comma-separated lists too),
// --approve-all / --decline-all, --reason for the declined.
struct DecisionFlags {
  std::vector<std::string> approve, decline;
  bool approve_all = false, decline_all = false;
  std::string reason = "user-declined";
};

// One decision per pending proposal. Ids name queued proposals by the
// text::MatchId rule; an id of a settled proposal names nothing (no error).
Result<std::vector<proposals::Decision>> DecideByFlags(const DecisionFlags& flags,
                                                       const proposals::ReviewSet& set,
                                                       text::TimePoint now);

// A plan: {"approve": [ids], "decline": [ids], "reason": "user-declined"},
// read with the bounded JSON reader; `path` names it in errors.
Result<DecisionFlags> ParsePlan(std::string_view text, const std::string& path);
// The plan's decisions: what it does not name stays queued.
Result<std::vector<proposals::Decision>> DecideByPlan(const DecisionFlags& plan,
                                                      const std::string& path,
                                                      const proposals::ReviewSet& set,
                                                      text::TimePoint now);

// An agent's answers to the batches (--answers). On the team's batch, answers
// to batches printed while the team was out of reach are the local queue's:
// then `source` and `set` become the local queue's. `set.pending` becomes
// what the batches showed.
Result<std::vector<proposals::Decision>> DecideByAnswers(std::string_view text,
                                                         const proposals::AnswerOptions& options,
                                                         const store::Store& store,
                                                         ReviewSource* source,
                                                         proposals::ReviewSet* set);

// The interactive review of the pending proposals (proposals::ReviewSession,
// keys as its header lists them): batches of four, the selected ones approved
// and the others declined. The terminal front end feeds it the bytes it reads
// and draws the screens it renders, until it is no longer active.
class ReviewPicker {
 public:
  // Stamps each decided batch with the time it was decided.
  using Clock = std::function<text::TimePoint()>;

  // The pending proposals of `set`, in order; without `clock`, the system's.
  explicit ReviewPicker(const proposals::ReviewSet& set, Clock clock = nullptr);
  ~ReviewPicker();
  ReviewPicker(ReviewPicker&&) noexcept;
  ReviewPicker& operator=(ReviewPicker&&) noexcept;

  // Bytes read from the terminal: their keys (an escape sequence may arrive
  // split over two reads), each applied at the clock's time.
  void Feed(std::string_view bytes);
  // The terminal went away: stop with nothing decided.
  void Quit();

  bool active() const;  // still taking keys
  bool done() const;    // every proposal decided (when not active and not done: quit)
  // One decision per pending proposal (meaningful once done()).
  const std::vector<proposals::Decision>& decisions() const;
  // The whole screen for the current state, wrapped to `width` columns.
  std::string Render(size_t width) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct Reviewed {
  // nullopt: the team refused the decisions (the runner printed one line).
  std::optional<proposals::PromoteResult> result;
  bool ok = false;  // the queue was cleared without errors
};

// On the team's batch, first checks that this machine holds the claim of each
// decided proposal; then promotes and clears (proposals::PromoteAndClear) as
// `session`; then tells the team what this machine's files decided.
Result<Reviewed> ApplyDecisions(const std::string& repo, const ReviewSource& source,
                                const proposals::ReviewSet& set,
                                const std::vector<proposals::Decision>& decisions,
                                const std::string& session, const TeamRunner& team);

// The result as `lore review --json` prints it.
Json ReviewedJson(const proposals::PromoteResult& result);

}  // namespace lore::app
