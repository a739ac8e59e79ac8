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
  EXPECT_EQ(opts, (std::vector<std::string>{"keep it", "drop it"}));  // named after the marker
  EXPECT_EQ(markers, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(ListedOptions("1. only one").empty());
  opts = ListedOptions(
      "1. **offset/limit**: simplest\n2. **keyset cursor on `(occurred_at, id)`**: stable\n"
      "3. __stream__ it",
      9, &markers);
  EXPECT_EQ(opts, (std::vector<std::string>{"offset/limit", "keyset cursor on (occurred_at, id)",
                                            "stream it"}))
      << "a name's underscore stays, emphasis goes";
  opts = ListedOptions(
      "1. **Add an explicit `permissions:` block** to deploy-staging.yml: packages: write\n"
      "2. **Switch the repo**: to read-write for every workflow",
      9, &markers);
  EXPECT_EQ(opts,
            (std::vector<std::string>{"Add an explicit permissions: block", "Switch the repo"}))
      << "a colon inside a code span ends no name";
  opts = ListedOptions(
      "a) Switch the reports list to a `snapshots()` listener: cache first.\n"
      "b) Keep the one-shot fetch: try the server once.\n\n"
      "b) is the smaller change and keeps #198's behaviour when online.",
      9, &markers);
  EXPECT_EQ(opts, (std::vector<std::string>{"Switch the reports list to a snapshots() listener",
                                            "Keep the one-shot fetch"}))
      << "a marker said again remarks on its option";
}

