#include "lore/app/propose.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "lore/text/time.h"

namespace lore::app {
namespace {

TEST(AppPropose, TheTypesAProposalMayHave) {
  const auto& types = ProposalTypes();
  EXPECT_EQ(&types, &ProposalTypes());
  // In the order `lore propose --help` lists them.
  ASSERT_EQ(types.size(), 13u);
  EXPECT_EQ(types.front(), "mode-selector-accuracy");
  EXPECT_EQ(types.back(), "design-pattern");
  for (std::string_view t : {"convention", "anti-pattern"})
    EXPECT_NE(std::find(types.begin(), types.end(), t), types.end()) << t;
  EXPECT_EQ(std::find(types.begin(), types.end(), "learning"), types.end());
  EXPECT_EQ(std::adjacent_find(types.begin(), types.end()), types.end());
}

TEST(AppProposeTest, TheWaveOfADayAndWhenItEnds) {
  auto now = text::ParseIso("2026-01-07T23:59:59Z");
  ASSERT_TRUE(now);
  DayWave w = WaveOfDay("mcp", *now);
  EXPECT_EQ(w.id, "mcp-20260107");
  EXPECT_EQ(w.ends_at, "2026-01-08T00:00:00Z");
  // The first second of the next day is the next wave.
  DayWave next = WaveOfDay("mcp", *now + std::chrono::seconds(1));
  EXPECT_EQ(next.id, "mcp-20260108");
  EXPECT_EQ(next.ends_at, "2026-01-09T00:00:00Z");
  // Across a year's end.
  EXPECT_EQ(WaveOfDay("cli", *text::ParseIso("2026-12-31T12:00:00Z")).ends_at,
            "2027-01-01T00:00:00Z");
}

TEST(AppProposeTest, TheLimitsOfAProposalsFields) {
  ProposalLimits limits = ProposalFieldLimits();
  EXPECT_EQ(limits.subject_max, 100u);
  EXPECT_EQ(limits.insight_max, 2000u);
  EXPECT_EQ(limits.evidence_max, 5000u);
  // Each type is one a proposal is accepted with.
  auto propose = [](std::string_view type, bool* located) {
    ProposeRequest r;
    r.flags.type = std::string(type);
    r.flags.subject = "Cache keys include the tenant";
    r.flags.insight = "Keys without it leak between tenants";
    r.flags.evidence = "The incident of 2026-01-02";
    r.flags.confidence = "0.9";
    r.flags.wave = "w1";
    r.dry_run = true;
    return Propose(
        r,
        [located]() -> Result<store::Store> {
          *located = true;
          return Fail(ErrorCode::kNotFound, "no store here");
        },
        text::TimePoint{});
  };
  // Each type is one a proposal is accepted with: valid flags go on to open
  // the store (which fails here).
  for (std::string_view t : ProposalTypes()) {
    bool located = false;
    EXPECT_FALSE(propose(t, &located)) << t;
    EXPECT_TRUE(located) << t;
  }
  // Another is refused before any store is opened.
  bool located = false;
  auto other = propose("telepathy", &located);
  ASSERT_TRUE(other) << other.error().Format();
  EXPECT_EQ(other->status, Proposed::Status::kInvalid);
  EXPECT_FALSE(located);
}

}  // namespace
}  // namespace lore::app
