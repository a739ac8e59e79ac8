#include "consolidate/topic.h"

#include <gtest/gtest.h>

#include "doc/slug.h"

namespace lore::consolidate {
namespace {

TEST(Topic, SameOptionsInAnyOrderOrSpellingAreOneTopic) {
  EXPECT_EQ(DecisionTopic({"SQLite", "Postgres"}, "SQLite"), "postgres-or-sqlite");
  EXPECT_EQ(DecisionTopic({"postgres", " sqlite ", "SQLite"}, "x"), "postgres-or-sqlite");
  EXPECT_EQ(DecisionTopic({"flat files", "flat_files"}, "x"), "flat-files");
  EXPECT_EQ(DecisionTopic({}, "Use Ninja"), "use-ninja");
}

// Issue 25: a slug is a file name and never holds a secret.
TEST(Topic, SlugsHoldNoSecret) {
  // A secret is removed before the slug is made: the hash is of what is left.
  EXPECT_EQ(
      RequestSlug("rotate AKIAIOSFODNN7EXAMPLE", "").rfind("rotate-redacted-aws-access-key-", 0),
      0u);
  EXPECT_EQ(DecisionTopic({"ghp_1234567890abcdefghijABCDEFGHIJ123456", "b"}, "b"),
            DecisionTopic({"ghp_0000000000abcdefghijABCDEFGHIJ000000", "b"}, "b"));
  // Lower case and hyphens can make a secret's shape: the slug is the hash alone.
  for (std::string slug : {DecisionTopic({}, "SK PROJ abcDEF123ghiJKL456mnoPQR789"),
                           RequestSlug("sk", "live abcdef0123456789abcdef"),
                           SuccessorSlug("topic", "glpat 0123456789abcdefghij")}) {
    EXPECT_EQ(slug.size(), 8u) << slug;
    EXPECT_TRUE(doc::IsValidSlug(slug)) << slug;
  }
  EXPECT_EQ(DecisionTopic({}, "SK PROJ is a name"), "sk-proj-is-a-name");
}

TEST(Topic, LossySetsGetAHash) {
  std::string cpp = DecisionTopic({"C++", "Rust"}, "Rust");
  std::string c = DecisionTopic({"C", "Rust"}, "Rust");
  EXPECT_NE(cpp, c);
  EXPECT_EQ(cpp.rfind("c-or-rust-", 0), 0u) << cpp;
  std::string ja = DecisionTopic({"日本語", "英語"}, "日本語");
  EXPECT_TRUE(doc::IsValidSlug(ja)) << ja;
  EXPECT_EQ(ja.rfind("or-", 0), 0u) << ja;  // only the joiner survives, then the hash
  std::string a_or_b = DecisionTopic({"a-or-b"}, "x");
  EXPECT_NE(a_or_b, DecisionTopic({"a", "b"}, "x"));
  std::string long_topic = DecisionTopic({std::string(80, 'x'), "y"}, "y");
  EXPECT_LE(long_topic.size(), 64u);
  EXPECT_TRUE(doc::IsValidSlug(long_topic)) << long_topic;
}

TEST(Topic, SuccessorsAndRequests) {
  EXPECT_EQ(SuccessorSlug("postgres-or-sqlite", "Postgres"), "postgres-or-sqlite-postgres");
  EXPECT_EQ(RequestSlug("Keep the CLI fast", ""), "keep-the-cli-fast");
  EXPECT_EQ(RequestSlug("add dark mode", "Settings page"), "add-dark-mode-settings-page");
  EXPECT_TRUE(SameChoice("SQLite ", "sqlite"));
  EXPECT_FALSE(SameChoice("SQLite", "Postgres"));
}

}  // namespace
}  // namespace lore::consolidate
