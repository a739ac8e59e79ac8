#include <gtest/gtest.h>

#include <random>

#include "lint/rules.h"
#include "lore/text/edit_distance.h"

namespace lore::lint::detail {
namespace {

using doc::Kind;

// NearSlugs against the comparison of every pair, on slugs drawn from a few
// letters so that most of them have near neighbours (runs of one letter,
// very short slugs and lengths two apart included).
TEST(NearSlugs, FindsWhatComparingEveryPairFinds) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    StoreView view;
    const std::string letters = round % 2 ? "ab-" : "abc0-";
    for (int i = 0; i < 300; ++i) {
      std::string s(1 + rng() % (round < 10 ? 6 : 14), 'a');
      for (char& c : s) c = letters[rng() % letters.size()];
      view.Add(Kind::kDecision, s);
    }
    auto near = NearSlugs(view, Kind::kDecision);
    for (const auto& [slug, ref] : view.records[doc::KindIndex(Kind::kDecision)]) {
      Near want;
      for (const auto& [other, r] : view.records[doc::KindIndex(Kind::kDecision)]) {
        if (other == slug || text::EditDistance(slug, other, 2) > 2) continue;
        if (want.count++ < kShownNear) want.first.push_back(other);
      }
      auto it = near.find(slug);
      Near got = it == near.end() ? Near{} : it->second;
      EXPECT_EQ(got.count, want.count) << slug;
      EXPECT_EQ(got.first, want.first) << slug;
    }
  }
}

// A kind large enough to be walked by several threads, with slugs sharing a
// long prefix ("decision-0417"): what each thread found is added up.
TEST(NearSlugs, ALargeKindGivesWhatComparingEveryPairGives) {
  StoreView view;
  std::mt19937 rng(11);
  for (int i = 0; i < 5000; ++i) {
    std::string s = "decision-";
    s += std::to_string(rng() % 20000);
    if (i % 3 == 0) {
      s += '-';
      s.append(static_cast<size_t>(1 + rng() % 2), rng() % 2 ? 'a' : 'b');
    }
    view.Add(Kind::kDecision, s);
  }
  auto near = NearSlugs(view, Kind::kDecision);
  const auto& all = view.records[doc::KindIndex(Kind::kDecision)];
  size_t i = 0;
  for (const auto& [slug, ref] : all) {
    if (i++ % 25) continue;  // a sample: every pair of 5,000 slugs would take long
    Near want;
    for (const auto& [other, r] : all) {
      if (other == slug || text::EditDistance(slug, other, 2) > 2) continue;
      if (want.count++ < kShownNear) want.first.push_back(other);
    }
    auto it = near.find(slug);
    Near got = it == near.end() ? Near{} : it->second;
    EXPECT_EQ(got.count, want.count) << slug;
    EXPECT_EQ(got.first, want.first) << slug;
  }
}

TEST(NearSlugs, NamesTheFirstFiveAndCountsTheRest) {
  StoreView view;
  for (const char* s : {"use-sqlite", "use-sqlite1", "use-sqlite2", "use-sqlite3", "use-sqlite4",
                        "use-sqlite5", "use-sqlite6", "other"}) {
    view.Add(Kind::kRequest, s);
  }
  auto near = NearSlugs(view, Kind::kRequest);
  ASSERT_EQ(near.count("use-sqlite"), 1u);
  EXPECT_EQ(near["use-sqlite"].count, 6u);
  EXPECT_EQ(near["use-sqlite"].first,
            (std::vector<std::string>{"use-sqlite1", "use-sqlite2", "use-sqlite3", "use-sqlite4",
                                      "use-sqlite5"}));
  EXPECT_EQ(near.count("other"), 0u);
  EXPECT_TRUE(NearSlugs(view, Kind::kDecision).empty());
}

}  // namespace
}  // namespace lore::lint::detail
