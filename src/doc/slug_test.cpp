#include "doc/slug.h"

#include <gtest/gtest.h>

#include "doc/rfc3339.h"
#include "lore/doc/kind.h"

namespace lore::doc {
namespace {

TEST(Slug, FollowsTheRule) {
  const std::string max(64, 'a'), over(65, 'a');
  for (std::string_view ok :
       {std::string_view("a"), std::string_view("0"), std::string_view("use-postgres"),
        std::string_view("a-b-c"), std::string_view("x1"), std::string_view("a--b"),
        std::string_view(max)}) {
    EXPECT_TRUE(IsValidSlug(ok)) << ok;
  }
  for (std::string_view bad : {"", "-a", "a-", "A", "a_b", "a.b", "..", "a/b", "a b", "é"}) {
    EXPECT_FALSE(IsValidSlug(bad)) << bad;
  }
  EXPECT_FALSE(IsValidSlug(over));
  // A slug is a file name: one shaped like a secret is not valid (issue 25).
  for (std::string_view secret : {"sk-proj-abc123def456ghi789jkl0", "glpat-0123456789abcdefghij",
                                  "xoxb-1234567890-abcdefghijkl"}) {
    EXPECT_FALSE(IsValidSlug(secret)) << secret;
  }
  EXPECT_TRUE(IsValidSlug("sk-proj-is-a-name"));
}

TEST(Kind, NamesPathsAndPlurals) {
  EXPECT_EQ(ParseKind("decision"), Kind::kDecision);
  EXPECT_EQ(ParseKind("decisions"), Kind::kDecision);
  EXPECT_EQ(ParseKind("workflows"), Kind::kWorkflow);
  EXPECT_EQ(ParseKind("knowledges"), std::nullopt);
  EXPECT_EQ(ParseKind("Decision"), std::nullopt);
  EXPECT_EQ(RelPath(Kind::kSummary, "summary"), "memory/summary.md");
  EXPECT_EQ(RelPath(Kind::kDecision, "x"), "memory/decisions/x.md");
  EXPECT_EQ(RelPath(Kind::kRequest, "x"), "memory/requests/x.md");
  EXPECT_EQ(RelPath(Kind::kKnowledge, "x"), "knowledge/x.md");
  EXPECT_EQ(RelPath(Kind::kWorkflow, "x"), "memory/workflow/x.md");
}

TEST(Rfc3339, AcceptsDateTimesOnly) {
  for (const char* ok : {"2026-01-31T12:00:00Z", "2026-01-31t12:00:00z", "2026-01-31 12:00:00Z",
                         "2024-02-29T00:00:00.123456+09:00", "2026-12-31T23:59:60-05:30"}) {
    EXPECT_TRUE(IsRfc3339(ok)) << ok;
  }
  for (const char* bad :
       {"2026-01-31", "2026-01-31T12:00Z", "2026-01-31T12:00:00", "2025-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-01-31T24:00:00Z", "2026-01-31T12:00:00.Z",
        "2026-01-31T12:00:00+0900", "yesterday", "2026-01-31T12:00:00Zx"}) {
    EXPECT_FALSE(IsRfc3339(bad)) << bad;
  }
}

}  // namespace
}  // namespace lore::doc
