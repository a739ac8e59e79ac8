// The test hooks live only in the test build: the shipped `lore` ignores
// LORE_TEST_HOOK, `lore-test` obeys it (include/lore/testing/point.h).
#include <gtest/gtest.h>
#include <signal.h>

#include "support/consolidate_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

class TestHookTest : public ConsolidateFixture {
 protected:
  RunOptions Crashing(const std::string& hook) const {
    RunOptions o = Opts();
    o.env["LORE_TEST_HOOK"] = hook;
    return o;
  }
};

TEST_F(TestHookTest, ShippedLoreIgnoresACrashHook) {
  Stage(Entry("s1", "db", "db a"));
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Crashing("after-lock:crash"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Staged().empty());  // the run went all the way through
}

TEST_F(TestHookTest, TestBuildObeysTheSameHook) {
  Stage(Entry("s1", "db", "db a"));
  auto r =
      LoreTest({"consolidate", kRepo, "--foreground", "--flush"}, Crashing("after-lock:crash"));
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  EXPECT_EQ(Staged().size(), 1u);
}

TEST_F(TestHookTest, ShippedLoreIgnoresTheReviewCrashHooks) {
  // after-learning-<n> replaced LORE_TEST_CRASH_AFTER_LEARNINGS; neither is obeyed here.
  for (int i = 0; i < 2; ++i) {
    auto p = Lore(
        {"propose", kRepo, "--type", "anti-pattern", "--subject", "s" + std::to_string(i),
         "--insight", "insight", "--evidence", "evidence", "--confidence", "0.8", "--wave", "W1"},
        Opts());
    ASSERT_EQ(p.exit_code, 0) << p.err;
  }
  RunOptions o = Crashing("after-learning-1:crash");
  o.env["LORE_TEST_CRASH_AFTER_LEARNINGS"] = "1";
  auto r = Lore({"review", kRepo, "--json", "--approve-all", "--session", "s1"}, o);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"written\":2"), std::string::npos) << r.out;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