TEST(Turns, ARecommendationNamesItsOption) {
  const std::vector<std::string> opts{"Rebase onto main", "Force push the branch", "Do nothing"};
  const std::vector<std::string> marks{"1", "2", "3"};
  EXPECT_EQ(Recommendation("1. a\n2. b\n3. c\n\nI'd go with 2: nobody else uses the branch.", opts,
                           marks, 1),
            "I'd go with 2: nobody else uses the branch.");
  EXPECT_EQ(
      Recommendation("I recommend **option 1** because history stays linear.", opts, marks, 0),
      "I recommend **option 1** because history stays linear.");
  EXPECT_EQ(Recommendation("I'd recommend rebase here, since the PR is small.", opts, marks, 0),
            "I'd recommend rebase here, since the PR is small.");
  EXPECT_EQ(Recommendation("I'd go with 2: nobody else uses it.", opts, marks, 0), "")
      << "another option recommended";
  EXPECT_EQ(Recommendation("Which one do you want?", opts, marks, 0), "");
  EXPECT_EQ(Recommendation("I'd lean towards the third, it changes nothing.", opts, marks, 2),
            "I'd lean towards the third, it changes nothing.");
  EXPECT_EQ(Recommendation("My recommendation is option 2.", opts, marks, 1),
            "My recommendation is option 2.");
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

TEST(Excerpts, ASentenceThatOnlyAnnouncesWhatComesNext) {
  EXPECT_TRUE(Announces("Let me look at the backup unit on pve1 and what it logged."));
  EXPECT_TRUE(Announces("Now I'm going to run the tests again"));
  EXPECT_FALSE(Announces("The lock is stale, so the nightly run fails."));
  EXPECT_FALSE(Announces("Letting the cache warm up fixed it."));
}

TEST(Excerpts, FailureLinesAndHeadTail) {
  // No line names an error: the lines kept start at the innermost step marked as
  // gone wrong, so the error said from them is that step.
  const std::string run =
      "\u2713 Created workflow_dispatch event\nrun 10949920164\nX main deploy-staging\nJOBS\n"
      "\u2713 build in 3m11s\nX deploy in 2m02s\n  \u2713 Set up job\n  X roll out on staging-01\n"
      "ANNOTATIONS\nX Process completed with exit code 1.\n";
  EXPECT_EQ(FailureLines(run, 400).substr(0, 26), "  X roll out on staging-01");
  EXPECT_EQ(FirstErrorLine(FailureLines(run, 400), 200), "X roll out on staging-01");
  EXPECT_EQ(FailureLines("Exit code 2\nbuilding\nsrc/a.c:3: error: x\nnext\n", 200),
            "src/a.c:3: error: x\nnext");
  EXPECT_EQ(HeadTail("1\n2\n3\n4\n5\n6\n7\n8\n", 400), "1\n2\n3\n…\n6\n7\n8");
  EXPECT_EQ(Cut("abcdef ghij", 8), "abcde…");
}

// The line a failure is quoted by: the one naming the error, never a banner
// around a heading, a step that went well, a warning or a lone brace.
TEST(Excerpts, FailureLinesReachTheReportUnderAWrapper) {
  const std::string out =
      "fatal: [nas]: FAILED! => changed=true\n  cmd:\n  - pihole\n  - reloadlists\n"
      "  delta: '0:00:00.21'\n  msg: non-zero return code\n  rc: 1\n  stdout: |-\n"
      "    Unknown option 'reloadlists'\n    Try 'pihole --help' for more information.\n";
  const std::string kept = FailureLines(out, 600);
  EXPECT_EQ(kept,
            "fatal: [nas]: FAILED! => changed=true\n  cmd:\n\u2026\n    Unknown option "
            "'reloadlists'\n    Try 'pihole --help' for more information.");
  EXPECT_EQ(FirstErrorLine(kept, 200), "Unknown option 'reloadlists'");
}

TEST(Excerpts, FirstErrorLineSaysWhatWentWrong) {
  // A CI run's tree: the innermost step marked as gone wrong, not the run's id.
  EXPECT_EQ(FirstErrorLine("\u2713 Created workflow_dispatch event for deploy.yml at main\n"
                           "run 10949920164\n"
                           "X main deploy-staging \u00b7 10949920164\n"
                           "JOBS\n"
                           "\u2713 build in 3m11s (ID 30401866233)\n"
                           "X deploy in 2m02s (ID 30402011949)\n"
                           "  \u2713 Set up job\n"
                           "  X roll out on staging-01\n"
                           "ANNOTATIONS\n"
                           "X Process completed with exit code 1.\n",
                           300),
            "X roll out on staging-01");
  EXPECT_EQ(FirstErrorLine("X  ci / sqlx-offline  1m2s  https://example.test/1\n"
                           "\u2713  ci / test  3m  https://example.test/2\n",
                           300),
            "X ci / sqlx-offline 1m2s https://example.test/1");
  // Ansible's UNREACHABLE! wraps ssh's report, whose box is said by its words.
  EXPECT_EQ(FirstErrorLine("TASK [Gathering Facts] ****************************************\n"
                           "fatal: [nas2]: UNREACHABLE! => changed=false \n"
                           "  msg: |-\n"
                           "    Failed to connect to the host via ssh: @@@@@@@@@@@@@@@@@@@@@@@@\n"
                           "    @    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n"
                           "    @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n"
                           "    Host key verification failed.\n"
                           "  unreachable: true\n",
                           300),
            "Failed to connect to the host via ssh: WARNING: REMOTE HOST IDENTIFICATION HAS "
            "CHANGED!");
  // A logger's time stamp alone on a line is no line of the report.
  EXPECT_EQ(FirstErrorLine("etl: step transform failed (exit 1), see /var/log/etl/t.log\n"
                           "07:12:09  Finished running 40 checks in 3.1s.\n"
                           "07:12:09\n"
                           "07:12:09  Completed with 1 error:\n"
                           "07:12:09\n"
                           "07:12:09  Failure in check not_null_orders_id (models/orders.yml)\n",
                           300),
            "07:12:09 Completed with 1 error: 07:12:09 Failure in check not_null_orders_id "
            "(models/orders.yml)");
  EXPECT_EQ(FirstErrorLine("============ FAILURES ============\n"
                           "____________ test_lookback ____________\n"
                           "    def test_lookback():\n"
                           ">       assert rows == 24\n"
                           "E       assert 23 == 24\n"
                           "tests/test_features.py:41: AssertionError\n"
                           "====== 1 failed, 44 passed in 2.10s ======\n",
                           200),
            "tests/test_features.py:41: AssertionError");
  // A banner around a count is a summary, said without its decoration.
  EXPECT_EQ(
      FirstErrorLine("===== FAILURES =====\n====== 1 failed, 44 passed in 2.10s ======\n", 200),
      "1 failed, 44 passed in 2.10s");
  EXPECT_EQ(FirstErrorLine("\u2713 Requested rerun (failed jobs) of run 42\n"
                           "X Live API smoke test failed: 403 API_KEY_MISSING\n",
                           200),
            "X Live API smoke test failed: 403 API_KEY_MISSING");
  EXPECT_EQ(FirstErrorLine("** WARNING: connection is not using a post-quantum key exchange\n"
                           "** This session may be vulnerable to attacks\n"
                           "Permission denied (publickey).\n",
                           200),
            "Permission denied (publickey).");
  // A runner's banner that only wraps another program's report ("fatal:
  // [host]: FAILED! => …"): the report's own words say what went wrong.
  EXPECT_EQ(FirstErrorLine("TASK [dns : reload lists] ****\n"
                           "fatal: [nas]: FAILED! => changed=true\n"
                           "  cmd:\n  - pihole\n  - reloadlists\n"
                           "  delta: '0:00:00.21'\n  msg: non-zero return code\n  rc: 1\n"
                           "  stderr: ''\n  stdout: |-\n"
                           "    Unknown option 'reloadlists'\n"
                           "PLAY RECAP ****\n",
                           200),
            "Unknown option 'reloadlists'");
  EXPECT_EQ(FirstErrorLine("fatal: [web1]: FAILED! => changed=true\n  rc: 1\n  stderr: |-\n"
                           "    Error: adapting config: unrecognized directive 'resolver'\n",
                           200),
            "Error: adapting config: unrecognized directive 'resolver'");
  EXPECT_EQ(FirstErrorLine("fatal: [web1]: FAILED! => changed=false\n  rc: 2\n", 200),
            "fatal: [web1]: FAILED! => changed=false")
      << "nothing under it: the banner";
  EXPECT_EQ(FirstErrorLine("fatal: not a git repository (or any parent)\n", 200),
            "fatal: not a git repository (or any parent)");
  // A traceback's source line names the error; the line giving it with its
  // message says what it was.
  EXPECT_EQ(FirstErrorLine("    raise TypeError(\n"
                           "E   TypeError: Invalid comparison between dtype and datetime\n",
                           200),
            "E TypeError: Invalid comparison between dtype and datetime");
  EXPECT_EQ(FirstErrorLine("error[E0425]: cannot find function `to_local` in module `time`\n"
                           "error: could not compile `tidewatch` due to 1 previous error\n",
                           200),
            "error[E0425]: cannot find function `to_local` in module `time`");
  EXPECT_EQ(FirstErrorLine("{\n  \"status\": 409,\n  \"message\": \"conflict\"\n}\n", 200),
            "\"status\": 409,");
  // A compiler's diagnostic names its place, whatever its words.
  EXPECT_EQ(
      FirstErrorLine("# example.org/app/internal/relay\n"
                     "internal/relay/retry.go:20:26: too many arguments in call to d.store.Get\n",
                     200),
      "internal/relay/retry.go:20:26: too many arguments in call to d.store.Get");
  // Errors counted are a summary; the error named wins.
  EXPECT_EQ(FirstErrorLine("\u2716 eslint --fix [FAILED]\n"
                           "\u2193 Skipped because of errors from tasks.\n"
                           "  3:10  error  'parseLatLng' is defined but never used\n",
                           200),
            "3:10 error 'parseLatLng' is defined but never used");
  // A heading ending in ':' is quoted with what it announces.
  EXPECT_EQ(FirstErrorLine("Collected errors:\n * opkg_download: Failed to download index\n", 200),
            "Collected errors: * opkg_download: Failed to download index");
  EXPECT_EQ(FirstErrorLine("Exit code 1\nwarming up\nfatal: not a git repository", 100),
            "fatal: not a git repository");
  // A word that only holds a failure word is none ("pipefail").
  EXPECT_EQ(FirstErrorLine("[10:04:41]: $ set -o pipefail && xcodebuild -scheme App\n"
                           "[10:09:12]: Upload failed: missing export compliance\n",
                           200),
            "[10:09:12]: Upload failed: missing export compliance");
  // The telling lines start at the error, past the banners.
  EXPECT_EQ(FailureLines("==== FAILURES ====\n____ test_a ____\nE  KeyError: 'x'\nnext\n", 200),
            "E  KeyError: 'x'\nnext");
  EXPECT_EQ(FailureLines("    raise TypeError(\nE   TypeError: bad\nFAILED t.py::a\n", 200),
            "    raise TypeError(\nE   TypeError: bad\nFAILED t.py::a");
  EXPECT_EQ(FailureLines(" \u276f src/geo.test.ts (6 tests | 2 failed)\n   \u00d7 formats south\n"
                         "1\n2\n3\n4\nAssertionError: expected 'N' to be 'S'\nnext\n",
                         200),
            " \u276f src/geo.test.ts (6 tests | 2 failed)\n   \u00d7 formats south\n\u2026\n"
            "AssertionError: expected 'N' to be 'S'\nnext");
  EXPECT_EQ(FirstErrorLine("  1) test split (MoneyTest)\n     test/money_test.exs:33\n"
                           "     Assertion with == failed\n     stacktrace:\n"
                           "       test/money_test.exs:35: anonymous fn/2 in MoneyTest\n",
                           200),
            "Assertion with == failed");
  EXPECT_EQ(FirstErrorLine("test time::tests::an_error_is_not_a_panic ... ok\n"
                           "test time::tests::dst ... FAILED\n",
                           200),
            "test time::tests::dst ... FAILED");
  EXPECT_EQ(FirstErrorLine("Diff in src/time.rs at line 12:\n"
                           "- let n = parse(raw).map_err(|e| TimeError::Parse { raw })?;\n",
                           200),
            "Diff in src/time.rs at line 12: - let n = parse(raw).map_err(|e| TimeError::Parse { "
            "raw })?;");
  EXPECT_EQ(FirstErrorLine("---- cache::tests::expired stdout ----\n"
                           "thread 'cache::tests::expired' panicked at src/cache.rs:108:9:\n"
                           "assertion `left == right` failed\n"
                           "error: test failed, to rerun pass `--lib`\n",
                           200),
            "thread 'cache::tests::expired' panicked at src/cache.rs:108:9: assertion `left == "
            "right` failed");
}

// An interview written as a project's agent would (not the dev set's words):
// numbered headings, lettered options in a list and in a table, a question
// with no options, and a person answering by number in one line.
constexpr const char* kInterview =
    "A few questions before I write the plan:\n\n"
    "### 1. Storage engine\n"
    "- **A) SQLite** \u2014 one file, no server\n"
    "- **B) PostgreSQL** \u2014 shared, needs a server\n\n"
    "**2. Who runs it?**\n"
    "Just you, or your team too?\n\n"
    "### 3. Packaging\n"
    "| Approach | Pros |\n|---|---|\n"
    "| **A) Debian package** | apt-get install |\n"
    "| **B) Static tarball** | runs anywhere |\n"
    "| **C) Container image** | isolated |\n";

TEST(Turns, OptionsNamedByTheirMarkerAndNotThePointsAroundThem) {
  std::vector<std::string> markers;
  auto opts = ListedOptions(
      "Two tools do this:\n- **Grove** keeps worktrees per branch\n- **Stack** rebases a chain\n\n"
      "**Option A: the Grove plugin (recommended)**\n```\n/plugin install grove\n```\n"
      "**Option B: npm**\n**Option C \u2014 build it from source**\nWhich one?",
      9, &markers);
  EXPECT_EQ(opts, (std::vector<std::string>{"the Grove plugin", "npm", "build it from source"}));
  EXPECT_EQ(markers, (std::vector<std::string>{"a", "b", "c"}));
  auto i = ChosenOption("A", opts, markers);
  ASSERT_TRUE(i.has_value());
  EXPECT_EQ(opts[*i], "the Grove plugin");
}

TEST(Turns, NumberedQuestionsWithTheirLetteredOptions) {
  auto qs = NumberedQuestions(kInterview);
  ASSERT_EQ(qs.size(), 3u);
  EXPECT_EQ(qs[0].number, 1);
  EXPECT_EQ(qs[0].title, "Storage engine");
  EXPECT_EQ(qs[0].options, (std::vector<std::string>{"SQLite", "PostgreSQL"}));
  EXPECT_EQ(qs[1].title, "Who runs it?");
  EXPECT_TRUE(qs[1].options.empty());
  EXPECT_EQ(qs[2].options,
            (std::vector<std::string>{"Debian package", "Static tarball", "Container image"}));
  EXPECT_EQ(qs[2].letters, (std::vector<char>{'A', 'B', 'C'}));
  // One numbered list is no interview; a plain numbered list neither.
  EXPECT_TRUE(NumberedQuestions("### 1. Only one\n- A) x\n- B) y\n").empty());
  EXPECT_TRUE(NumberedQuestions("Steps:\n1. build\n2. test\n3. ship\n").empty());
}

TEST(Turns, NumberedAnswersSplitByTheQuestionsNumbers) {
  auto a =
      NumberedAnswers("1.B  2. the whole team, 3 people   3. A + C, and v1.5 later", {1, 2, 3});
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].number, 1);
  EXPECT_EQ(a[0].text, "B");
  EXPECT_EQ(a[1].text, "the whole team, 3 people");
  EXPECT_EQ(a[2].text, "A + C, and v1.5 later");
  // Numbers out of order or not asked are words of the answer.
  auto b = NumberedAnswers("3. A   1. B", {1, 3});
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].number, 3);
  EXPECT_TRUE(NumberedAnswers("make it 2. please", {7, 8}).empty());
}

TEST(Turns, PickedLettersOpenTheAnswer) {
  auto qs = NumberedQuestions(kInterview);
  ASSERT_EQ(qs.size(), 3u);
  EXPECT_EQ(PickedLetters("B", qs[0]), (std::vector<size_t>{1}));
  EXPECT_EQ(PickedLetters("A + C", qs[2]), (std::vector<size_t>{0, 2}));
  EXPECT_EQ(PickedLetters("C sounds best", qs[2]), (std::vector<size_t>{2}));
  EXPECT_TRUE(PickedLetters("D", qs[2]).empty());            // no such option
  EXPECT_TRUE(PickedLetters("Apt is fine", qs[2]).empty());  // a word, not a letter
  EXPECT_TRUE(PickedLetters("A", qs[1]).empty());            // a question without options
}

}  // namespace
}  // namespace lore::activity
