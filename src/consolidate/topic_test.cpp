#include "lore/consolidate/topic.h"

#include <gtest/gtest.h>

#include "lore/doc/slug.h"

namespace lore::consolidate {
namespace {

TEST(Topic, SameOptionsInAnyOrderOrSpellingAreOneTopic) {
  EXPECT_EQ(DecisionTopic({"SQLite", "Postgres"}, "SQLite"), "postgres-or-sqlite");
  EXPECT_EQ(DecisionTopic({"postgres", " sqlite ", "SQLite"}, "x"), "postgres-or-sqlite");
  EXPECT_EQ(DecisionTopic({"flat files", "flat_files"}, "x"), "flat-files");
  EXPECT_EQ(DecisionTopic({}, "Use Ninja"), "use-ninja");
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
