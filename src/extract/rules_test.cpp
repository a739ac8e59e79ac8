#include "lore/extract/rules.h"

#include <gtest/gtest.h>

#include "activity/excerpt.h"
#include "lore/extract/transcript.h"

namespace lore::extract {
namespace {

using activity::Excerpt;
using activity::FirstErrorLine;
using activity::FirstPath;

int64_t next_line = 0;

Event Person(const std::string& t) {
  return MakeEvent(EventKind::kPersonText, ++next_line, false, t);
}
Event Agent(const std::string& t) {
  return MakeEvent(EventKind::kAssistantText, ++next_line, false, t);
}
Event Use(const std::string& id, const std::string& name, const std::string& detail) {
  Event e = MakeEvent(EventKind::kToolUse, ++next_line);
  e.tool_id = id;
  e.tool_name = name;
  e.detail = detail;
  return e;
}
Event Res(const std::string& id, const std::string& text, ResultStatus status = ResultStatus::kOk) {
  Event e = MakeEvent(EventKind::kToolResult, ++next_line);
  e.tool_id = id;
  e.text = text;
  e.status = status;
  e.at = "2026-01-17T10:0" + std::to_string(next_line % 10) + ":00Z";
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

TEST(RulesEngineTest, ShortTurnsAreRequestsAcknowledgementsAreNot) {
  auto e = Extracted(
      {Person("Implement PROJ-42"), Person("force push"), Person("thanks"), Person("ok")});
  ASSERT_EQ(e.requests.size(), 2u);
  EXPECT_EQ(e.requests[0].summary, "Implement PROJ-42");
  EXPECT_EQ(e.requests[1].summary, "force push");
}

TEST(RulesEngineTest, AFailureItsDiagnosisAndItsFixAreOneAttempt) {
  auto e = Extracted(
      {Use("a", "Bash", "make test"),
       Res("a", "Exit code 2\nbuilding...\nsrc/x.c:3: error: expected ';'\nmore",
           ResultStatus::kFailed),
       Agent("The macro in x.h lost its semicolon when I renamed it. Let me put it back."),
       Use("b", "Edit", "/repo/src/x.h"), Res("b", "The file was updated"),
       Use("c", "Bash", "make test"), Res("c", "100% tests passed")});
  ASSERT_EQ(e.attempts.size(), 1u);
  const auto& a = e.attempts[0];
  EXPECT_EQ(a.action, "make test");
  EXPECT_FALSE(a.succeeded);
  EXPECT_EQ(a.result, "src/x.c:3: error: expected ';'\nmore");
  EXPECT_EQ(a.cause, "The macro in x.h lost its semicolon when I renamed it.");
  EXPECT_EQ(a.fix, "make test");
  EXPECT_EQ(a.files, std::vector<std::string>{"/repo/src/x.h"});
  ASSERT_TRUE(a.origin.lines);
  EXPECT_LT(a.origin.lines->from, a.origin.lines->to);
  EXPECT_FALSE(a.origin.at.empty());
  ASSERT_EQ(e.outcomes.size(), 2u);  // both runs are outcomes: failed, then passed
  EXPECT_EQ(e.outcomes[1].kind, "test");
  EXPECT_FALSE(e.outcomes[0].ok);
  EXPECT_TRUE(e.outcomes[1].ok);
}

TEST(RulesEngineTest, ARejectedCallIsTheDecliningNeverAFailure) {
  Event use = Use("r", "Bash", "brew reinstall claude-code");
  use.note = "Reinstall Claude Code";
  Event res = Res("r", "", ResultStatus::kRejected);
  auto e = Extracted({Agent("The cask lags behind. I'll reinstall it."), use, res});
  EXPECT_TRUE(e.attempts.empty());
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Declined: Reinstall Claude Code");
  EXPECT_EQ(e.decisions[0].rationale, "The cask lags behind.");
  // Declining the agent's questions is no decision: the person answers in the chat.
  auto q = Extracted({Use("q", "AskUserQuestion", R"([{"question":"Which?"}])"),
                      Res("q", "", ResultStatus::kRejected)});
  EXPECT_TRUE(q.decisions.empty());
}

// A refused edit is declined by its path below the session's folder, for the
// reason the person gives next.
TEST(RulesEngineTest, ADeclinedEditSaysItsFileRelativeAndThePersonsReason) {
  RulesEngine r;
  r.Checkout("/home/nadia/src/cobaltline");
  r.Checkout("/elsewhere");  // the first one counts
  Event use = Use("e", "Edit", "/home/nadia/src/cobaltline/migrations/20250619_tracking.sql");
  Event res = Res("e", "", ResultStatus::kRejected);
  for (const Event& e :
       {Agent("Now the index."), use, res,
        Person("dont touch that file. we never edit a migration once its merged, sqlx checksums "
               "applied migrations")}) {
    ASSERT_TRUE(r.Take(e).has_value());
  }
  auto e = r.Finish();
  ASSERT_TRUE(e.has_value());
  ASSERT_EQ(e->decisions.size(), 1u);
  EXPECT_EQ(e->decisions[0].chosen, "Declined: Edit migrations/20250619_tracking.sql");
  EXPECT_EQ(e->decisions[0].rationale,
            "dont touch that file. we never edit a migration once its merged, sqlx checksums "
            "applied migrations");
  // Words of the harness or an acknowledgement give no reason.
  auto ok = Extracted({Agent("Now the index."), Use("f", "Edit", "/r/a.sql"),
                       Res("f", "", ResultStatus::kRejected), Person("ok")});
  ASSERT_EQ(ok.decisions.size(), 1u);
  EXPECT_EQ(ok.decisions[0].rationale, "Now the index.");
}

// "go with your plan (dedupe inside the migration, then resolve + deploy)": what
// the parentheses say is the choice, its commas included.
TEST(RulesEngineTest, AChoicePointingAtAPlanIsWhatThePlanSays) {
  auto e = Extracted({Agent("Two ways: dedupe in the migration, or clean the rows by hand."),
                      Person("morning. lets fix the staging migration, go with your plan (dedupe "
                             "inside the migration, then resolve + deploy). rehearse it first")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "dedupe inside the migration, then resolve + deploy");
}

// A pick followed by the person's reason is a decision for that reason, however
// long the reply; lower-case "a)" and "b)" mark options too.
TEST(RulesEngineTest, APickWithThePersonsReasonIsDecidedForIt) {
  const std::string offered =
      "Where the retry schedule should live:\n\n"
      "a) **in-process**: sleep the backoff in a task. Lost on every deploy.\n"
      "b) **persisted**: attempt_count + next_attempt_at columns. Survives deploys.\n\n"
      "I'd go with b. Which one?";
  auto e = Extracted({Agent(offered),
                      Person("option b. we deploy several times a day, in memory retries would "
                             "just evaporate on every rollout. and yeah kill that comment, no clue "
                             "who put it there")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "persisted");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"in-process", "persisted"}));
  EXPECT_EQ(e.decisions[0].rationale.rfind("we deploy several times a day, in memory retries", 0),
            0u)
      << e.decisions[0].rationale;
  auto n = Extracted({Agent("1. **Opaque token**\n2. **Plain last id**\n3. **Offset pages**"),
                      Person("1. mobile shouldnt depend on whats inside the cursor")});
  ASSERT_EQ(n.decisions.size(), 1u);
  EXPECT_EQ(n.decisions[0].chosen, "Opaque token");
  EXPECT_EQ(n.decisions[0].rationale, "mobile shouldnt depend on whats inside the cursor");
}

TEST(RulesEngineTest, NothingToCommitAndInterruptionsAreNotFailures) {
  auto e = Extracted({Use("a", "Bash", "git commit -am x"), Res("a", "nothing to commit"),
                      Use("b", "Bash", "sleep 60"), Res("b", "", ResultStatus::kInterrupted)});
  EXPECT_TRUE(e.attempts.empty());
  EXPECT_TRUE(e.outcomes.empty());
}

TEST(RulesEngineTest, ANumberAnswersTheAgentsNumberedOptions) {
  auto e = Extracted({Agent("How should I proceed?\n1. **Rebase** onto main\n2. **Force push** "
                            "the branch\n3. **Stop** here"),
                      Person("2")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Force push");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"Rebase", "Force push", "Stop"}));
  EXPECT_EQ(e.decisions[0].rationale, "How should I proceed?");
  EXPECT_TRUE(e.requests.empty());
}

TEST(RulesEngineTest, TheAgentsAccountOfTheChoiceIsItsReason) {
  auto e = Extracted({Agent("Which one?\n1. **Round the payer's share**\n2. **Largest remainder** "
                            "allocation\n3. **Decimal shares**"),
                      Person("2"),
                      Agent("Going with 2, largest remainder: the shares always add up exactly "
                            "to the total. Let me write the test first."),
                      Agent("Which branch?\n1. **main**\n2. **fix-rounding**"), Person("2"),
                      Agent("Let me check the worktree first.")});
  ASSERT_EQ(e.decisions.size(), 2u);
  EXPECT_EQ(e.decisions[0].chosen, "Largest remainder");
  EXPECT_EQ(e.decisions[0].rationale,
            "Going with 2, largest remainder: the shares always add up exactly to the total.");
  // Words that do not speak of the choice leave the question it answered.
  EXPECT_EQ(e.decisions[1].rationale, "Which branch?");
}

TEST(RulesEngineTest, TheAgentsRecommendationOfThePickIsItsReason) {
  // Options as sentences: each named by its first one. The agent recommends one; the
  // person's bare number picks it, so the recommendation is the reason ("Option 1 it
  // is." after it says no more).
  const std::string offered =
      "Options:\n\n1. Keep DNS-01 and add `resolvers 1.1.1.1` to the `tls` block. Only the "
      "ACME lookups go to Cloudflare.\n2. Switch to HTTP-01. Needs port 80 forwarded from the "
      "internet.\n3. Drop `local=/home.example.net/` from Pi-hole. That changes DNS for the "
      "whole LAN.\n\nI'd go with 1: smallest blast radius, no inbound port.";
  auto e = Extracted({Agent(offered), Person("1"), Agent("Option 1 it is. Editing the template.")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Keep DNS-01 and add resolvers 1.1.1.1 to the tls block");
  EXPECT_EQ(e.decisions[0].options[1], "Switch to HTTP-01");
  EXPECT_EQ(e.decisions[0].rationale, "I'd go with 1: smallest blast radius, no inbound port.");
  // Another pick than the one recommended: the recommendation is no reason for it.
  e = Extracted({Agent(offered), Person("2")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Switch to HTTP-01");
  EXPECT_EQ(e.decisions[0].rationale.find("blast radius"), std::string::npos);
}

TEST(RulesEngineTest, ANumberWithNoOptionsInSightIsNeitherRequestNorDecision) {
  // The agent's list was on a line that did not parse: "3" answers a question the transcript
  // lost, and a request titled "3" would be noise in every later briefing.
  auto e = Extracted(
      {Agent("Blocky can log every query locally."), Person("3"), Person("option 2"), Person("b")});
  EXPECT_TRUE(e.requests.empty());
  EXPECT_TRUE(e.decisions.empty());
}

TEST(RulesEngineTest, AnswersToNumberedQuestionsAreADecisionEach) {
  auto e =
      Extracted({Agent("Two questions first.\n\n### 1. Storage\n- **A) SQLite** \u2014 one file\n"
                       "- **B) PostgreSQL** \u2014 a server\n\n### 2. Packaging\n"
                       "| Way | Pros |\n|---|---|\n| **A) Debian package** | apt |\n"
                       "| **B) Static tarball** | anywhere |\n\n**3. Anything else?**\n"),
                 Person("1. B, we already run one   2.A   3. keep the CLI small")});
  ASSERT_EQ(e.decisions.size(), 3u);
  EXPECT_EQ(e.decisions[0].chosen, "PostgreSQL");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"SQLite", "PostgreSQL"}));
  EXPECT_EQ(e.decisions[0].rationale, "Storage");
  EXPECT_EQ(e.decisions[1].chosen, "Debian package");
  EXPECT_EQ(e.decisions[1].rationale, "Packaging");
  EXPECT_EQ(e.decisions[2].chosen, "keep the CLI small");  // the person's own words
  EXPECT_EQ(e.decisions[2].rationale, "Anything else?");
  EXPECT_TRUE(e.requests.empty());
  // The options of one question are never another's: no "SQLite or Debian package" list.
  for (const auto& d : e.decisions) {
    for (const auto& o : d.options) EXPECT_NE(o, "Storage");
  }
}

TEST(RulesEngineTest, AShortAnswerNamingAChoiceOfTheQuestion) {
  auto e = Extracted(
      {Agent("The remote moved on. Should I rebase or force push?"), Person("force push")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "force push");
  EXPECT_EQ(e.decisions[0].rationale, "Should I rebase or force push?");
  // A reply naming nothing the agent offered is a request.
  auto r = Extracted({Agent("What would you like to work on?"), Person("open the M-Claude repo")});
  EXPECT_TRUE(r.decisions.empty());
  EXPECT_EQ(r.requests.size(), 1u);
}

TEST(RulesEngineTest, AnsweredQuestionWithOptions) {
  auto e = Extracted(
      {Use("q", "AskUserQuestion",
           R"([{"question":"Which DB?","options":[{"label":"SQLite"},{"label":"Postgres"}]}])"),
       Res("q",
           R"(User has answered your questions: "Which DB?"="Postgres". You can now continue.)")});
  ASSERT_EQ(e.decisions.size(), 1u);
  EXPECT_EQ(e.decisions[0].chosen, "Postgres");
  EXPECT_EQ(e.decisions[0].options, (std::vector<std::string>{"SQLite", "Postgres"}));
}

TEST(RulesEngineTest, ApprovedPlanIsADecisionARejectedOneIsDeclined) {
  auto e =
      Extracted({Use("p", "ExitPlanMode", "# Cache in SQLite\n1. Add a table."),
                 Res("p", "User has approved your plan."), Use("q", "ExitPlanMode", "# Other plan"),
                 Res("q", "", ResultStatus::kRejected)});
  ASSERT_EQ(e.decisions.size(), 2u);
  EXPECT_EQ(e.decisions[0].chosen, "Cache in SQLite");
  EXPECT_EQ(e.decisions[0].rationale, "1. Add a table.");
  EXPECT_EQ(e.decisions[1].chosen, "Declined: the plan: # Other plan");
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

// A yes to an offer to act is consent: the outcomes say what was done. A no
// to it declines, and is a decision.
TEST(RulesEngineTest, AYesToAnOfferToActIsNoDecision) {
  auto e = Extracted({Agent("ccusage reads the local logs. Want me to install ccusage for you?"),
                      Person("yes install ccusage")});
  EXPECT_TRUE(e.decisions.empty());
  EXPECT_TRUE(e.requests.empty());
  auto pr = Extracted({Agent("Committed as 7d2b9f4. Should I push and open the PR?"),
                       Person("yes push it and open the PR, I'll ping Tom to review")});
  EXPECT_TRUE(pr.decisions.empty());
  auto no = Extracted({Agent("Committed. Should I push it to main?"), Person("no, not yet")});
  ASSERT_EQ(no.decisions.size(), 1u);
  EXPECT_EQ(no.decisions[0].chosen, "no, not yet");
}

TEST(RulesEngineTest, SidechainsAndOtherToolsAreLeftOut) {
  Event side = Person("the agent's prompt to a subagent");
  side.sidechain = true;
  auto e = Extracted({side, Use("r", "Read", "/x"), Res("r", "file contents")});
  EXPECT_TRUE(IsEmpty(e));
}

TEST(RulesEngineTest, TheBudgetRanksFixedFailuresFirst) {
  std::vector<Event> many;
  for (int i = 0; i < 400; ++i)
    many.push_back(Person("Do task number " + std::to_string(i) + " " + std::string(100, 'x')));
  many.push_back(Use("a", "Bash", "make"));
  many.push_back(Res("a", "error: no rule to make target", ResultStatus::kFailed));
  many.push_back(Use("b", "Bash", "make all"));
  many.push_back(Res("b", "built"));
  RulesEngine r;
  for (const auto& e : many) ASSERT_TRUE(r.Take(e).has_value());
  auto e = r.Finish();
  ASSERT_TRUE(e);
  ASSERT_EQ(e->attempts.size(), 1u);  // kept first, though it came last
  EXPECT_EQ(e->attempts[0].fix, "make all");
  EXPECT_LT(e->requests.size(), 400u);
  EXPECT_GT(r.dropped(), 0);
  EXPECT_EQ(e->requests.front().summary.substr(0, 16), "Do task number 0");  // in order
}

TEST(RulesEngineTest, TheEntryCarriesTheSessionsTimes) {
  auto e =
      Extracted({Use("a", "Bash", "ls"), Res("a", "x"), Use("b", "Bash", "ls"), Res("b", "y")});
  EXPECT_FALSE(e.started_at.empty());
  EXPECT_LE(e.started_at, e.ended_at);
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
      R"({"type":"user","sessionId":"s","timestamp":"2026-01-17T10:00:00.123Z","gitBranch":"dev","message":{"content":[{"type":"text","text":"hi<system-reminder>x</system-reminder>"}]}})",
      7);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].text, "hi");
  EXPECT_EQ(p.events[0].line, 7);
  EXPECT_EQ(p.events[0].at, "2026-01-17T10:00:00Z");
  EXPECT_EQ(p.session_id, "s");
  EXPECT_EQ(p.branch, "dev");
}

TEST(TranscriptTest, AnEditKeepsWhatItWroteCleaned) {
  auto p = ParseTranscriptLine(
      R"({"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/repo/deploy.sh","old_string":"kickstart -activate","new_string":"pgrep -x agent # read-only\nexport TOKEN=AKIAIOSFODNN7EXAMPLE <private>home ip</private>"}}]}})",
      3);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].detail, "/repo/deploy.sh");
  EXPECT_NE(p.events[0].text.find("pgrep -x agent # read-only"), std::string::npos);
  EXPECT_EQ(p.events[0].text.find("AKIAIOSFODNN7EXAMPLE"), std::string::npos);
  EXPECT_EQ(p.events[0].text.find("home ip"), std::string::npos);
  auto w = ParseTranscriptLine(
      R"({"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"MultiEdit","input":{"file_path":"/repo/a.py","edits":[{"old_string":"x","new_string":"first = 1"},{"old_string":"y","new_string":"second = 2"}]}},{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"make"}}]}})",
      4);
  ASSERT_EQ(w.events.size(), 2u);
  EXPECT_EQ(w.events[0].text, "first = 1\nsecond = 2");
  EXPECT_EQ(w.events[1].text, "");  // only file-writing calls keep a change
}

