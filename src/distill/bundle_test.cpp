#include "distill/bundle.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "distill/pages.h"
#include "support/temp_dir.h"

namespace lore::distill {
namespace {

namespace stdfs = std::filesystem;
using lore::testing::TempDir;

class BundleTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(store_.Ensure(std::chrono::system_clock::now())); }
  std::string Okf(const std::string& rel) const { return t_.Read("k/okf/" + rel); }
  TempDir t_;
  store::Store store_ = store::Store::AtDir(t_.path(), "k");
};

TEST_F(BundleTest, WritesPagesAndCarriesOtherFiles) {
  t_.Write("k/okf/notes.md", "mine");
  t_.Write("k/okf/sub/deep.md", "deep");
  t_.Write("k/okf/gotchas.md", "stale");
  ASSERT_TRUE(WriteBundle(store_, {{"index.md", "I"}, {"slicing-outcomes.md", "S"}}));
  EXPECT_EQ(Okf("index.md"), "I");
  EXPECT_EQ(Okf("slicing-outcomes.md"), "S");
  EXPECT_EQ(Okf("notes.md"), "mine");
  EXPECT_EQ(Okf("sub/deep.md"), "deep");
  EXPECT_FALSE(stdfs::exists(t_ / "k/okf/gotchas.md"));
  EXPECT_FALSE(stdfs::exists(t_ / "k/.okf.new"));
  EXPECT_FALSE(stdfs::exists(t_ / "k/.okf.old"));
  auto same = BundleMatches(store_, {{"index.md", "I"}, {"slicing-outcomes.md", "S"}});
  ASSERT_TRUE(same);
  EXPECT_TRUE(*same);
  auto differs = BundleMatches(store_, {{"index.md", "I"}});
  ASSERT_TRUE(differs);
  EXPECT_FALSE(*differs);
}

TEST_F(BundleTest, RecoversFromALeftoverBuild) {
  // A crash while building: .okf.new is half written, okf/ is intact.
  t_.Write("k/.okf.new/index.md", "half");
  ASSERT_TRUE(RecoverBundle(store_));
  EXPECT_FALSE(stdfs::exists(t_ / "k/.okf.new"));
  EXPECT_EQ(Okf("index.md").rfind("---\ntitle: k memory\n", 0), 0u);
}

TEST_F(BundleTest, RecoversBetweenTheTwoRenames) {
  // The fallback path crashed after moving okf/ aside: the complete new bundle wins.
  stdfs::rename(t_ / "k/okf", t_ / "k/.okf.old");
  t_.Write("k/.okf.new/index.md", "new");
  ASSERT_TRUE(RecoverBundle(store_));
  EXPECT_EQ(Okf("index.md"), "new");
  EXPECT_FALSE(stdfs::exists(t_ / "k/.okf.old"));
  // Only the old one is left: it comes back.
  stdfs::rename(t_ / "k/okf", t_ / "k/.okf.old");
  ASSERT_TRUE(RecoverBundle(store_));
  EXPECT_EQ(Okf("index.md"), "new");
}

TEST(IndexPage, StaysWithinItsCapWith20000Records) {
  Inputs in;
  in.key = "github.com_acme_widgets";
  std::string text(120, 'x');
  for (int i = 0; i < 20000; ++i) {
    in.findings.push_back(Finding{i,
                                  "finding " + std::to_string(i) + " " + text,
                                  "",
                                  "major",
                                  "T-" + std::to_string(i),
                                  "2026-01-01",
                                  {"f.cc"}});
    in.outcomes.push_back(SlicingOutcome{
        i, "T", "verdict-" + std::to_string(i % 50), text, "1", "2026-01-01", {}, {}});
    if (i < 1000)
      in.decisions.push_back(MemoryRecord{"d" + std::to_string(i), "open", "", "", text, text});
    if (i < 1000) in.summary_lines.push_back(text);
  }
  in.raw_records = in.reviews = 20000;
  for (int i = 0; i < 50; ++i) in.other_pages.push_back("page-" + std::to_string(i) + ".md");
  auto gotchas = GroupFindings(in.findings);
  std::vector<std::pair<std::string, std::string>> pages = {
      {"gotchas.md", "[Gotchas](gotchas.md): " + text},
      {"decisions.md", "[Open decisions](decisions.md): x"}};
  std::string index = IndexPage(in, gotchas, pages);
  EXPECT_LE(index.size(), kIndexMaxBytes);
  EXPECT_LE(static_cast<size_t>(std::count(index.begin(), index.end(), '\n')), kIndexMaxLines);
  EXPECT_NE(index.find("(decisions.md)"), std::string::npos) << index;
}

}  // namespace
}  // namespace lore::distill
