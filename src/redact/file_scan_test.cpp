#include "redact/file_scan.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <utility>
#include <vector>

#include "support/temp_dir.h"

namespace lore::redact {
namespace {

using Hits = std::vector<std::pair<int64_t, Rule>>;

TEST(RedactFileScan, LinesCutByChunksAreScannedWhole) {
  testing::TempDir t;
  // Line 3 straddles the first 1 MiB read; line 4 has no final newline.
  std::string text = "clean\nkey AKIAIOSFODNN7EXAMPLE twice AKIAIOSFODNN7EXAMPLE\n";
  text +=
      std::string((1 << 20) - text.size() - 5, 'x') + " ghp_1234567890abcdefghijABCDEFGHIJ123456\n";
  text += "<private>tail";
  t.Write("f.jsonl", text);
  Hits hits;
  ASSERT_TRUE(ScanFile(t / "f.jsonl", [&](int64_t line, Rule r) { hits.push_back({line, r}); }));
  EXPECT_EQ(hits, (Hits{{2, Rule::kAwsAccessKey}, {3, Rule::kGithubToken}, {4, Rule::kPrivate}}));
}

TEST(RedactFileScan, TreeNamesFilesRelativeAndSkipsSymlinks) {
  testing::TempDir t;
  t.Write("store/memory/decisions/a.md", "---\n---\npassword: hunter22x\n");
  t.Write("store/raw.jsonl", "{}\n");
  t.Write("outside.txt", "AKIAIOSFODNN7EXAMPLE\n");
  ASSERT_EQ(::symlink((t / "outside.txt").c_str(), (t / "store/link.txt").c_str()), 0);
  std::vector<std::string> seen;
  auto n = ScanTree(t / "store", [&](const std::string& rel, int64_t line, Rule r) {
    seen.push_back(rel + ":" + std::to_string(line) + ":" + std::string(RuleName(r)));
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 1);
  EXPECT_EQ(seen, std::vector<std::string>{"memory/decisions/a.md:3:assignment"});
}

TEST(RedactFileScan, TreeScansNamesAndShowsThemCleaned) {
  testing::TempDir t;
  const std::string key = "sk_live_" + std::string("aB3dE5gH7jK9mN1pQ2sT4vW6");
  t.Write("store/memory/decisions/" + key + ".md", "clean\nAKIAIOSFODNN7EXAMPLE\n");
  t.Write("store/cursors/glpat-aB3dE5gH7jK9mN1pQ2sT/x.json", "{}\n");
  t.Write("store/raw.jsonl", "{}\n");
  std::vector<std::string> seen;
  auto n = ScanTree(t / "store", [&](const std::string& rel, int64_t line, Rule r) {
    seen.push_back(rel + ":" + std::to_string(line) + ":" + std::string(RuleName(r)));
  });
  ASSERT_TRUE(n);
  EXPECT_EQ(*n, 3);
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "cursors/[REDACTED:gitlab-token]:0:gitlab-token",
                      "memory/decisions/[REDACTED:stripe-key].md:0:stripe-key",
                      "memory/decisions/[REDACTED:stripe-key].md:2:aws-access-key"}));
}

}  // namespace
}  // namespace lore::redact
