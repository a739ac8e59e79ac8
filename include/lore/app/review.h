// `lore review` as use cases any front end can call (docs/proposals.md,
// docs/team.md "Review"): where the review's queue is (the local one, or the
// batch this machine claimed from the team queue), decisions from flags, a
// plan or an agent's answers, and the promotion with the team's claim check.
// The interactive picker stays with the terminal front end. Running lore-team
// is the front end's: it hands in a TeamRunner.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
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

}  // namespace lore::app
