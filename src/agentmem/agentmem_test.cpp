#include "agentmem/agentmem.h"

#include <gtest/gtest.h>

namespace lore::agentmem {
namespace {

std::vector<std::string> Texts(const std::vector<Fact>& facts) {
  std::vector<std::string> out;
  for (const Fact& f : facts) out.push_back(f.text);
  return out;
}

TEST(AgentMemBullets, OnlyTheMemorySectionsOfAnInstructionFile) {
  const std::string md =
      "# Widgets\n- Build with make.\n\n## Memory\n- Run ./check.sh before committing.\n"
      "- The token\n  rotates monthly.\n\n### Testing notes\n1. Use make test-all.\n\n"
      "## Style\n- Tabs.\n## Qwen Added Memories\n- Port 8080.\n";
  auto facts = Bullets(md, true, "");
  EXPECT_EQ(Texts(facts), (std::vector<std::string>{"Run ./check.sh before committing.",
                                                    "The token rotates monthly.",
                                                    "Use make test-all.", "Port 8080."}));
  EXPECT_EQ(facts[0].line, 5);
  EXPECT_EQ(facts[2].line, 10);
  EXPECT_EQ(Bullets(md, false, "").size(), 6u);
}

TEST(AgentMemBullets, CodeFencesBreaksAndNesting) {
  const std::string md =
      "- Parent:\n  - one\n  - two\n- Second\n\n```\n- in code\n```\n\n---\n* * *\n"
      "+ Third\n\n  continued after a blank line\n\nA paragraph.\n";
  EXPECT_EQ(Texts(Bullets(md, false, "")),
            (std::vector<std::string>{"Parent: one; two", "Second",
                                      "Third continued after a blank line"}));
}

TEST(AgentMemBullets, OnlySectionsNamingTheProject) {
  const std::string md =
      "# Memory\n## widgets\n- uses port 8080\n### Details\n- and TLS\n"
      "## gadgets\n- uses port 9090\n## misc\nAbout widgets:\n- a fact\n";
  EXPECT_EQ(Texts(Bullets(md, false, "widgets")),
            (std::vector<std::string>{"uses port 8080", "and TLS", "a fact"}));
  EXPECT_TRUE(Bullets(md, false, "widget").empty());  // a whole word only
}

TEST(AgentMemTopicFile, OneFactTitledByItsFrontmatter) {
  const std::string md =
      "---\nname: testing\ndescription: \"Run make test-all\"\ntype: feedback\n---\n\n# Testing\n\n"
      "Run `make test-all`, not `make test`.\n**Why:** CI runs it.\n";
  auto facts = TopicFile(md);
  ASSERT_EQ(facts.size(), 1u);
  EXPECT_EQ(facts[0].title, "Run make test-all");
  EXPECT_EQ(facts[0].text, "Run `make test-all`, not `make test`. **Why:** CI runs it.");
  EXPECT_EQ(facts[0].line, 9);
  EXPECT_EQ(Texts(TopicFile("- a\n- bb b\n")), (std::vector<std::string>{"bb b"}));
  EXPECT_EQ(Texts(TopicFile("Just a note.\n")), (std::vector<std::string>{"Just a note."}));
  EXPECT_TRUE(TopicFile("---\nname: x\n---\n\n").empty());
}

TEST(AgentMemFolder, ClaudeCodesProjectFolderName) {
  EXPECT_EQ(ClaudeMemoryFolder("/h", "/work/my.repo_x"),
            "/h/.claude/projects/-work-my-repo-x/memory");
}

}  // namespace
}  // namespace lore::agentmem
