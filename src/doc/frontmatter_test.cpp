#include "doc/frontmatter.h"

#include <gtest/gtest.h>

namespace lore::doc {
namespace {

TEST(SplitFrontmatter, SplitsYamlAndBody) {
  auto s = SplitFrontmatter("---\ntitle: x\ntags: []\n---\n# Body\ntext\n", "i.md");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->yaml, "title: x\ntags: []\n");
  EXPECT_EQ(s->body, "# Body\ntext\n");
  EXPECT_EQ(s->body_line, 5);
  EXPECT_TRUE(HasContent(s->body));
}

TEST(SplitFrontmatter, EmptyBodyHasNoContent) {
  auto s = SplitFrontmatter("---\ntitle: x\n---\n", "i.md");
  ASSERT_TRUE(s);
  EXPECT_FALSE(HasContent(s->body));
  auto t = SplitFrontmatter("---\ntitle: x\n---", "i.md");
  ASSERT_TRUE(t);
  EXPECT_FALSE(HasContent(t->body));
  auto u = SplitFrontmatter("---\r\ntitle: x\r\n---\r\n \n\t\n", "i.md");
  ASSERT_TRUE(u);
  EXPECT_FALSE(HasContent(u->body));
}

TEST(SplitFrontmatter, MissingOpeningNamesLineOne) {
  auto s = SplitFrontmatter("title: x\n---\n", "okf/index.md");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().line, 1);
  EXPECT_EQ(s.error().path, "okf/index.md");
  EXPECT_NE(s.error().what.find("open"), std::string::npos);
}

TEST(SplitFrontmatter, UnclosedIsAnError) {
  auto s = SplitFrontmatter("---\ntitle: x\nbody\n", "i.md");
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().what.find("not closed"), std::string::npos);
  EXPECT_FALSE(SplitFrontmatter("", "i.md"));
  EXPECT_FALSE(SplitFrontmatter("---", "i.md"));
}

TEST(SplitFrontmatter, InvalidUtf8NamesItsLine) {
  auto s = SplitFrontmatter("---\ntitle: x\n---\nok\nbad \xc3\x28\n", "i.md");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().line, 5);
}

}  // namespace
}  // namespace lore::doc
