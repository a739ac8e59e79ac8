// Black-box tests of the learnings lifecycle (docs/learnings.md): promotion
// that confirms, `lore learnings` (list, contradict, prune), crash safety of
// both rewrites, a prune racing eight promotions, and expired learnings
// leaving search and the distilled bundle.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using nlohmann::json;

constexpr const char* kRepo = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

size_t Count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

class LearningsTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::optional<std::string> hook = std::nullopt) const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.env["LORE_WAVE"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = hook;
    return o;
  }
  std::string Propose(const std::string& type, const std::string& subject,
                      const std::string& wave = "W1", const std::string& conf = "0.8") {
    auto r = Lore({"propose", kRepo, "--type", type, "--subject", subject, "--insight",
                   // The wave in the insight: one subject proposed in two waves is two
                   // proposals, not the same one already queued.
                   "insight about " + subject + " (" + wave + ")", "--evidence", "evidence",
                   "--confidence", conf, "--wave", wave},
                  Opts());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out)["id"].get<std::string>();
  }
  std::string Rel(const std::string& rel) const {
    return "stores/" + std::string(kKey) + "/" + rel;
  }
  std::string Read(const std::string& rel) const { return t_.Read(Rel(rel)); }
  void Write(const std::string& rel, const std::string& text) const { t_.Write(Rel(rel), text); }
  std::vector<json> Learnings() const {
    std::vector<json> out;
    std::string text = Read("learnings.jsonl");
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      if (!line.empty()) out.push_back(json::parse(line, nullptr, false));
      start = end + 1;
    }
    return out;
  }
  static std::string Learning(const std::string& id, const std::string& type,
                              const std::string& subject, double conf, const std::string& expires) {
    json j = {{"id", id},
              {"created_at", "2024-01-01T00:00:00.000Z"},
              {"wave_id", "W0"},
              {"type", type},
              {"subject", subject},
              {"insight", "insight " + subject},
              {"evidence", "e"},
              {"confidence", conf},
              {"schema_version", 1},
              {"source_session", "s0"},
              {"scope", "local"},
              {"occurrences", 1},
              {"expires_at", expires}};
    return j.dump() + "\n";
  }
  TempDir t_;
};

