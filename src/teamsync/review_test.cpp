#include "lore/teamsync/review.h"

#include <gtest/gtest.h>

namespace lore::teamsync {
namespace {

ClaimRow Row(std::string state, std::string claimed_by, std::string reviewed_by = "") {
  return ClaimRow{"p1", true, std::move(state), std::move(claimed_by), std::move(reviewed_by)};
}

TEST(TeamReviewClaim, OnlyTheHolderOfAQueuedProposalMayDecideIt) {
  EXPECT_EQ(ClaimProblem(Row("queued", "m1"), "m1"), "");
  EXPECT_EQ(ClaimProblem(Row("queued", "m2"), "m1"), "proposal p1 is claimed by machine m2");
  EXPECT_EQ(ClaimProblem(Row("queued", ""), "m1"), "proposal p1 is not claimed by this machine");
  EXPECT_EQ(ClaimProblem(Row("kept", "m2", "m2"), "m1"),
            "proposal p1 was already reviewed (kept) by machine m2");
  EXPECT_EQ(ClaimProblem(Row("declined", "m1", "m1"), "m1"),
            "proposal p1 was already reviewed (declined) by machine m1");
  EXPECT_EQ(ClaimProblem(Row("dropped", ""), "m1"),
            "proposal p1 is not queued team-wide (dropped)");
  ClaimRow missing;
  missing.id = "p9";
  EXPECT_EQ(ClaimProblem(missing, "m1"), "proposal p9 is not in the team queue");
}

TEST(TeamReviewClaim, SettledStateComesFromTheLocalFiles) {
  const std::set<std::string> learned = {"a", "both"}, rejected = {"b", "both"};
  EXPECT_EQ(SettledState("a", learned, rejected), "kept");
  EXPECT_EQ(SettledState("b", learned, rejected), "declined");
  EXPECT_EQ(SettledState("both", learned, rejected), "kept") << "a learning wins";
  EXPECT_EQ(SettledState("c", learned, rejected), "");
  EXPECT_EQ(SettledState("", {""}, {""}), "");
}

}  // namespace
}  // namespace lore::teamsync
