#include "lore/distill/digest.h"

#include <gtest/gtest.h>

namespace lore::distill {
namespace {

const std::string kHead = "---\ntitle: app memory\nupdated: 2026-10-03\ntags: [gotchas]\n---\n";
const std::vector<std::string> kPages = {"gotchas.md", "notes/setup.md"};

TEST(DigestTest, WithDigestKeepsTheFrontmatterAndTrimsTheBody) {
  EXPECT_EQ(WithDigest(kHead + "# old\n", "\n\n# new\n\ntext  \n\n"), kHead + "# new\n\ntext\n");
  EXPECT_EQ(WithDigest(kHead + "# old\n", ""), kHead);
}

TEST(DigestTest, AcceptsLinksToPagesOfTheBundle) {
  EXPECT_TRUE(
      CheckDigest(kHead + "# a\n\n[G](gotchas.md) [S](notes/setup.md#first \"t\")\n", kPages));
}

TEST(DigestTest, EachRuleIsNamed) {
  auto what = [](const std::string& page) {
    auto s = CheckDigest(page, kPages);
    return s ? std::string("ok") : s.error().what;
  };
  std::string lines = kHead;
  for (int i = 0; i < 56; ++i) lines += "x\n";
  EXPECT_EQ(
      what(lines),
      "the digest breaks a rule: it has 61 lines with the frontmatter; at most 60 are allowed");
  lines.resize(lines.size() - 2);
  EXPECT_EQ(what(lines), "ok");
  EXPECT_EQ(
      what(kHead + std::string(4096, 'x')),
      "the digest breaks a rule: it has 4158 bytes with the frontmatter; at most 4096 are allowed");
  EXPECT_EQ(what(kHead + "\xff\n"), "the digest breaks a rule: it is not valid UTF-8");
  EXPECT_EQ(what(kHead), "the digest breaks a rule: it is empty");
  EXPECT_EQ(what(kHead + "---\ntitle: x\n---\n"),
            "the digest breaks a rule: it starts with a frontmatter fence '---'");
  EXPECT_EQ(
      what(kHead + "[x](../raw.jsonl)\n"),
      "the digest breaks a rule: it links to '../raw.jsonl', which is not a page of the bundle");
  EXPECT_EQ(
      what(kHead + "[x](/etc/passwd)\n"),
      "the digest breaks a rule: it links to '/etc/passwd', which is not a page of the bundle");
  EXPECT_EQ(what(kHead + "[x](https://example.com)\n"),
            "the digest breaks a rule: it links to 'https://example.com', which is not a page of "
            "the bundle");
}

TEST(DigestTest, ThePromptHoldsTheRulesAndThePages) {
  std::vector<Page> pages = {{"gotchas.md", kHead + "# Gotchas\n\n- Never log the key\n"},
                             {"index.md", kHead + "# app memory\n"},
                             {"big.md", kHead + std::string(20000, 'y') + "\n"}};
  DigestPrompt p = MakeDigestPrompt(pages, {"gotchas.md", "big.md"});
  EXPECT_NE(p.system.find("at most 52 lines"), std::string::npos);
  EXPECT_NE(p.system.find("[Gotchas](gotchas.md): gotchas.md, big.md."), std::string::npos);
  EXPECT_NE(p.user.find("=== gotchas.md\n# Gotchas\n\n- Never log the key\n"), std::string::npos);
  EXPECT_NE(p.user.find("=== index.md (the digest lore wrote itself)\n# app memory\n"),
            std::string::npos);
  EXPECT_EQ(p.user.find("title: app memory"), std::string::npos);  // no frontmatter
  EXPECT_NE(p.user.find("[…cut]"), std::string::npos);
  EXPECT_LT(p.user.size(), 12000u);
}

}  // namespace
}  // namespace lore::distill