TEST(TranscriptTest, HarnessWordsCommandsInterruptsAndCompactions) {
  auto slash = ParseTranscriptLine(
      R"({"type":"user","message":{"content":"<command-name>/review-pr</command-name><command-args>12</command-args>"}})",
      1);
  ASSERT_EQ(slash.events.size(), 1u);
  EXPECT_EQ(slash.events[0].text, "/review-pr 12");
  auto interrupt = ParseTranscriptLine(
      R"({"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user]"}]}})",
      2);
  ASSERT_EQ(interrupt.events.size(), 1u);
  EXPECT_EQ(interrupt.events[0].kind, EventKind::kInterrupt);
  auto compact = ParseTranscriptLine(
      R"({"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nWe fixed the cache.\nPlease continue the conversation from where we left it off."}})",
      3);
  ASSERT_EQ(compact.events.size(), 1u);
  EXPECT_EQ(compact.events[0].kind, EventKind::kCompaction);
  EXPECT_EQ(compact.events[0].text, "We fixed the cache.");
  auto rejected = ParseTranscriptLine(
      R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."}]}})",
      4);
  ASSERT_EQ(rejected.events.size(), 1u);
  EXPECT_EQ(rejected.events[0].status, ResultStatus::kRejected);
  EXPECT_EQ(rejected.events[0].text, "");
  auto colours = ParseTranscriptLine(
      R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"\u001b[31mred\u001b[0m <system-reminder>x</system-reminder>"}]}})",
      5);
  ASSERT_EQ(colours.events.size(), 1u);
  EXPECT_EQ(colours.events[0].text, "red");
}

}  // namespace
}  // namespace lore::extract
