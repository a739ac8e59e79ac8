#include "lore/extract/rules.h"

#include <gtest/gtest.h>

#include "lore/extract/excerpt.h"
#include "lore/extract/transcript.h"

namespace lore::extract {
namespace {

Event Person(const std::string& t) { return MakeEvent(EventKind::kPersonText, 1, false, t); }
Event Agent(const std::string& t) { return MakeEvent(EventKind::kAssistantText, 2, false, t); }
Event Use(const std::string& id, const std::string& name, const std::string& detail) {
  Event e = MakeEvent(EventKind::kToolUse, 3);
  e.tool_id = id;
  e.tool_name = name;
  e.detail = detail;
  return e;
}
Event Res(const std::string& id, const std::string& text, bool err) {
  Event e = MakeEvent(EventKind::kToolResult, 4);
  e.tool_id = id;
  e.text = text;
  e.is_error = err;
  return e;
}

consolidate::StagedEntry Extracted(const std::vector<Event>& events) {
  RulesEngine r;
  for (const auto& e : events) EXPECT_TRUE(r.Take(e).has_value());
  auto out = r.Finish();
  EXPECT_TRUE(out.has_value());
  return *out;
}

TEST(RulesEngineTest, RequestKeepsTheWordsAndTheTarget) {
  auto e =
      Extracted({Person("Fix the flaky test in tests/net_test.cpp. It fails one run in ten.")});
  ASSERT_EQ(e.requests.size(), 1u);
  EXPECT_EQ(e.requests[0].intent, "Fix the flaky test in tests/net_test.cpp.");
  EXPECT_EQ(e.requests[0].target, "tests/net_test.cpp");
  EXPECT_EQ(e.requests[0].summary,
            "Fix the flaky test in tests/net_test.cpp. It fails one run in ten.");
}

TEST(RulesEngineTest, ShellCommandsFailedAndSucceeded) {
  auto e =
      Extracted({Use("a", "Bash", "make test"),
                 Res("a", "Exit code 2\nbuilding...\nsrc/x.c:3: error: expected ';'\nmore", true),
                 Use("b", "Bash", "make"), Res("b", "ok\n", false)});
  ASSERT_EQ(e.attempts.size(), 2u);
  EXPECT_EQ(e.attempts[0].action, "make test");
  EXPECT_FALSE(e.attempts[0].succeeded);
  EXPECT_EQ(e.attempts[0].result, "src/x.c:3: error: expected ';'");
  EXPECT_TRUE(e.attempts[1].succeeded);
}

TEST(RulesEngineTest, ExitCodeInTheTextMeansFailure) {
  auto e = Extracted({Use("a", "Bash", "false"), Res("a", "Exit code 1\n", false)});
  ASSERT_EQ(e.attempts.size(), 1u);
  EXPECT_FALSE(e.attempts[0].succeeded);
}

TEST(RulesEngineTest, ApprovedPlanIsADecisionARejectedOneIsNot) {
  auto e = Extracted({Use("p", "ExitPlanMode", "# Cache in SQLite\n1. Add a table."),
                      Res("p", "User has approved your plan.", false),
                      Use("q", "ExitPlanMode", "# Other plan"), Res("q", "rejected", true)});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Cache in SQLite");
  EXPECT_EQ(e.decisions[0].rationale, "1. Add a table.");
}

TEST(RulesEngineTest, AnsweredQuestionWithOptions) {
  auto e = Extracted(
      {Use("q", "AskUserQuestion",
           R"([{"question":"Which DB?","options":[{"label":"SQLite"},{"label":"Postgres"}]}])"),
       Res("q",
           R"(User has answered your questions: "Which DB?"="Postgres". You can now continue.)",
           false)});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Postgres");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"SQLite", "Postgres"}));
}

TEST(RulesEngineTest, ChoiceAmongTheAgentsNamedOptions) {
  auto e = Extracted({Agent("Options:\n1. **Pin it** — safe\n2. **Upgrade** — risky"),
                      Person("Let's go with Upgrade, since we test it anyway")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Upgrade");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"Pin it", "Upgrade"}));
  EXPECT_TRUE(e.requests.empty());
}

TEST(RulesEngineTest, AnsweredQuestionIsADiscussion) {
  auto e = Extracted({Person("Why is the build slow?"),
                      Agent("The PCH is rebuilt every time.\nccache misses."),
                      Person("Can you fix that?")});
  ASSERT_EQ(e.discussions.size(), 1u);
  EXPECT_EQ(e.discussions[0].topic, "Why is the build slow?");
  EXPECT_EQ(e.discussions[0].points,
            (std::vector<std::string>{"The PCH is rebuilt every time.", "ccache misses."}));
  ASSERT_EQ(e.requests.size(), 1u);  // a polite request is a request
}

TEST(RulesEngineTest, AYesToTheAgentsQuestionIsADecision) {
  auto e = Extracted({Agent("Fixed. Should I also treat a cart of zero quantities as empty?"),
                      Person("yes treat it as empty"), Person("ok")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "yes treat it as empty");
  EXPECT_EQ(e.decisions[0].rationale, "Should I also treat a cart of zero quantities as empty?");
  EXPECT_TRUE(e.requests.empty());  // "ok" is not a request
}

TEST(RulesEngineTest, SidechainsAndOtherToolsAreLeftOut) {
  Event side = Person("the agent's prompt to a subagent");
  side.sidechain = true;
  auto e = Extracted({side, Use("r", "Read", "/x"), Res("r", "file contents", false)});
  EXPECT_TRUE(IsEmpty(e));
}

TEST(RulesEngineTest, ListsAreBounded) {
  std::vector<Event> many;
  for (int i = 0; i < 50; ++i) many.push_back(Person("Do task number " + std::to_string(i)));
  RulesEngine r;
  for (const auto& e : many) ASSERT_TRUE(r.Take(e).has_value());
  EXPECT_EQ(r.Finish()->requests.size(), kMaxItems);
  EXPECT_EQ(r.dropped(), 30);
}

TEST(ExcerptTest, CutsOnUtf8BoundariesAndSqueezesSpace) {
  EXPECT_EQ(Excerpt("  a \n\t b  ", 100), "a b");
  std::string s = "ééééé";  // 2 bytes each
  EXPECT_EQ(Excerpt(s, 5), "éé");
  EXPECT_EQ(FirstPath("see src/a.cpp, then README.md"), "src/a.cpp");
  EXPECT_EQ(FirstPath("e.g. nothing here"), "");
  EXPECT_EQ(FirstErrorLine("Exit code 1\nwarming up\nfatal: not a git repository", 100),
            "fatal: not a git repository");
}

TEST(TranscriptTest, ClassifiesLines) {
  EXPECT_EQ(ParseTranscriptLine("not json", 1).cls, LineClass::kMalformed);
  EXPECT_EQ(ParseTranscriptLine("{\"type\":\"user\",\"message\":{\"content\":\"\xff\"}}", 1).cls,
            LineClass::kMalformed);
  EXPECT_EQ(ParseTranscriptLine(R"({"type":"brand-new"})", 1).cls, LineClass::kUnknown);
  EXPECT_EQ(ParseTranscriptLine(R"({"type":"progress"})", 1).cls, LineClass::kQuiet);
  EXPECT_EQ(
      ParseTranscriptLine(R"({"type":"user","isMeta":true,"message":{"content":"x"}})", 1).cls,
      LineClass::kHarness);
  EXPECT_EQ(ParseTranscriptLine(
                R"({"type":"user","message":{"content":"<command-name>/clear</command-name>"}})", 1)
                .cls,
            LineClass::kHarness);
  auto p = ParseTranscriptLine(
      R"({"type":"user","sessionId":"s","message":{"content":[{"type":"text","text":"hi<system-reminder>x</system-reminder>"}]}})",
      7);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].text, "hi");
  EXPECT_EQ(p.events[0].line, 7);
  EXPECT_EQ(p.session_id, "s");
}

}  // namespace
}  // namespace lore::extract
