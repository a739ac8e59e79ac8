#include "lore/doc/facts.h"

#include <gtest/gtest.h>

namespace lore::doc {
namespace {

Facts MustRead(std::string_view yaml) {
  auto f = ReadFacts(yaml, "x.md", 2);
  EXPECT_TRUE(f) << (f ? "" : f.error().Format());
  return f ? *f : Facts{};
}

TEST(FactsTest, AliasesAreReadInTheirOrder) {
  Facts f = MustRead(
      "created_at: 2026-01-02T00:00:00Z\nupdated: 2026-03-01T00:00:00Z\nintent: ask\n"
      "kind: rule\nby: bob\nagent: claude\nlast_sources:\n- {session_id: s2, range: [1, 2]}\n"
      "sources:\n- {session_id: s1, range: [3, 4]}\n");
  EXPECT_EQ(f.type, "ask");  // type, intent, kind
  EXPECT_EQ(f.kind, "rule");
  EXPECT_EQ(f.author, "claude");  // speaker, author, agent, ..., by
  ASSERT_TRUE(f.updated);         // updated_at, created_at, updated
  EXPECT_EQ(text::UtcSeconds(*f.updated), "2026-01-02T00:00:00Z");
  EXPECT_EQ(f.session, "s1");  // sources before last_sources
}

TEST(FactsTest, AFieldOfTheWrongTypeIsLeftOutNotTheRest) {
  Facts f = MustRead(
      "model_invokation: maybe\nupdated_at: not a time\ncreated_at: 2026-01-02T00:00:00Z\n"
      "status: [a]\ntype: '  '\nkind: decision\ntags: [a, [b], c]\ndescription: d\n");
  EXPECT_FALSE(f.model_invokation);
  EXPECT_TRUE(f.updated);  // the first alias that is a time
  EXPECT_EQ(f.status, "");
  EXPECT_EQ(f.type, "decision");  // a blank type falls through
  EXPECT_EQ(f.tags, (std::vector<std::string>{"a", "", "c"}));
  EXPECT_EQ(f.description, "d");
}

// The record model's guard against control characters protects every reader.
TEST(FactsTest, ControlCharactersAndBadYamlAreRefusedNotThrown) {
  auto c = ReadFacts("title: [a\x01]\n", "x.md", 2);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().what, "frontmatter holds a control character");
  EXPECT_EQ(c.error().line, 2);
  auto bad = ReadFacts("a: [b\n", "x.md", 2);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().what.rfind("frontmatter is not valid YAML", 0), 0u);
  EXPECT_FALSE(ReadFacts("- a\n- b\n", "x.md", 2));
  EXPECT_TRUE(ReadFacts("", "x.md", 2));
}

TEST(FactsTest, ScalarTextAndFlowCollections) {
  EXPECT_EQ(ScalarText("'quoted: yes'"), "quoted: yes");
  EXPECT_EQ(ScalarText("plain"), "plain");
  EXPECT_FALSE(ScalarText("[a, b]"));
  EXPECT_FALSE(ScalarText("Use: WAL"));
  EXPECT_TRUE(IsFlowCollection(" [a, b]"));
  EXPECT_TRUE(IsFlowCollection("{k: v}"));
  EXPECT_FALSE(IsFlowCollection("[a"));
  EXPECT_FALSE(IsFlowCollection("a, b"));
}

}  // namespace
}  // namespace lore::doc
