#include "activity/turns.h"

#include <gtest/gtest.h>

#include "activity/excerpt.h"

namespace lore::activity {
namespace {

TEST(Turns, AcknowledgementsAndGreetingsAskForNothing) {
  for (const char* t : {"ok", "Thanks!", "continue", "go ahead.", "yes", "hi", "LGTM"})
    EXPECT_TRUE(IsAcknowledgement(t)) << t;
  for (const char* t : {"force push", "6", "Implement PROJ-12", "use pnpm"})
    EXPECT_FALSE(IsAcknowledgement(t)) << t;
}

TEST(Turns, Questions) {
  EXPECT_TRUE(IsQuestion("Why does the build fail?"));
  EXPECT_TRUE(IsQuestion("is there a cache"));
  EXPECT_FALSE(IsQuestion("can you fix it?"));
  EXPECT_FALSE(IsQuestion("fix the build"));
}

TEST(Turns, ListedOptionsWithTheirMarkers) {
  std::vector<std::string> markers;
  auto opts = ListedOptions(
      "Two ways:\n1. **Rebase** — keep history linear\n2. **Merge**: a merge commit\nWhich?", 9,
      &markers);
  EXPECT_EQ(opts, (std::vector<std::string>{"Rebase", "Merge"}));
  EXPECT_EQ(markers, (std::vector<std::string>{"1", "2"}));
  opts = ListedOptions("Option A: keep it\nOption B: drop it", 9, &markers);
  EXPECT_EQ(opts, (std::vector<std::string>{"Option A", "Option B"}));
  EXPECT_EQ(markers, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ListedOptions("1. only one").empty());
}

TEST(Turns, ChosenOptionByMarkerPositionOrWords) {
  const std::vector<std::string> opts{"Rebase onto main", "Force push the branch", "Do nothing"};
  EXPECT_EQ(ChosenOption("2", opts, {"1", "2", "3"}), 1u);
  EXPECT_EQ(ChosenOption("option 3", opts, {"1", "2", "3"}), 2u);
  EXPECT_EQ(ChosenOption("the first", opts), 0u);
  EXPECT_EQ(ChosenOption("yes, force push", opts), 1u);
  EXPECT_EQ(ChosenOption("B", {"Ralph", "Sisyphus", "Option A", "Option B"}, {"1", "2", "a", "b"}),
            3u);
  EXPECT_FALSE(ChosenOption("7", opts, {"1", "2", "3"}));
  EXPECT_FALSE(ChosenOption("something else", opts));
}

TEST(Turns, ClosingQuestion) {
  EXPECT_EQ(ClosingQuestion("Done. Should I push now?"), "Should I push now?");
  EXPECT_EQ(ClosingQuestion("Done."), "");
}

TEST(Excerpts, GistKeepsProseAndDropsDecoration) {
  EXPECT_EQ(Gist("## Result\n\n| a | b |\n|---|---|\n- **Firewall**: on\n- `SIP`: on\n"
                 "\xe2\x98\x85 Insight \xe2\x94\x80\xe2\x94\x80\xe2\x94\x80\nDone.",
                 200),
            "Result. Firewall: on; SIP: on. Done.");
}

TEST(Excerpts, FailureLinesAndHeadTail) {
  EXPECT_EQ(FailureLines("Exit code 2\nbuilding\nsrc/a.c:3: error: x\nnext\n", 200),
            "src/a.c:3: error: x\nnext");
  EXPECT_EQ(HeadTail("1\n2\n3\n4\n5\n6\n7\n8\n", 400), "1\n2\n3\n…\n6\n7\n8");
  EXPECT_EQ(Cut("abcdef ghij", 8), "abcde…");
}

}  // namespace
}  // namespace lore::activity
