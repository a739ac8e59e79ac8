// Black-box test: a review killed between archiving the cleared proposals
// and replacing the queue, then a second review, leaves every line in
// proposals-archive.jsonl exactly once (docs/proposals.md).
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

class ReviewArchiveTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::optional<std::string> hook = std::nullopt) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.env["LORE_WAVE"] = std::nullopt;
    o.env["LORE_TEST_CRASH_AFTER_LEARNINGS"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = hook;
    return o;
  }
  std::string Propose(int n) {
    auto r = Lore(
        {"propose", kRepo, "--type", "anti-pattern", "--subject", "subject " + std::to_string(n),
         "--insight", "insight", "--evidence", "evidence", "--confidence", "0.8", "--wave", "W1"},
        Opts());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out)["id"].get<std::string>();
  }
  std::string Read(const std::string& rel) const {
    return t_.Read("stores/" + std::string(kKey) + "/" + rel);
  }
  TempDir t_;
};

TEST_F(ReviewArchiveTest, KilledAfterArchivingThenReviewedAgainArchivesEachLineOnce) {
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(Propose(i));
  const std::string queue = Read("proposals.jsonl");
  // First review: two approved, two left queued; killed after the archive append.
  t_.Write("plan.json", "{\"approve\":[\"" + ids[0] + "\",\"" + ids[2] + "\"]}");
  auto killed = LoreTest({"review", kRepo, "--session", "s1", "--plan", t_ / "plan.json"},
                         Opts("review-after-archive:crash"));
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err;
  EXPECT_EQ(Read("proposals.jsonl"), queue);  // not replaced yet
  // Second review clears everything: the two recovered and the two others.
  auto second = Lore({"review", kRepo, "--session", "s1", "--approve-all"}, Opts());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(Read("proposals.jsonl"), "");
  std::string archive = Read("proposals-archive.jsonl");
  size_t lines = std::count(archive.begin(), archive.end(), '\n');
  EXPECT_EQ(lines, 4u) << archive;
  for (const auto& id : ids) {
    size_t first = archive.find(id);
    ASSERT_NE(first, std::string::npos) << id;
    EXPECT_EQ(archive.find(id, first + 1), std::string::npos) << id << " archived twice";
  }
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