TEST_F(LearningsTest, PromotionConfirmsTheSameTypeAndSubjectInsteadOfAddingOne) {
  std::string first = Propose("anti-pattern", "Global state in tests");
  auto r = Lore({"review", kRepo, "--session", "s1", "--approve-all", "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string second = Propose("anti-pattern", "  global STATE in tests.");
  std::string other = Propose("convention", "global state in tests");  // another type
  r = Lore({"review", kRepo, "--session", "s2", "--approve-all", "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json result = json::parse(r.out);
  EXPECT_EQ(result["written"], 2);
  EXPECT_EQ(result["expected"], 2);
  EXPECT_EQ(result["confirmed"], 1);
  EXPECT_EQ(result["cleared"], true);
  auto ls = Learnings();
  ASSERT_EQ(ls.size(), 2u);
  EXPECT_EQ(ls[0]["id"], first);
  EXPECT_EQ(ls[0]["occurrences"], 2);
  EXPECT_EQ(ls[0]["confidence"].get<double>(), 0.95);
  EXPECT_EQ(ls[0]["confirmed_by"], json::array({second}));
  EXPECT_EQ(ls[1]["id"], other);
  EXPECT_NE(Read("learnings.jsonl").find("\"confidence\":0.95,"), std::string::npos);

  // List, contradict twice, list again.
  r = Lore({"learnings", kRepo, "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json listed = json::parse(r.out);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0]["id"], first);
  r = Lore({"learnings", "contradict", kRepo, first}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("0.95 -> 0.75"), std::string::npos) << r.out;
  r = Lore({"learnings", "contradict", kRepo, first.substr(0, 8), "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["after"].get<double>(), 0.55);
  r = Lore({"learnings", "contradict", kRepo, "no-such-id"}, Opts());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Count(r.err, "\n"), 1u) << r.err;
  EXPECT_NE(r.err.find("no learning has id no-such-id"), std::string::npos) << r.err;
  r = Lore({"learnings", kRepo}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SUBJECT"), std::string::npos);
  EXPECT_NE(r.out.find("0.55"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Global state in tests"), std::string::npos) << r.out;
}

TEST_F(LearningsTest, ExpiredLearningsAreListedOnlyWithAllAndLeaveSearchAndBundle) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  const std::string live =
      Learning("live-1", "convention", "zebra crossings", 0.8, "2999-01-01T00:00:00.000Z");
  const std::string old =
      Learning("old-1", "convention", "quagga migrations", 0.8, "2020-01-01T00:00:00.000Z");
  const std::string zero =
      Learning("zero-1", "convention", "okapi sightings", 0, "2999-01-01T00:00:00.000Z");
  Write("learnings.jsonl", live + old + "not json\n" + zero);
  auto r = Lore({"learnings", kRepo, "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json listed = json::parse(r.out);
  ASSERT_EQ(listed.size(), 1u) << r.out;
  EXPECT_EQ(listed[0]["id"], "live-1");
  EXPECT_NE(r.err.find("1 line is not a JSON object"), std::string::npos) << r.err;
  r = Lore({"learnings", kRepo, "--json", "--all"}, Opts());
  listed = json::parse(r.out);
  ASSERT_EQ(listed.size(), 3u) << r.out;
  EXPECT_FALSE(listed[0].contains("expired"));
  EXPECT_EQ(listed[1]["expired"], true);
  EXPECT_EQ(listed[1]["id"], "old-1");
  EXPECT_EQ(listed[2]["expired"], true);
  r = Lore({"learnings", kRepo, "--all"}, Opts());
  EXPECT_EQ(Count(r.out, "(expired)"), 2u) << r.out;

  // Search: hidden by default, shown with --include-expired.
  r = Lore({"search", kRepo, "quagga", "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out).size(), 0u) << r.out;
  r = Lore({"search", kRepo, "okapi", "--json", "--scope", "learnings"}, Opts());
  EXPECT_EQ(json::parse(r.out).size(), 0u) << r.out;
  r = Lore({"search", kRepo, "zebra", "--json"}, Opts());
  EXPECT_EQ(json::parse(r.out).size(), 1u) << r.out;
  r = Lore({"search", kRepo, "quagga", "--json", "--include-expired"}, Opts());
  json hits = json::parse(r.out);  // the others follow as its session's neighbours
  ASSERT_FALSE(hits.empty()) << r.out;
  EXPECT_EQ(hits[0]["slug"], "old-1") << r.out;

  // The bundle shows only the live one.
  r = Lore({"distill", kRepo}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string page = Read("okf/learnings.md");
  EXPECT_NE(page.find("zebra crossings"), std::string::npos) << page;
  EXPECT_EQ(page.find("quagga"), std::string::npos) << page;
  EXPECT_EQ(page.find("okapi"), std::string::npos) << page;

  // Prune archives the two, keeps the malformed line byte for byte.
  r = Lore({"learnings", "prune", kRepo, "--json"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["pruned"], 2);
  EXPECT_EQ(Read("learnings.jsonl"), live + "not json\n");
  EXPECT_EQ(Read("learnings-archive.jsonl"), old + zero);
}

TEST_F(LearningsTest, KilledDuringAConfirmingPromotionThenReviewedAgainConfirmsOnce) {
  std::string first = Propose("fragile-file", "src/x.cpp breaks");
  ASSERT_EQ(Lore({"review", kRepo, "--session", "s1", "--approve-all"}, Opts()).exit_code, 0);
  std::string a = Propose("fragile-file", "SRC/x.cpp breaks");
  std::string b = Propose("fragile-file", "another file");
  // The confirmation and the new line are one rewrite: killed after it, before the clear.
  auto killed = LoreTest({"review", kRepo, "--session", "s2", "--approve-all"},
                         Opts("after-learning-1:crash"));
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err;
  EXPECT_EQ(Learnings().size(), 2u);
  auto again = Lore({"review", kRepo, "--session", "s2", "--approve-all", "--json"}, Opts());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(json::parse(again.out)["recovered"], 2);
  EXPECT_EQ(Read("proposals.jsonl"), "");
  auto ls = Learnings();
  ASSERT_EQ(ls.size(), 2u);
  EXPECT_EQ(ls[0]["id"], first);
  EXPECT_EQ(ls[0]["occurrences"], 2);
  EXPECT_EQ(ls[0]["confirmed_by"], json::array({a}));
  EXPECT_EQ(ls[1]["id"], b);
}

TEST_F(LearningsTest, KilledDuringAnAppendingPromotionThenReviewedAgainWritesEachOnce) {
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(Propose("convention", "rule " + std::to_string(i)));
  auto killed = LoreTest({"review", kRepo, "--session", "s1", "--approve-all"},
                         Opts("after-learning-2:crash"));
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err;
  EXPECT_EQ(Learnings().size(), 2u);
  auto again = Lore({"review", kRepo, "--session", "s1", "--approve-all"}, Opts());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  std::string all = Read("learnings.jsonl");
  for (const auto& id : ids) EXPECT_EQ(Count(all, id), 1u) << id;
}

TEST_F(LearningsTest, KilledAfterThePruneArchivedThenPrunedAgainArchivesOnce) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  const std::string live = Learning("live-1", "convention", "a", 0.8, "2999-01-01T00:00:00.000Z");
  const std::string old = Learning("old-1", "convention", "b", 0.8, "2020-01-01T00:00:00.000Z");
  Write("learnings.jsonl", old + live);
  auto killed =
      LoreTest({"learnings", "prune", kRepo}, Opts("learnings-prune-after-archive:crash"));
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << killed.err;
  EXPECT_EQ(Read("learnings.jsonl"), old + live);
  EXPECT_EQ(Read("learnings-archive.jsonl"), old);
  auto again = Lore({"learnings", "prune", kRepo, "--json"}, Opts());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(Read("learnings.jsonl"), live);
  EXPECT_EQ(Read("learnings-archive.jsonl"), old);
}

// Eight processes promote one proposal each (four of them confirming one
// learning) while prunes and contradictions rewrite the file in a loop.
TEST_F(LearningsTest, PruneRacingEightPromotionsLosesAndDoublesNothing) {
  ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0);
  std::string seed =
      Learning("shared-1", "convention", "Shared rule", 0.2, "2999-01-01T00:00:00.000Z");
  std::vector<std::string> doomed;
  for (int i = 0; i < 6; ++i) {
    doomed.push_back("old-" + std::to_string(i));
    seed += Learning(doomed.back(), "convention", "old " + std::to_string(i), 0.5,
                     "2020-01-01T00:00:00.000Z");
  }
  for (int i = 0; i < 3; ++i) {
    doomed.push_back("victim-" + std::to_string(i));
    seed += Learning(doomed.back(), "convention", "victim " + std::to_string(i), 0.4,
                     "2999-01-01T00:00:00.000Z");
  }
  Write("learnings.jsonl", seed);
  std::vector<std::string> ids;
  for (int i = 0; i < 8; ++i) {
    ids.push_back(Propose("convention", i < 4 ? "shared rule" : "own rule " + std::to_string(i),
                          "W" + std::to_string(i)));
    t_.Write("plan" + std::to_string(i) + ".json", "{\"approve\":[\"" + ids.back() + "\"]}");
  }
  std::atomic<int> done{0};
  std::vector<int> tries(8, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      for (; tries[i] < 200; ++tries[i]) {
        auto r = Lore({"review", kRepo, "--session", "race", "--plan",
                       t_ / ("plan" + std::to_string(i) + ".json")},
                      Opts());
        if (r.exit_code == 0) break;
      }
      ++done;
    });
  }
  int rewrites = 0;
  for (int k = 0; done.load() < 8 || k < 6; ++k) {
    // Each victim goes to 0 in two contradictions; prunes run between.
    if (k < 6) {
      auto c = Lore({"learnings", "contradict", kRepo, doomed[6 + k / 2]}, Opts());
      EXPECT_EQ(c.exit_code, 0) << c.err;
    }
    auto p = Lore({"learnings", "prune", kRepo}, Opts());
    EXPECT_EQ(p.exit_code, 0) << p.err;
    rewrites += 2;
  }
  for (auto& th : threads) th.join();
  for (int i = 0; i < 8; ++i) EXPECT_LT(tries[i], 200) << "review " << i << " never succeeded";
  ASSERT_EQ(Lore({"learnings", "prune", kRepo}, Opts()).exit_code, 0);

  const std::string all = Read("learnings.jsonl");
  const std::string archive = Read("learnings-archive.jsonl");
  for (int i = 4; i < 8; ++i) EXPECT_EQ(Count(all, "\"" + ids[i] + "\""), 1u) << ids[i];
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Count(all, "\"" + ids[i] + "\""), 1u) << ids[i];
  json shared;
  for (const auto& l : Learnings()) {
    if (l["id"] == "shared-1") shared = l;
  }
  ASSERT_TRUE(shared.is_object()) << all;
  EXPECT_EQ(shared["occurrences"], 5);
  EXPECT_EQ(shared["confirmed_by"].size(), 4u);
  EXPECT_EQ(shared["confidence"].get<double>(), 0.8);
  for (const auto& id : doomed) {
    EXPECT_EQ(Count(all, "\"" + id + "\""), 0u) << id;
    EXPECT_EQ(Count(archive, "\"" + id + "\""), 1u) << id;
  }
  EXPECT_EQ(Learnings().size(), 5u);  // shared-1 and four own rules
  EXPECT_EQ(Read("proposals.jsonl"), "");
  EXPECT_GT(rewrites, 0);
}

TEST_F(LearningsTest, UsageErrors) {
  auto r = Lore({"learnings"}, Opts());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = Lore({"learnings", "contradict", kRepo}, Opts());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = Lore({"learnings", kRepo}, Opts());  // no store yet: nothing to list
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "no learnings\n");
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
