#include "consolidate/briefing.h"

#include <gtest/gtest.h>

#include "lore/activity/outcomes.h"
#include "lore/text/utf8.h"

namespace lore::consolidate::detail {
namespace {

activity::SessionCard Card(int n, int turns) {
  activity::SessionCard c;
  c.session_id = std::to_string(n) + "aaaaaaa-bbbb";
  c.started_at = "2026-01-1" + std::to_string(n) + "T10:00:00Z";
  c.ended_at = "2026-01-1" + std::to_string(n) + "T11:00:00Z";
  c.first_line = 1;
  c.last_line = 100;
  c.task = "task " + std::to_string(n);
  for (int i = 0; i < turns; ++i) {
    c.turns.push_back({"request " + std::to_string(i) + " of session " + std::to_string(n),
                       std::string(500, 'r') + " reported", i + 1, c.started_at});
  }
  c.open_todos = {"write the docs"};
  activity::Episode ep;
  ep.tool = "Bash";
  ep.action = "make test";
  ep.error = "error: undefined reference to `cache_get'";
  ep.at = c.started_at;
  c.episodes.push_back(ep);
  return c;
}

BriefingInput Input(size_t budget) {
  BriefingInput in;
  in.project = "github.com_acme_widgets";
  in.sessions = 9;
  in.first_date = "2026-01-02";
  for (int i = 6; i >= 1; --i) in.recent.push_back(Card(i, 8));
  for (int i = 0; i < 30; ++i)
    in.earlier.push_back({"2026-01-0" + std::to_string(i % 9 + 1), "s", "old"});
  for (int i = 0; i < 10; ++i)
    in.decisions.push_back({"2026-01-15", "SQLite", "Postgres", "one file"});
  in.instructions.push_back({"2026-01-15", "Always run the tests before you commit"});
  in.gotchas.push_back({"gotcha-x", "When `make` fails with x: y worked"});
  in.budget = budget;
  return in;
}

TEST(Briefing, StaysWithinItsBudgetAndSaysWhatMatters) {
  for (size_t budget : {1000u, 3000u, 6000u, 20000u}) {
    std::string b = RenderBriefing(Input(budget));
    EXPECT_LE(text::CodePointCount(b), budget) << budget;
    EXPECT_EQ(b.rfind(kBriefingStart, 0), 0u);
    EXPECT_NE(b.find(kBriefingEnd), std::string::npos);
  }
  std::string b = RenderBriefing(Input(6000));
  EXPECT_NE(b.find("## Last sessions"), std::string::npos);
  EXPECT_NE(b.find("session 6aaaaaaa"), std::string::npos);
  EXPECT_NE(b.find("Still open on its todo list: write the docs"), std::string::npos);
  {
    BriefingInput stale = Input(6000);
    stale.recent[0].todos_before_last_request = true;
    const std::string s = RenderBriefing(stale);
    EXPECT_NE(s.find("- Not ticked off on its todo list, last written before a later request: "
                     "write the docs"),
              std::string::npos)
        << s;
  }
  EXPECT_NE(b.find("## Open problems"), std::string::npos);
  EXPECT_NE(b.find("undefined reference"), std::string::npos);
  EXPECT_NE(b.find("Always run the tests"), std::string::npos);
  EXPECT_NE(b.find("SQLite (over Postgres): one file"), std::string::npos);
  EXPECT_NE(b.find("knowledge/gotcha-x.md"), std::string::npos);
  // The latest session first, with its request and its report.
  EXPECT_LT(b.find("session 6aaaaaaa"), b.find("session 5aaaaaaa"));
  EXPECT_NE(b.find("request 0 of session 6"), std::string::npos);
  EXPECT_EQ(b, RenderBriefing(Input(6000)));  // the same inputs, the same bytes
}

// A session's failure that a later session dealt with is not "still failing"
// in that session's block, nor an open problem.
TEST(Briefing, AFailureALaterSessionFixedIsSaidToBeDealtWith) {
  BriefingInput in;
  in.project = "example.org_acme_tidewatch";
  in.sessions = 2;
  in.first_date = "2026-11-02";
  activity::SessionCard later = Card(3, 1), earlier = Card(2, 1);
  later.episodes.clear();
  later.achieved.insert(activity::Intent("cargo test"));
  earlier.episodes[0].action = earlier.episodes[0].detail = "cargo test archive";
  earlier.episodes[0].error = "test archive::gzip_roundtrip ... FAILED";
  in.recent = {later, earlier};
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  EXPECT_EQ(b.find("Still failing at its end"), std::string::npos) << b;
  EXPECT_NE(b.find("Failing at its end (dealt with in a later session): `cargo test archive`"),
            std::string::npos)
      << b;
  EXPECT_EQ(b.find("## Open problems"), std::string::npos) << b;
  // The same command run again in a later session, and working, deals with it too.
  later.achieved = {"ran:" + activity::RunKey("bundle exec fastlane beta 2>&1 | tail -5")};
  earlier.episodes[0].action = earlier.episodes[0].detail = "cd ios && bundle exec fastlane beta";
  earlier.episodes[0].error = "Authentication credentials are missing or invalid.";
  in.recent = {later, earlier};
  b = RenderBriefing(in);
  EXPECT_EQ(b.find("## Open problems"), std::string::npos) << b;
  // The project's own test target passing later covers a failed run of its tests
  // by another runner; a target for another part of them does not.
  earlier.episodes[0].action = earlier.episodes[0].detail = "pytest loader/tests -q";
  earlier.episodes[0].error = "ModuleNotFoundError: No module named 'quarry_load'";
  later.achieved.clear();
  for (auto& i : activity::IntentsOf("make loader-test")) later.achieved.insert(i);
  in.recent = {later, earlier};
  b = RenderBriefing(in);
  EXPECT_EQ(b.find("## Open problems"), std::string::npos) << b;
  later.achieved.clear();
  for (auto& i : activity::IntentsOf("make api-test")) later.achieved.insert(i);
  in.recent = {later, earlier};
  b = RenderBriefing(in);
  EXPECT_NE(b.find("## Open problems"), std::string::npos) << b;
  // A script run over ssh, run there again in a later session's longer chain.
  earlier.episodes[0].action = earlier.episodes[0].detail =
      "ssh etl2 'cd /opt/wh && git checkout -q nightly && ./scripts/reload.sh 2026-11-03'";
  earlier.episodes[0].error = "reload: step dbt failed (exit 1)";
  later.achieved.clear();
  for (auto& k : activity::RunKeys("git push && ssh etl2 'cd /opt/wh && git pull -q && "
                                   "./scripts/reload.sh 2026-11-03; git checkout -q main'",
                                   true))
    later.achieved.insert("ran:" + k);
  in.recent = {later, earlier};
  b = RenderBriefing(in);
  EXPECT_EQ(b.find("## Open problems"), std::string::npos) << b;
  earlier.episodes[0].action = earlier.episodes[0].detail = "cargo test archive";
  in.recent = {earlier};  // no later session: still failing, and open
  b = RenderBriefing(in);
  EXPECT_NE(b.find("Still failing at its end: `cargo test archive`"), std::string::npos) << b;
  EXPECT_NE(b.find("## Open problems"), std::string::npos) << b;
}

// An open problem is a purpose the project has not reached: a failed lookup the
// agent went round with another one is none; a failed build, test or install,
// a failure retried, and the failure a session ended on (unless a lookup) are.
TEST(Briefing, OpenProblemsAreUnreachedPurposesNotProbes) {
  BriefingInput in;
  in.project = "example.org_acme_ledgerly";
  in.sessions = 1;
  in.first_date = "2026-11-02";
  activity::SessionCard c = Card(2, 1);
  auto failure = [](std::string command, std::string error, int repeats) {
    activity::Episode ep;
    ep.tool = "Bash";
    ep.action = ep.detail = std::move(command);
    ep.error = std::move(error);
    ep.repeats = repeats;
    ep.at = "2026-01-12T10:00:00Z";
    return ep;
  };
  c.episodes = {failure("whoami /groups", "whoami: extra operand '/groups'", 0),
                failure("mix test test/ledger_test.exs", "1 test, 1 failure", 0),
                failure("curl -sf localhost:4000/health", "curl: (7) Failed to connect", 1),
                failure("ps aux", "ps: unrecognized option: a", 0),
                failure("ssh db2 'cd /opt/wh && ./bin/wh-run dbt test; tail -n 9 t.log'",
                        "Failure in test relationships_fct_invoices_customer_id", 0),
                failure("cat /etc/app.conf", "cat: /etc/app.conf: No such file", 0)};
  in.recent = {c};
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  size_t open = b.find("## Open problems");
  ASSERT_NE(open, std::string::npos) << b;
  std::string problems = b.substr(open);
  EXPECT_EQ(problems.find("whoami"), std::string::npos) << problems;
  EXPECT_EQ(problems.find("ps aux"), std::string::npos) << problems;
  EXPECT_NE(problems.find("mix test"), std::string::npos) << problems;
  EXPECT_NE(problems.find("curl -sf"), std::string::npos) << problems;  // tried again
  EXPECT_NE(problems.find("relationships_fct_invoices"), std::string::npos)
      << "a test run on a host is a test run: " << problems;
  // The last failure is one when it had a purpose; a lookup that failed is none.
  EXPECT_EQ(problems.find("cat /etc/app.conf"), std::string::npos) << problems;
  // A lookup over ssh that failed at the end: a missing file is a probe, an unreachable
  // host a problem.
  {
    activity::SessionCard r = Card(2, 1);
    r.episodes = {failure("ssh pi4 'cat /etc/pihole/custom.list'",
                          "cat: /etc/pihole/custom.list: No such file or directory", 0)};
    in.recent = {r};
    std::string probe = RenderBriefing(in);
    EXPECT_EQ(probe.find("## Open problems"), std::string::npos) << probe;
    EXPECT_EQ(probe.find("failing at its end"), std::string::npos)
        << "a lookup that found nothing is no state of the project: " << probe;
    r.episodes = {failure("ssh -o ConnectTimeout=5 pi4 'cat /etc/hostname'",
                          "ssh: connect to host pi4 port 22: No route to host", 0)};
    in.recent = {r};
    std::string down = RenderBriefing(in);
    ASSERT_NE(down.find("## Open problems"), std::string::npos) << down;
    EXPECT_NE(down.find("- Still failing at its end: `ssh -o ConnectTimeout=5 pi4"),
              std::string::npos)
        << down;
    EXPECT_NE(down.substr(down.find("## Open problems")).find("No route to host"),
              std::string::npos)
        << down;
  }
  c.episodes.push_back(failure("./deploy.sh staging", "deploy: no route to host", 0));
  in.recent = {c};
  b = RenderBriefing(in);
  EXPECT_NE(b.substr(b.find("## Open problems")).find("./deploy.sh staging"), std::string::npos)
      << b;
}

// A build error fixed in the very file it named is no lesson; a commit hook's
// complaint fixed the same way is (the project's rule), and so is a failure fixed
// elsewhere than where it pointed.
TEST(Briefing, ACompileErrorFixedWhereItPointedIsNoLesson) {
  BriefingInput in;
  in.project = "example.org_acme_pinecone";
  in.sessions = 1;
  in.first_date = "2026-11-02";
  activity::SessionCard c = Card(2, 1);
  auto fixed = [](std::string command, std::string error, std::vector<std::string> files) {
    activity::Episode ep;
    ep.tool = "Bash";
    ep.action = ep.detail = std::move(command);
    ep.error = std::move(error);
    ep.fix = "cmake --build build-host";
    ep.files = std::move(files);
    ep.at = "2026-01-12T10:00:00Z";
    return ep;
  };
  c.episodes = {
      fixed("cmake --build build-host 2>&1 | tail -14",
            "test/host/test_gate.cpp:31:8: error: no member named 'memset' in namespace 'std'",
            {"test/host/test_gate.cpp"}),
      fixed("git commit -m 'ingest: retry'",
            "src/ingest.py:50: error: Function is missing a type annotation [no-untyped-def]",
            {"src/ingest.py"}),
      fixed("ninja -C build-s3",
            "main/power/probe.cpp:19:35: error: 'read_fast' was not declared in this scope",
            {"main/power/adc.hpp"})};
  in.recent = {c};
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  size_t lessons = b.find("## Lessons");
  ASSERT_NE(lessons, std::string::npos) << b;
  std::string l = b.substr(lessons);
  EXPECT_EQ(l.find("memset"), std::string::npos) << l;
  EXPECT_NE(l.find("no-untyped-def"), std::string::npos) << l;
  EXPECT_NE(l.find("read_fast"), std::string::npos) << l;
}

// A lesson with a gotcha page is said once, where the page would be: the session's
// account of it (its cause) with the page named; a page with no such lesson
// keeps its own line.
TEST(Briefing, ALessonWithAGotchaPageIsSaidOnce) {
  BriefingInput in;
  in.project = "github.com_nokafor_duskfern";
  in.sessions = 1;
  in.first_date = "2026-02-11";
  activity::SessionCard c = Card(2, 1);
  activity::Episode ep;
  ep.tool = "Bash";
  ep.action = ep.detail = "npx prisma migrate deploy";
  ep.error = "Error: P3018 A migration failed to apply.";
  ep.cause = "The unique index meets 81 duplicate rows.";
  ep.fix = "npx prisma migrate resolve --rolled-back 20260211_species";
  ep.at = "2026-01-12T10:00:00Z";
  c.episodes = {ep};
  in.recent = {c};
  const std::string slug = GotchaSlug(activity::ErrorSignature(ep.error));
  in.gotchas.push_back({slug,
                        "When `npx prisma migrate deploy` fails with \"Error: P3018\": "
                        "npx prisma migrate resolve --rolled-back worked"});
  in.gotchas.push_back({"gotcha-other", "When `make` fails with x: y worked"});
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  std::string l = b.substr(b.find("## Lessons"));
  l = l.substr(0, l.find("\n## ", 3));
  EXPECT_EQ(l.find("When `npx prisma"), std::string::npos) << l;
  EXPECT_NE(l.find("cause: The unique index meets 81 duplicate rows.; then worked: `npx prisma "
                   "migrate resolve --rolled-back 20260211_species` (knowledge/" +
                   slug + ".md)."),
            std::string::npos)
      << l;
  EXPECT_NE(l.find("When `make` fails with x: y worked (knowledge/gotcha-other.md)"),
            std::string::npos)
      << l;
  EXPECT_EQ(std::count(l.begin(), l.end(), '\n'), 4) << "a title, two lessons and a blank" << l;

  // A page that says its failure is not fixed is stale once a session dealt with it, by
  // whatever command: left out; one nobody dealt with stays (a failure seen again and
  // again is a lesson too).
  activity::SessionCard later = Card(3, 1);
  activity::Episode open;
  open.tool = "Bash";
  open.action = open.detail = "gh pr checks 112";
  open.error = "tests / pest fail 2m14s https://example.test/runs/1";
  open.at = "2026-01-13T10:00:00Z";
  activity::SessionCard earlier = Card(2, 1);
  earlier.episodes = {open};
  later.achieved.insert("ran:gh pr checks 112");
  in.recent = {later, earlier};
  in.gotchas = {
      {GotchaSlug(activity::ErrorSignature(open.error)),
       "When `gh pr checks 112` fails with \"tests / pest fail\"" + std::string(kNotFixedYet)},
      {"gotcha-sudo",
       "When `sudo sc_auth pair` fails with \"sudo: a terminal is "
       "required\"" +
           std::string(kNotFixedYet)}};
  b = RenderBriefing(in);
  l = b.substr(b.find("## Lessons"));
  EXPECT_EQ(l.find("gh pr checks 112"), std::string::npos) << l;
  EXPECT_NE(l.find("sudo: a terminal is required"), std::string::npos) << l;
}

// The latest session's last report says where the work stands: the lines of the
// files it edited and of its test runs give way to it in a short block.
TEST(Briefing, TheLastReportOutranksTheEditedFilesLine) {
  BriefingInput in;
  in.project = "example.org_acme_stonepath";
  in.sessions = 1;
  in.first_date = "2026-11-02";
  activity::SessionCard c = Card(2, 3);
  c.turns.back().report = "State at the end of today: still open, the prod drift. " +
                          std::string(600, 'x') + " the window is on Saturday";
  for (int i = 0; i < 12; ++i)
    c.files.push_back({"modules/ecs-service/file_" + std::to_string(i) + ".tf", 1});
  activity::Outcome run;
  run.kind = "test";
  run.what = "terraform validate";
  run.detail = std::string(200, 'v');
  for (int i = 0; i < 4; ++i) c.outcomes.push_back(run);
  in.recent = {c};
  in.budget = 2400;
  std::string b = RenderBriefing(in);
  EXPECT_NE(b.find("the window is on Saturday"), std::string::npos) << b;
  EXPECT_EQ(b.find("- Edited:"), std::string::npos) << b;
  EXPECT_NE(b.find("- Still failing at its end: `make test`"), std::string::npos) << b;
}

// A session ended on a failure only when nothing it set out to do succeeded after
// it: a probe that failed halfway through, then commits that landed, is no end.
TEST(Briefing, AFailureFollowedByLandedWorkIsNotWhereTheSessionEnded) {
  BriefingInput in;
  in.project = "example.org_acme_stonepath";
  in.sessions = 1;
  in.first_date = "2026-11-02";
  activity::SessionCard c = Card(2, 1);
  c.episodes[0].action = c.episodes[0].detail =
      "aws rds modify-db-instance --db-instance-identifier pg --max-allocated-storage 90";
  c.episodes[0].error = "An error occurred (InvalidParameterCombination)";
  c.episodes[0].first_line = c.episodes[0].last_line = 96;
  activity::Outcome commit;
  commit.kind = "commit";
  commit.what = "prod: codify max_allocated_storage";
  commit.first_line = commit.last_line = 123;
  c.outcomes.push_back(commit);
  in.recent = {c};
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  EXPECT_EQ(b.find("Still failing at its end"), std::string::npos) << b;
  EXPECT_EQ(b.find("## Open problems"), std::string::npos) << b;
  c.outcomes.clear();
  in.recent = {c};
  b = RenderBriefing(in);
  EXPECT_NE(b.find("Still failing at its end: `aws rds"), std::string::npos) << b;
}

// Lessons and open problems are not pushed out by the blocks of older sessions.
TEST(Briefing, OlderSessionsNeverPushALessonOut) {
  BriefingInput in = Input(6000);
  for (int i = 0; i < 12; ++i)
    in.gotchas.push_back({"gotcha-" + std::to_string(i), "When `cargo build` fails with error " +
                                                             std::to_string(i) +
                                                             ": installing pkg-config worked"});
  std::string b = RenderBriefing(in);
  EXPECT_NE(b.find("knowledge/gotcha-11.md"), std::string::npos) << b;
  EXPECT_LE(text::CodePointCount(b), 6000u);
  EXPECT_NE(b.find("session 6aaaaaaa"), std::string::npos) << "the latest session keeps its place";
}

// What the project is, in its own words: the checkout's README read in an older session
// before a vendored library's README read in the latest one; the latest session's last
// report (where the work stands) gets more room than the turns before it.
TEST(Briefing, WhatItIsAndWhereTheWorkStands) {
  BriefingInput in;
  in.project = "example.org_acme_relaybox";
  in.sessions = 2;
  in.first_date = "2026-11-09";
  activity::SessionCard latest = Card(3, 3), older = Card(2, 1);
  latest.about = "A tiny job queue on top of PostgreSQL.";
  latest.about_file = "third_party/pgqueue/README.md";
  older.about = "Relays webhooks to internal consumers with retries.";
  older.about_file = "README.md";
  latest.turns.back().report = std::string(600, 'w') + " STATE-END";
  in.recent = {latest, older};
  in.budget = 6000;
  std::string b = RenderBriefing(in);
  EXPECT_NE(b.find("What it is: \"Relays webhooks to internal consumers with retries.\" "
                   "(`README.md`, read in session 2aaaaaaa)"),
            std::string::npos)
      << b;
  EXPECT_EQ(b.find("tiny job queue"), std::string::npos);
  EXPECT_NE(b.find("STATE-END"), std::string::npos) << b;
}

TEST(Briefing, ARewriteReplacesOnlyLoresPart) {
  std::string first = WithBriefing("", "<!-- lore:briefing -->\nv1\n<!-- /lore:briefing -->\n");
  std::string person = first + "\n## My notes\nkeep this\n";
  std::string second =
      WithBriefing(person, "<!-- lore:briefing -->\nv2\n<!-- /lore:briefing -->\n");
  EXPECT_EQ(second,
            "<!-- lore:briefing -->\nv2\n<!-- /lore:briefing -->\n\n## My notes\nkeep this\n");
  EXPECT_EQ(WithBriefing(second, "<!-- lore:briefing -->\nv2\n<!-- /lore:briefing -->\n"), second);
  // A summary of an earlier version: its text stays after the briefing.
  EXPECT_EQ(WithBriefing("# Summary\n\n## Discussions\n- a\n", "B\n"),
            "B\n\n# Summary\n\n## Discussions\n- a\n");
  EXPECT_EQ(WithBriefing("# Summary\n", "B\n"), "B\n");
}

}  // namespace
}  // namespace lore::consolidate::detail
