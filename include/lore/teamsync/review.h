// The team review's pure rules (docs/team.md, "Review"): where a machine
// keeps the batch it claimed from the team queue, whether it may decide a
// proposal, and what its own files say became of one.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace lore::teamsync {

// The proposals this machine claimed from the team queue, as queue lines;
// `lore review` reviews them as it reviews proposals.jsonl.
inline constexpr std::string_view kReviewClaimFile = "team/review-claim.jsonl";
// How long a claim keeps a proposal from the other reviewers.
inline constexpr std::string_view kClaimInterval = "1 hour";
// lore-team's exit status when the team database cannot be used (unreachable,
// refused, no or an old schema): `lore review` then reviews the local queue.
inline constexpr int kExitTeamOffline = 75;
// How many proposals `lore review` claims unless told (three batches of four).
inline constexpr int kDefaultClaim = 12;

// One proposal of the team queue as the claim check sees it.
struct ClaimRow {
  std::string id;
  bool found = false;       // in lore_proposals at all
  std::string state;        // queued, kept, declined, dropped, below_floor
  std::string claimed_by;   // "" when nobody claimed it
  std::string reviewed_by;  // for kept and declined
};

// Why machine `me` may not decide the proposal of `row` ("" when it may: it
// is queued and `me` holds its claim, even past the claim's hour, since
// nobody took it meanwhile).
std::string ClaimProblem(const ClaimRow& row, std::string_view me);

// "kept" when `id` is settled in this store's learnings, "declined" when it
// is in its rejected log, "" otherwise.
std::string_view SettledState(const std::string& id, const std::set<std::string>& learned,
                              const std::set<std::string>& rejected);

}  // namespace lore::teamsync
