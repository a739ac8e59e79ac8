#include "lore/app/review.h"

#include <gtest/gtest.h>

namespace lore::app {
namespace {

TEST(AppReview, PlanNamesIdsAndAReason) {
  auto plan =
      ParsePlan(R"({"approve": ["abcd"], "decline": ["ef01", "ef02"], "reason": "manual-skip"})",
                "plan.json");
  ASSERT_TRUE(plan) << plan.error().Format();
  EXPECT_EQ(plan->approve, std::vector<std::string>{"abcd"});
  EXPECT_EQ(plan->decline, (std::vector<std::string>{"ef01", "ef02"}));
  EXPECT_EQ(plan->reason, "manual-skip");
}

TEST(AppReview, PlanIsReadWithTheBoundedReader) {
  // A repeated key (which the unbounded parser let the last one win) is refused.
  auto twice = ParsePlan(R"({"approve": ["a"],
"approve": ["b"]})",
                         "plan.json");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().what.find("the plan is not a JSON object"), std::string::npos);
  EXPECT_EQ(twice.error().path, "plan.json");
  EXPECT_EQ(twice.error().line, 2);
  // Deeper than the reader allows.
  auto deep = ParsePlan(std::string(100, '[') + std::string(100, ']'), "-");
  EXPECT_FALSE(deep);
  auto unknown = ParsePlan(R"({"approve": "abcd"})", "plan.json");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().what.find("\"approve\" is not understood"), std::string::npos);
  auto reason = ParsePlan(R"({"reason": "because"})", "plan.json");
  EXPECT_FALSE(reason);
}

}  // namespace
}  // namespace lore::app
