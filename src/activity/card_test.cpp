#include "activity/card.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "activity/session_log.h"
#include "activity/test_events.h"
#include "activity/turns.h"
#include "lore/activity/outcomes.h"

namespace lore::activity {
namespace {

using test::CardOf;
using test::Result;
using test::Use;

TEST(Cards, TurnsReportsInstructionsAndState) {
  SessionLog log;
  log.session_id = "s1";
  log.spans.push_back(
      Span{1, 20, "s1", "2026-01-17T10:00:00Z", "2026-01-17T11:00:00Z", "main", "/r"});
  auto say = [&](EventKind k, int64_t line, const std::string& t) {
    log.events.push_back(MakeEvent(k, line, false, t));
  };
  say(EventKind::kPersonText, 1, "hi");
  say(EventKind::kPersonText, 2, "Add a cache. Always run the tests before you commit.");
  say(EventKind::kAssistantText, 3, "Let me look at the code.");
  say(EventKind::kAssistantText, 4, "Added an LRU cache in src/cache.c. Let me run the tests:");
  Event todo = Use(5, "t", "TodoWrite", "[x] Add the cache\n[ ] Document it");
  log.events.push_back(todo);
  log.events.push_back(Result(6, "t", ResultStatus::kOk, ""));
  log.events.push_back(Use(7, "e", "Edit", "/r/src/cache.c"));
  log.events.push_back(Result(8, "e", ResultStatus::kOk, ""));
  say(EventKind::kPersonText, 9, "continue");
  say(EventKind::kAssistantText, 10, "All 12 tests pass.");
  auto card = ReadCard(log);
  EXPECT_EQ(card.task, "Add a cache. Always run the tests before you commit.");
  ASSERT_EQ(card.turns.size(), 1u);  // "hi" and "continue" start none
  EXPECT_EQ(card.turns[0].report, "Added an LRU cache in src/cache.c. All 12 tests pass.");
  EXPECT_EQ(card.instructions, std::vector<std::string>{"Always run the tests before you commit"});
  EXPECT_EQ(card.open_todos, std::vector<std::string>{"Document it"});
  EXPECT_FALSE(card.todos_before_last_request) << "\"continue\" is no request";
  ASSERT_EQ(card.files.size(), 1u);
  EXPECT_EQ(card.files[0].first, "src/cache.c") << "relative to the session's folder, /r";
  EXPECT_EQ(card.branch, "main");
  EXPECT_EQ(card.closing, "All 12 tests pass.");
}

TEST(Cards, AHookFailureThenALandedCommitIsResolved) {
  auto card = CardOf({
      Use(1, "a", "Bash", "git add Docs && git commit -m \"Sync sessions\""),
      Result(2, "a", ResultStatus::kFailed,
             "gitleaks.....Failed\n- hook id: gitleaks\n- exit code: 1\nFinding: Docs/x.md", 1),
      MakeEvent(EventKind::kAssistantText, 3, false, "gitleaks flags false positives in Docs/."),
      Use(4, "b", "Bash", "git commit --no-verify -m \"Sync sessions (allowlisted)\""),
      Result(5, "b", ResultStatus::kOk, "[main 2828430] Sync sessions (allowlisted)"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed()) << "a commit that landed resolves the hook's failure";
  EXPECT_TRUE(card.Unresolved().empty());
  EXPECT_TRUE(card.achieved.count("commit"));
}

TEST(Cards, AFailureFixedByAnotherCommandIsResolved) {
  auto card = CardOf({
      Use(1, "a", "Bash", "pytest -x tests/"),
      Result(2, "a", ResultStatus::kFailed,
             "FAILED tests/test_parse.py::test_empty\n1 failed, 9 passed", 1),
      Use(3, "e", "Edit", "/r/src/parse.py"),
      Result(4, "e", ResultStatus::kOk, ""),
      MakeEvent(EventKind::kPersonText, 5, false, "Also rename the module."),
      Use(6, "c", "Bash", "git mv src/parse.py src/parser.py"),
      Result(7, "c", ResultStatus::kOk, ""),
      Use(8, "b", "Bash", "python -m pytest tests/ -q"),
      Result(9, "b", ResultStatus::kOk, "10 passed"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed());
}

TEST(Cards, ATestRunOfOnePackageIsFixedByTheWholeWorkspacesRun) {
  auto card = CardOf({
      Use(1, "a", "Bash", "pnpm --filter @fieldnotes/api test"),
      Result(2, "a", ResultStatus::kFailed, "src/lib/geo.test.ts (6 tests | 2 failed)", 1),
      Use(3, "e", "Edit", "/r/apps/api/src/lib/geo.ts"),
      Result(4, "e", ResultStatus::kOk, ""),
      Use(5, "b", "Bash", "pnpm -r test"),
      Result(6, "b", ResultStatus::kOk, "Test Files  9 passed (9)"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed()) << "the same test intent succeeded";
  EXPECT_TRUE(card.Unresolved().empty());
}

TEST(Cards, AFailureAtAFileEditedThenVerifiedIsFixed) {
  auto card = CardOf({
      Use(1, "a", "Bash", "git checkout main && cargo run -q -- table --date 2026-11-01"),
      Result(2, "a", ResultStatus::kFailed,
             "thread 'main' panicked at src/time.rs:12:36:\nAmbiguous local time", 101),
      MakeEvent(EventKind::kPersonText, 3, false, "fix it with GMT"),
      Use(4, "e", "Edit", "/r/src/time.rs"),
      Result(5, "e", ResultStatus::kOk, ""),
      Use(6, "b", "Bash", "cargo test"),
      Result(7, "b", ResultStatus::kOk, "test result: ok. 12 passed"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed());
  EXPECT_EQ(card.episodes[0].fix, "cargo test");
  // Another file edited: nothing says the failure was dealt with.
  auto other = CardOf({
      Use(1, "a", "Bash", "cargo run -q -- table"),
      Result(2, "a", ResultStatus::kFailed, "thread 'main' panicked at src/time.rs:12:36:", 101),
      Use(4, "e", "Edit", "/r/src/cache.rs"),
      Result(5, "e", ResultStatus::kOk, ""),
      Use(6, "b", "Bash", "cargo test"),
      Result(7, "b", ResultStatus::kOk, "test result: ok. 12 passed"),
  });
  ASSERT_EQ(other.episodes.size(), 1u);
  EXPECT_FALSE(other.episodes[0].fixed());
}

TEST(Cards, AHostBuildIsNoAnswerToACrossBuildsFailure) {
  auto card = CardOf({
      Use(1, "a", "Bash", "cargo build --release --target aarch64-unknown-linux-gnu"),
      Result(2, "a", ResultStatus::kFailed, "error: failed to run custom build command", 101),
      Use(3, "b", "Bash", "git checkout -- Cargo.toml && cargo build -q --release"),
      Result(4, "b", ResultStatus::kOk, ""),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_FALSE(card.episodes[0].fixed()) << card.episodes[0].fix;
  auto same = CardOf({
      Use(1, "a", "Bash", "cargo build --release --target aarch64-unknown-linux-gnu"),
      Result(2, "a", ResultStatus::kFailed, "error: failed to run custom build command", 101),
      Use(3, "b", "Bash", "cargo zigbuild --release --target=aarch64-unknown-linux-gnu"),
      Result(4, "b", ResultStatus::kOk, ""),
      Use(5, "c", "Bash", "cargo build --target aarch64-unknown-linux-gnu --release"),
      Result(6, "c", ResultStatus::kOk, "Finished"),
  });
  ASSERT_EQ(same.episodes.size(), 1u);
  EXPECT_TRUE(same.episodes[0].fixed());
}

// A build that failed in a folder is fixed by a later build in that folder by
// another program; a build in another folder fixes nothing.
TEST(Cards, ABuildInTheSameFolderFixesAFailedBuildThere) {
  const std::string error = "main/power/sag_probe.cpp:19:35: error: 'read_fast' was not declared";
  auto card = CardOf({
      Use(1, "a", "Bash", "ninja -C build-s3 2>&1 | grep -E 'error|FAILED' | head -20"),
      Result(2, "a", ResultStatus::kFailed, error, 1),
      Use(3, "b", "Bash", "idf.py build 2>&1 | tail -3"),
      Result(4, "b", ResultStatus::kOk, "Project build complete."),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_FALSE(card.episodes[0].fixed()) << "another folder's build: " << card.episodes[0].fix;
  auto same = CardOf({
      Use(1, "a", "Bash", "ninja -C build-s3 2>&1 | grep -E 'error|FAILED' | head -20"),
      Result(2, "a", ResultStatus::kFailed, error, 1),
      Use(3, "b", "Bash", "idf.py -B build-s3 build 2>&1 | tail -14"),
      Result(4, "b", ResultStatus::kOk, "Project build complete."),
  });
  ASSERT_EQ(same.episodes.size(), 1u);
  EXPECT_TRUE(same.episodes[0].fixed());
  EXPECT_TRUE(same.achieved.count("build@build-s3"));
}

// What a chain set out to do is its last stage: a set-up step before it
// (writing a config file) does not hide that a later run of it answers.
TEST(Cards, AChainIsAnsweredByItsLastStage) {
  auto card = CardOf({
      Use(1, "a", "Bash",
          "printf 'CONFIG_PROBE=y\\n' > /tmp/probe.defaults && idf.py -B build-probe "
          "-DSDKCONFIG_DEFAULTS='sdkconfig.defaults;/tmp/probe.defaults' build 2>&1 | tail -22"),
      Result(2, "a", ResultStatus::kFailed, "FAILED: app.elf\nundefined reference to `probe'", 1),
      Use(3, "b", "Edit", "/repo/main/CMakeLists.txt"),
      Result(4, "b", ResultStatus::kOk, ""),
      Use(5, "c", "Bash", "idf.py -B build-probe build 2>&1 | tail -6"),
      Result(6, "c", ResultStatus::kOk, "Project build complete."),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed());
  EXPECT_TRUE(Answers("Bash", "echo 'registry=x' > .npmrc && npm install -g tsx", "Bash",
                      "npm install -g tsx"));
  EXPECT_FALSE(Answers("Bash", "npm install && npm test", "Bash", "npm install"))
      << "the install went well; the tests did not";
  // A trailing report of the exit code is not what the chain set out to do.
  EXPECT_TRUE(Answers("Bash",
                      "aws rds modify-db-instance --db-instance-identifier pg-1 "
                      "--max-allocated-storage 100 2>&1; echo \"exit=$?\"",
                      "Bash",
                      "aws rds modify-db-instance --db-instance-identifier pg-1 "
                      "--max-allocated-storage 200"));
  EXPECT_EQ(RunKey("make check; echo done"), "make check");
  EXPECT_TRUE(IsLookup("cd x && grep -n foo missing.txt || true"));
}

// The whole suite passing covers a failed run of part of it (not across
// platforms); a Windows wrapper (`gradlew.bat`) is the same tool.
TEST(Cards, TheWholeSuitePassingCoversAFailedPartOfIt) {
  auto card = CardOf({
      Use(1, "a", "Bash",
          "cd \"C:/Users/amara/src/harborpay\" && ./gradlew.bat test --tests "
          "\"com.harborpay.importer.AdjustmentRowParsingTest\""),
      Result(2, "a", ResultStatus::kFailed, "java.lang.NumberFormatException: Character (", 1),
      MakeEvent(EventKind::kPersonText, 3, false, "ok, also add the V14 migration"),
      Use(4, "b", "Bash",
          "cd \"C:/Users/amara/src/harborpay\" && ./gradlew.bat test -q 2>&1 | tail"),
      Result(5, "b", ResultStatus::kOk, "BUILD SUCCESSFUL in 41s"),
  });
  card.cwd = "C:\\Users\\amara\\src\\harborpay";
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed());
  EXPECT_EQ(OutcomeKind("./gradlew.bat test --tests X"), "test");
  EXPECT_EQ(Intent("./gradlew.bat test"), "test:./gradlew test");
  EXPECT_FALSE(Answers("Bash", "pytest tests/test_a.py", "Bash", "pytest tests/test_b.py"));
  EXPECT_TRUE(Answers("Bash", "pytest tests/test_a.py -x", "Bash", "pytest -q"));
  EXPECT_FALSE(Answers("Bash", "pytest tests/test_a.py", "Bash", "pytest -k other"));
}

// A todo list last written before the person's next request is said to be that: the
// agent went on working (a merge, a deploy) without ticking its items off.
TEST(Cards, ATodoListWrittenBeforeALaterRequestIsNotSaidToBeOpen) {
  auto card = CardOf({
      MakeEvent(EventKind::kPersonText, 1, false, "Dedupe the orders import and deploy it."),
      Use(2, "t", "TodoWrite", "[x] Dedupe the import\n[>] Deploy to app02\n[ ] Merge into main"),
      Result(3, "t", ResultStatus::kOk, ""),
      Use(4, "d", "Bash", "ssh app02 'cd /srv/orders && git pull -q && ./bin/deploy'"),
      Result(5, "d", ResultStatus::kOk, "deployed 3f2a1c0"),
      MakeEvent(EventKind::kAssistantText, 6, false, "Deployed to app02."),
      MakeEvent(EventKind::kPersonText, 7, false, "good, now merge it to main and push"),
      Use(8, "m", "Bash", "git merge --ff-only dedupe && git push origin main"),
      Result(9, "m", ResultStatus::kOk, "Fast-forward\n   a1b2c3d..3f2a1c0  main -> main"),
      MakeEvent(EventKind::kAssistantText, 10, false, "Merged and pushed."),
  });
  EXPECT_EQ(card.open_todos, (std::vector<std::string>{"Deploy to app02", "Merge into main"}));
  EXPECT_TRUE(card.todos_before_last_request);
  auto fresh = CardOf({
      MakeEvent(EventKind::kPersonText, 1, false, "Dedupe the orders import and deploy it."),
      Use(2, "t", "TodoWrite", "[x] Dedupe the import\n[ ] Deploy to app02"),
      Result(3, "t", ResultStatus::kOk, ""),
      MakeEvent(EventKind::kAssistantText, 4, false, "The dedupe is in; the deploy is next."),
  });
  EXPECT_EQ(fresh.open_todos, std::vector<std::string>{"Deploy to app02"});
  EXPECT_FALSE(fresh.todos_before_last_request);
}

// A failed test run is resolved by the project's own way of running those tests
// passing later (a make or just target, a package script), whatever its runner;
// not by a target for another part of them, nor by one that runs no tests.
TEST(Cards, ATestRunIsCoveredByTheProjectsOwnTestTarget) {
  auto card = CardOf({
      Use(1, "a", "Bash", "pytest loader/tests -q"),
      Result(2, "a", ResultStatus::kFailed,
             "ImportError while importing test module 'loader/tests/test_map.py'.\n"
             "E   ModuleNotFoundError: No module named 'quarry_load'",
             1),
      Use(3, "r", "Read", "/r/Makefile"),
      Result(4, "r", ResultStatus::kOk, "loader-test:\n\tcd loader && uv run pytest -q"),
      Use(5, "b", "Bash", "make loader-test"),
      Result(6, "b", ResultStatus::kOk, "14 passed in 0.62s"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed()) << "the loader's tests pass";
  EXPECT_TRUE(card.Unresolved().empty());
  EXPECT_TRUE(card.achieved.count("test*loader"));

  auto other = CardOf({
      Use(1, "a", "Bash", "pytest loader/tests -q"),
      Result(2, "a", ResultStatus::kFailed, "1 failed, 13 passed", 1),
      Use(3, "b", "Bash", "make api-test && make lint"),
      Result(4, "b", ResultStatus::kOk, "22 passed"),
  });
  ASSERT_EQ(other.episodes.size(), 1u);
  EXPECT_FALSE(other.episodes[0].fixed()) << "the api's tests are not the loader's";

  EXPECT_EQ(OutcomeKind("make loader-test"), "test");
  EXPECT_EQ(OutcomeKind("npm run test:e2e -- --headed"), "test");
  EXPECT_EQ(OutcomeKind("just test"), "test");
  EXPECT_EQ(OutcomeKind("make lint"), "") << "a check, not a build";
  EXPECT_EQ(Intent("make loader-test"), "test*loader");
  EXPECT_EQ(Intent("make test"), "test:make test") << "a runner the table names keeps its name";
  EXPECT_EQ(TestTargets("pnpm run test:unit"), std::vector<std::string>{"test*unit"});
  EXPECT_EQ(TestTargets("make -j4 test-integration test-unit"),
            (std::vector<std::string>{"test*integration", "test*unit"}));
  EXPECT_TRUE(TestTargets("npm exec vitest -- tests").empty()) << "another program's words";
  EXPECT_TRUE(TestTargets("make build").empty());
  EXPECT_TRUE(TestRunCovers("go test ./internal/...", "test*"));
  EXPECT_TRUE(TestRunCovers("npx vitest run src/unit/parse.test.ts", "test*unit"));
  EXPECT_FALSE(TestRunCovers("npx vitest run src/unit/parse.test.ts", "test*e2e"));
  EXPECT_FALSE(TestRunCovers("make loader-test", "test*api")) << "another part";
  EXPECT_TRUE(TestRunCovers("make loader-test", "test*")) << "the whole suite";
  EXPECT_FALSE(TestRunCovers("cargo build", "test*")) << "no test run";
  EXPECT_FALSE(TestRunCovers("ssh ci1 'cd /srv/app && pytest'", "test*"))
      << "tests on another machine are not the checkout's";
}

// The project's own test script is its way of running the tests: `cargo test`
// refused (the dev database), then `./scripts/test.sh` passed; a build that
// failed is done when a later call's output shows its tool's verdict, whatever
// the command (the test script compiled the crate).
TEST(Cards, TheProjectsTestScriptAndABuildToolsVerdictSettleFailures) {
  EXPECT_EQ(TestTargets("./scripts/test.sh 2>&1 | tail -40"), std::vector<std::string>{"test*"});
  EXPECT_EQ(TestTargets("bash scripts/run-tests.sh -x"), std::vector<std::string>{"test*"});
  EXPECT_EQ(TestTargets("uv run tools/run_tests.py"), std::vector<std::string>{"test*"});
  EXPECT_EQ(TestTargets("./scripts/test-integration.sh"),
            std::vector<std::string>{"test*integration"});
  EXPECT_EQ(OutcomeKind("bin/test"), "test");
  EXPECT_TRUE(TestTargets("test -x scripts/test.sh").empty()) << "the shell's test, no path";
  EXPECT_TRUE(TestTargets("cat scripts/test.sh").empty());
  EXPECT_TRUE(TestTargets("chmod +x scripts/test.sh").empty());

  auto card = CardOf({
      Use(1, "a", "Bash", "cargo test 2>&1 | tail -40"),
      Result(2, "a", ResultStatus::kFailed,
             "thread 'events_bad_cursor_is_400' panicked at tests/common/mod.rs:13:5:\n"
             "refusing to run integration tests against cobaltline_dev",
             101),
      Use(3, "b", "Bash", "./scripts/test.sh 2>&1 | grep -E '^test result'"),
      Result(4, "b", ResultStatus::kOk, "test result: ok. 9 passed; 0 failed"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed()) << "the suite passed by the project's script";
  EXPECT_TRUE(card.achieved.count("test*"));

  EXPECT_EQ(BuiltBy("   Compiling cobaltline v0.4.2\n    Finished `test` profile in 12s\n"),
            std::vector<std::string>{"build:cargo build"});
  EXPECT_EQ(BuiltBy("> Task :app:test\n\nBUILD SUCCESSFUL in 41s"),
            (std::vector<std::string>{"build:gradle build", "build:./gradlew build"}));
  EXPECT_TRUE(BuiltBy("the job Finished `deploy` at 10:02").empty()) << "not at a line's start";
  EXPECT_TRUE(BuiltBy("BUILD FAILED in 3s").empty());

  auto built = CardOf({
      Use(1, "a", "Bash", "cargo build 2>&1 | tail -8"),
      Result(2, "a", ResultStatus::kFailed,
             "error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare`",
             101),
      Use(3, "b", "Bash", "cargo sqlx prepare --workspace -- --all-targets 2>&1 | tail -3"),
      Result(4, "b", ResultStatus::kOk,
             "    Checking cobaltline v0.4.2\n    Finished `dev` profile [unoptimized] in 17.92s\n"
             "query data written to .sqlx in the workspace root"),
  });
  ASSERT_EQ(built.episodes.size(), 1u);
  EXPECT_TRUE(built.episodes[0].fixed()) << "cargo compiled the crate";
  EXPECT_TRUE(built.achieved.count("build:cargo build"));

  // The tests a failed run selected, passing later by another runner.
  EXPECT_TRUE(SameTestsPass("php artisan test --filter=DueDateTest",
                            "vendor/bin/pest tests/Feature/WorkOrders/DueDateTest.php"));
  EXPECT_TRUE(
      SameTestsPass("pytest -k 'test_split and not slow'", "python -m pytest -k test_split"))
      << "a quoted filter is read by its first word";
  EXPECT_FALSE(SameTestsPass("php artisan test --filter=DueDateTest",
                             "vendor/bin/pest tests/Feature/InvoiceTest.php"));
  EXPECT_FALSE(SameTestsPass("php artisan test", "vendor/bin/pest")) << "a whole suite's run";
  EXPECT_FALSE(SameTestsPass("php artisan test --filter=DueDateTest", "cat DueDateTest.php"));
  auto selected = CardOf({
      Use(1, "a", "Bash", "php artisan test --filter=DueDateTest"),
      Result(2, "a", ResultStatus::kFailed, "FAIL Tests\\Feature\\WorkOrders\\DueDateTest", 1),
      Use(3, "b", "Bash", "vendor/bin/pest tests/Feature/WorkOrders/DueDateTest.php"),
      Result(4, "b", ResultStatus::kOk, "Tests: 4 passed (9 assertions)"),
  });
  ASSERT_EQ(selected.episodes.size(), 1u);
  EXPECT_TRUE(selected.episodes[0].fixed()) << "the same tests passed by pest";

  // A pull request's red checks are dealt with once it is merged.
  EXPECT_EQ(ChecksOf("git log --oneline -3 && gh pr checks 112"), "merged:112");
  EXPECT_EQ(ChecksOf("gh pr checks --watch 7"), "merged:7");
  EXPECT_EQ(ChecksOf("gh pr view 112"), "");
  EXPECT_EQ(MergedBy("gh pr merge 115 --squash --delete-branch", ""),
            std::vector<std::string>{"merged:115"});
  EXPECT_TRUE(MergedBy("gh pr view 112 --json state", "OPEN").empty());
  auto pr = CardOf({
      Use(1, "a", "Bash", "git log --oneline -3 && gh pr checks 112"),
      Result(2, "a", ResultStatus::kFailed, "tests / pest  fail  2m14s  https://example.test/1", 1),
      Use(3, "b", "Bash", "gh pr view 112 --json state,mergedAt --jq '[.state, .mergedAt] | @tsv'"),
      Result(4, "b", ResultStatus::kOk, "MERGED\t2026-03-09T13:02:11Z"),
  });
  ASSERT_EQ(pr.episodes.size(), 1u);
  EXPECT_TRUE(pr.episodes[0].fixed()) << "merged since";
  EXPECT_TRUE(pr.achieved.count("merged:112"));

  auto other = CardOf({
      Use(1, "a", "Bash", "go build ./..."),
      Result(2, "a", ResultStatus::kFailed, "./main.go:12:2: undefined: cfg", 1),
      Use(3, "b", "Bash", "./scripts/build-web.sh"),
      Result(4, "b", ResultStatus::kOk, "    Finished `release` profile in 3s"),
  });
  ASSERT_EQ(other.episodes.size(), 1u);
  EXPECT_FALSE(other.episodes[0].fixed()) << "cargo's verdict is no go build";
}

// A program run with the sub-command `test` that no table names is a test run;
// a file utility or `cd` on a folder named test is none.
TEST(Cards, ATestSubcommandIsATestRun) {
  EXPECT_EQ(OutcomeKind("dbt test --select fct_orders"), "test");
  EXPECT_EQ(OutcomeKind("ssh db2 'cd /opt/wh && QS_JOB=t1 ./bin/wh-run dbt test; tail -n 9 x.log'"),
            "test");
  EXPECT_EQ(OutcomeKind("bin/rails test test/models"), "test");
  EXPECT_EQ(OutcomeKind("python manage.py test orders"), "test");
  EXPECT_EQ(OutcomeKind("mkdir -p test && cp fixtures/a.json test"), "");
  EXPECT_EQ(OutcomeKind("cd test && ls"), "");
  EXPECT_EQ(OutcomeKind("test -f config.yml && echo yes"), "");
  EXPECT_EQ(OutcomeKind("git checkout -b test"), "");
  EXPECT_EQ(OutcomeKind("gh pr comment 33 --body \"the live smoke test fails on CI\""), "")
      << "quoted words run nothing";
  EXPECT_EQ(OutcomeKind("gh issue create --title \"make loader-test is slow\""), "");
}

// A make target that runs, serves, inspects or cleans (`make deploy`, `make logs`,
// `make down`) is no build, nor is a dry run: a failed deploy is not dealt with by
// a later `make logs` that worked, and neither is listed among the builds that passed.
TEST(Cards, AMakeTargetThatBuildsNothingIsNoBuild) {
  EXPECT_EQ(OutcomeKind("make"), "build");
  EXPECT_EQ(OutcomeKind("make -j4"), "build");
  EXPECT_EQ(OutcomeKind("make -C build -j 8 all"), "build");
  EXPECT_EQ(OutcomeKind("make docker-build"), "build");
  EXPECT_EQ(OutcomeKind("make firmware.bin"), "build");
  EXPECT_EQ(OutcomeKind("cd build && make install"), "build");
  EXPECT_EQ(OutcomeKind("make logs svc=web"), "");
  EXPECT_EQ(OutcomeKind("make -n deploy"), "") << "a dry run builds nothing";
  EXPECT_EQ(OutcomeKind("make -n"), "");
  EXPECT_EQ(OutcomeKind("make down up 2>&1 | tail -5"), "");
  EXPECT_EQ(OutcomeKind("make deploy-staging"), "");
  EXPECT_EQ(OutcomeKind("make db-migrate"), "");
  EXPECT_EQ(Intent("make deploy"), "");
  EXPECT_TRUE(DryRun("rsync -avn dist/ web1:/srv/app"));
  EXPECT_TRUE(DryRun("git push --dry-run origin main"));
  EXPECT_FALSE(DryRun("git commit -n -m wip")) << "git's -n is --no-verify";
  EXPECT_FALSE(DryRun("head -n 5 log.txt"));
  EXPECT_FALSE(Achieves("git push --dry-run origin main", "push"));
  EXPECT_EQ(OutcomeKind("npm run build >/dev/null && npm pack --dry-run"), "build")
      << "the build ran; only the packing was shown";
  EXPECT_TRUE(Achieves("git push --dry-run && make", "build:make"));
  EXPECT_EQ(Intent("make && make deploy"), "build:make") << "the first stage builds";

  auto card = CardOf({
      Use(1, "a", "Bash", "make deploy"),
      Result(2, "a", ResultStatus::kFailed,
             "ssh: connect to host web1 port 22: Connection timed out\n"
             "make: *** [Makefile:31: deploy] Error 255",
             2),
      Use(3, "b", "Bash", "make logs svc=web"),
      Result(4, "b", ResultStatus::kOk, "web-1  | [2026-12-01 10:02:11] GET /health 200"),
      Use(5, "c", "Bash", "make -n deploy"),
      Result(6, "c", ResultStatus::kOk,
             "rsync -a dist/ web1:/srv/app\nssh web1 systemctl restart app"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_FALSE(card.episodes[0].fixed()) << "the deploy never ran again";
  EXPECT_EQ(card.Unresolved().size(), 1u);
  EXPECT_FALSE(card.achieved.count("build:make"));

  auto built = CardOf({
      Use(1, "a", "Bash", "make -j4"),
      Result(2, "a", ResultStatus::kFailed, "src/main.c:12:5: error: 'cfg' undeclared", 2),
      Use(3, "b", "Bash", "make -C . all"),
      Result(4, "b", ResultStatus::kOk, "cc -o app src/main.o"),
  });
  ASSERT_EQ(built.episodes.size(), 1u);
  EXPECT_TRUE(built.episodes[0].fixed()) << "a build of the same tree by other flags";
}

// A command run over ssh is judged by what it runs on its host: run again there in a
// longer chain that worked, it is resolved; a chain whose output named an error, past a
// `;`, shows nothing but its last stage worked.
TEST(Cards, ACommandRunOverSshIsJudgedByWhatItRunsThere) {
  const std::string failed = "ssh deploy@web1 'cd /srv/shop && git fetch -q && ./bin/migrate up'";
  const std::string later =
      "git push && ssh web1 'cd /srv/shop && git pull -q && ./bin/migrate up; "
      "systemctl --user restart shop'";
  EXPECT_EQ(RunKey(failed), "ssh web1: ./bin/migrate up");
  auto keys = RunKeys(later, /*quiet=*/true);
  EXPECT_NE(std::find(keys.begin(), keys.end(), RunKey(failed)), keys.end());
  keys = RunKeys(later, /*quiet=*/false);
  EXPECT_EQ(std::find(keys.begin(), keys.end(), RunKey(failed)), keys.end())
      << "past a ';', the migration may have failed";
  keys = RunKeys("ssh web1 'cd /srv/shop && ./bin/migrate up && ./bin/seed'", false);
  EXPECT_NE(std::find(keys.begin(), keys.end(), RunKey(failed)), keys.end())
      << "joined by && alone, every stage worked";
  keys = RunKeys("./bin/migrate up 2>&1 && ./bin/seed &>/dev/null", false);
  EXPECT_NE(std::find(keys.begin(), keys.end(), "./bin/migrate up"), keys.end())
      << "a redirection is no background job";
  keys = RunKeys("./bin/migrate up & ./bin/seed", false);
  EXPECT_EQ(std::find(keys.begin(), keys.end(), "./bin/migrate up"), keys.end())
      << "a background job's status is not the command's";
  keys = RunKeys("ssh web2 'cd /srv/shop && ./bin/migrate up'", true);
  EXPECT_EQ(std::find(keys.begin(), keys.end(), RunKey(failed)), keys.end()) << "another host";
  EXPECT_EQ(RunKey("./bin/migrate up 2>&1 | tail"), "./bin/migrate up");
  EXPECT_EQ(RunKey("ssh -p 2222 -i ~/.ssh/k web1 './bin/migrate up'"),
            "ssh web1: ./bin/migrate up");
  EXPECT_EQ(RunKey("ssh web1"), "ssh web1") << "a login";

  auto card = CardOf({
      Use(1, "a", "Bash", failed),
      Result(2, "a", ResultStatus::kFailed, "migrate: relation \"orders\" already exists", 1),
      Use(3, "b", "Bash", "ssh web1 'cd /srv/shop && ./bin/migrate fix-version 41'"),
      Result(4, "b", ResultStatus::kOk, "version set to 41"),
      Use(5, "c", "Bash", later),
      Result(6, "c", ResultStatus::kOk, "migrated 42 -> 43\nrestarted"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_TRUE(card.episodes[0].fixed()) << "run again on web1, and it worked";
  EXPECT_TRUE(card.achieved.count("ran:" + RunKey(failed)));
  EXPECT_TRUE(IsLookup("ssh web1 'cat /etc/shop/env'"));
  EXPECT_FALSE(IsLookup("ssh web1 './bin/migrate up'"));
  // ssh within ssh is read three levels deep, and a command of any length quickly.
  EXPECT_EQ(RunKey("ssh a ssh b ssh c './x'"), "ssh a: ssh b: ssh c: ./x");
  EXPECT_EQ(RunKey("ssh a ssh b ssh c ssh d './x'"), "ssh a: ssh b: ssh c: ssh d './x'");
  std::string deep;
  for (int i = 0; i < 20000; ++i) deep += "ssh h ";
  deep += "./x";
  EXPECT_FALSE(RunKey(deep).empty());
  EXPECT_FALSE(RunKeys(deep + " && " + deep, true).empty());
  EXPECT_FALSE(IsLookup(deep));
  EXPECT_TRUE(Answers("Bash", deep, "Bash", deep));
}

// A Windows session's commands that change into its own folder name no place.
TEST(Cards, ChangingIntoTheSessionsOwnFolderIsNoPlace) {
  std::vector<Event> events = {
      Use(1, "a", "Bash", "cd \"C:/Users/amara/src/harborpay\" && git status"),
      Result(2, "a", ResultStatus::kOk, "On branch main"),
      Use(3, "b", "Bash", "cd \"C:/Users/amara/src/harborpay/docs\" && ls"),
      Result(4, "b", ResultStatus::kOk, "a.md"),
  };
  SessionLog log;
  log.session_id = "s";
  log.events = events;
  log.spans.push_back(Span{1, 4, "s", "", "", "main", "C:\\Users\\amara\\src\\harborpay"});
  auto card = ReadCard(log);
  std::set<std::string> places;
  for (const auto& [path, n] : card.places) places.insert(path);
  EXPECT_EQ(places, std::set<std::string>{"docs"});
}

TEST(Cards, ABuildIsABuildWhateverItsTool) {
  EXPECT_EQ(OutcomeKind("idf.py -B build-s3 build 2>&1 | tail -14"), "build");
  EXPECT_EQ(OutcomeKind("west build -b nrf52840dk_nrf52840 app"), "build");
  EXPECT_EQ(OutcomeKind("bazel build //server:all"), "build");
  EXPECT_EQ(OutcomeKind("mkdir -p build && ls build"), "");
  EXPECT_EQ(OutcomeKind("rm -rf build"), "");
  EXPECT_EQ(OutcomeKind("cd build && ls -la"), "") << "changing into a folder named build";
  EXPECT_EQ(OutcomeKind("git add build/ && cp a build"), "");
  EXPECT_EQ(FolderIntents("ninja -C build-s3 | head"), std::vector<std::string>{"build@build-s3"});
  EXPECT_EQ(FolderIntents("ctest --test-dir build-host/ -R Battery"),
            std::vector<std::string>{"test@build-host"});
  EXPECT_EQ(FolderIntents("cmake --build build-host --target app"),
            std::vector<std::string>{"build@build-host"});
  EXPECT_EQ(FolderIntents("make -C=fw all"), std::vector<std::string>{"build@fw"});
  EXPECT_TRUE(FolderIntents("ls -C build").empty());
}

TEST(Cards, ASuccessOfAnotherIntentResolvesNothing) {
  auto card = CardOf({
      Use(1, "a", "Bash", "git push origin main"),
      Result(2, "a", ResultStatus::kFailed, "! [rejected] main -> main (fetch first)", 1),
      Use(3, "b", "Bash", "git commit -m \"make test pass; git push later\""),
      Result(4, "b", ResultStatus::kOk, "[main 1a2b3c4] make test pass"),
  });
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_FALSE(card.episodes[0].fixed()) << "a commit is no push, and quotes run nothing";
  EXPECT_EQ(card.achieved, (std::set<std::string>{
                               "commit", "ran:git commit -m \"make test pass; git push later\""}));
}

TEST(Cards, PlacesAreThePathsACommandNamesWithoutQuotesOrPatterns) {
  auto card = CardOf({
      Use(1, "a", "Bash", "ssh root@10.0.0.1 \"cat /etc/blocky/config.yml\""),
      Result(2, "a", ResultStatus::kOk, "upstreams:"),
      Use(3, "b", "Bash", "echo 'export PATH=x' >> ~/.zshrc && source ~/.zshrc"),
      Result(4, "b", ResultStatus::kOk, ""),
      Use(5, "c", "Bash", "ls -la ~/bin/*.sh $HOME/.profile.d/x.sh; cd \"src/app\""),
      Result(6, "c", ResultStatus::kOk, ""),
      Use(7, "d", "Bash", "git log -L42,45:src/data/dataset.py && python -u --cfg=./conf/a.py"),
      Result(8, "d", ResultStatus::kOk, ""),
  });
  std::set<std::string> places;
  for (const auto& [path, n] : card.places) places.insert(path);
  EXPECT_EQ(places, (std::set<std::string>{"/etc/blocky/config.yml", "~/.zshrc", "src/app",
                                           "src/data/dataset.py", "conf/a.py"}))
      << "an option's value, without the option";
  auto scratch = CardOf({
      Use(1, "a", "Write", "/tmp/explain_base.sql"),
      Result(2, "a", ResultStatus::kOk, ""),
      Use(3, "b", "Read", "/tmp/explain_base.sql"),
      Result(4, "b", ResultStatus::kOk, ""),
      Use(5, "c", "Read", "/etc/hosts"),
      Result(6, "c", ResultStatus::kOk, ""),
  });
  ASSERT_EQ(scratch.places.size(), 1u) << "a scratch file is no place that mattered";
  EXPECT_EQ(scratch.places[0].first, "/etc/hosts");
  EXPECT_TRUE(scratch.files.empty());
}

TEST(Cards, IntentsAreTheLastStagesAndNeverQuotedWords) {
  EXPECT_EQ(Intent("git add . && git commit -m 'run pytest'"), "commit");
  EXPECT_EQ(Intent("git commit -m x && git push"), "push");
  EXPECT_EQ(Intent("make test"), "test:make test");
  EXPECT_EQ(Intent("python -m pytest tests/"), "test:pytest");
  EXPECT_EQ(Intent("ls -la"), "");
  EXPECT_EQ(Intent("sudo apt-get install jq"), "");  // judged by its packages
  // A package manager's workspace options choose packages, not what runs.
  EXPECT_EQ(Intent("pnpm --filter @fieldnotes/api test"), "test:pnpm test");
  EXPECT_EQ(Intent("pnpm -r test"), "test:pnpm test");
  EXPECT_EQ(Intent("cd app && yarn workspace web test --watch=false"), "test:yarn test");
  EXPECT_EQ(Intent("npm --prefix packages/db run build"), "build:npm run build");
  EXPECT_EQ(Intent("pnpm --filter web lint"), "");
  EXPECT_EQ(OutcomeKind("pnpm -F api test"), "test");
  EXPECT_TRUE(Achieves("pytest -x tests/test_a.py", "test:pytest"));
  EXPECT_FALSE(Achieves("echo 'git push'", "push"));
}

TEST(Cards, PathsAreRelativeToTheCheckoutWorktreesIncluded) {
  EXPECT_EQ(
      RelativeTo("/home/u/p-worktrees/p-dov/lib/web/live/session.ex", "/home/u/p-worktrees/p-dov"),
      "lib/web/live/session.ex");
  EXPECT_EQ(RelativeTo("/home/u/p-worktrees/p-dov/x", "/home/u/p-worktrees/p-dov/"), "x");
  EXPECT_EQ(RelativeTo("/home/u/p-dover/x", "/home/u/p-dov"), "/home/u/p-dover/x");
  EXPECT_EQ(RelativeTo("C:\\Users\\M\\a.ps1", "C:\\Users\\M"), "a.ps1");
  EXPECT_EQ(RelativeTo("/etc/hosts", ""), "/etc/hosts");
}

TEST(Cards, CommandsAreShownAsTypedInTheCheckout) {
  EXPECT_EQ(ShownCommand("cd /home/dana/src/app-worktrees/fix && mix test", "/home/dana/src/app"),
            "mix test");
  EXPECT_EQ(ShownCommand("cd \"/w/my app\" && git push -u origin x", ""), "git push -u origin x");
  EXPECT_EQ(ShownCommand("cd /w/wt/a; pytest /w/wt/a/tests/test_x.py", ""),
            "pytest tests/test_x.py");
  EXPECT_EQ(ShownCommand("cat /w/app/lib/x.ex /w/app-other/y.ex", "/w/app"),
            "cat lib/x.ex /w/app-other/y.ex");
  EXPECT_EQ(ShownCommand("cd build", ""), "cd build");  // nothing after it: as it is
  EXPECT_EQ(ShownCommand("ls -la", "/w/app"), "ls -la");
}

TEST(Cards, EpisodesAndPlacesOfAWorktreeSessionAreRelative) {
  SessionLog log;
  log.session_id = "s";
  Span span;
  span.first = 1;
  span.last = 12;
  span.cwd = "/home/dana/src/app-worktrees/fix";
  log.spans.push_back(span);
  log.events = {
      Use(1, "a", "Bash", "cd /home/dana/src/app-worktrees/fix && mix test"),
      Result(2, "a", ResultStatus::kFailed, "1 test, 1 failure", 1),
      Use(3, "b", "Bash", "cd /home/dana/src/app && git status"),
      Result(4, "b", ResultStatus::kOk, "clean"),
      Use(5, "c", "Bash", "cd /home/dana/src/app-worktrees/fix/lib && ls"),
      Result(6, "c", ResultStatus::kOk, "x.ex"),
      Use(7, "d", "Edit", "/home/dana/src/app-worktrees/fix/lib/x.ex"),
      Result(8, "d", ResultStatus::kOk, ""),
      Use(9, "e", "Bash", "mix test"),
      Result(10, "e", ResultStatus::kOk, "1 test, 0 failures"),
      Use(11, "f", "Bash", "./scripts/check.sh && cat ./lib/x.ex"),
      Result(12, "f", ResultStatus::kOk, "ok"),
  };
  SessionCard card = ReadCard(log);
  ASSERT_EQ(card.episodes.size(), 1u);
  EXPECT_EQ(card.episodes[0].action, "mix test");
  EXPECT_EQ(card.episodes[0].files, std::vector<std::string>{"lib/x.ex"}) << "the fix's files too";
  std::set<std::string> places;
  for (const auto& [path, n] : card.places) places.insert(path);
  EXPECT_EQ(places, (std::set<std::string>{"lib", "lib/x.ex", "scripts/check.sh"}))
      << "'./lib/x.ex' and 'lib/x.ex' are one file";
}

TEST(Cards, AWorktreeTheSessionAddedIsNamedFromItsOwnFolder) {
  using V = std::vector<std::string>;
  const std::string cwd = "/home/dana/src/box";
  EXPECT_EQ(WorktreesNamed("git worktree add ../box-retention -b restic-retention", cwd),
            V{"/home/dana/src/box-retention"});
  EXPECT_EQ(WorktreesNamed("cd /w/app && git worktree add -b fix ../app-fix main", cwd),
            V{"/w/app-fix"});
  EXPECT_EQ(WorktreesNamed("git -C /w/app worktree add --detach ./wt/x && ls", cwd),
            V{"/w/app/wt/x"});
  EXPECT_EQ(WorktreesNamed("git worktree add '/w/my wt' && git worktree add ../b", cwd),
            (V{"/w/my wt", "/home/dana/src/b"}));
  EXPECT_EQ(WorktreesNamed("echo git worktree add x; git worktree list", cwd), V{});
  // One an earlier session added, removed in this one.
  EXPECT_EQ(WorktreesNamed("git merge --ff-only fix && git worktree remove ../box-fix", cwd),
            V{"/home/dana/src/box-fix"});
  EXPECT_EQ(WorktreesNamed("git worktree move ../box-fix ../box-old", cwd),
            V{"/home/dana/src/box-fix"});
  EXPECT_EQ(WorktreesNamed("git worktree add x", ""), V{});  // from nowhere known
  // A worktree inside the checkout names its own files.
  EXPECT_EQ(ShownCommand("make -C /w/app/.wt/fix/lib", "/w/app", {"/w/app", "/w/app/.wt/fix"}),
            "make -C lib");

  SessionLog log;
  log.session_id = "s";
  Span span;
  span.first = 1;
  span.last = 8;
  span.cwd = cwd;
  log.spans.push_back(span);
  log.events = {
      Use(1, "a", "Bash", "git worktree add ../box-retention -b restic-retention"),
      Result(2, "a", ResultStatus::kOk, "Preparing worktree (new branch 'restic-retention')"),
      Use(3, "b", "Edit", "/home/dana/src/box-retention/scripts/backup.sh"),
      Result(4, "b", ResultStatus::kOk, "ok"),
      Use(5, "c", "Bash",
          "cd /home/dana/src/box-retention && bash /home/dana/src/box-retention/scripts/"
          "backup.sh --dry-run"),
      Result(6, "c", ResultStatus::kFailed, "restic: unknown flag --retry-lock", 1),
      Use(7, "d", "Bash", "bash /home/dana/src/box-retention/scripts/backup.sh --dry-run"),
      Result(8, "d", ResultStatus::kOk, "would keep 7 daily"),
  };
  SessionCard card = ReadCard(log);
  ASSERT_EQ(card.files.size(), 1u);
  EXPECT_EQ(card.files[0].first, "scripts/backup.sh");
  for (const auto& [path, n] : card.places)
    EXPECT_EQ(path.find("/home/"), std::string::npos) << path;
  ASSERT_FALSE(card.episodes.empty());
  EXPECT_EQ(card.episodes[0].action, "bash scripts/backup.sh --dry-run");
  const auto failures = Failures(log);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].action, "bash scripts/backup.sh --dry-run");
}

TEST(Cards, TheCheckoutsOwnReadmeSaysWhatItIsNotAVendoredOne) {
  auto with_about = [](int64_t line, const std::string& id, const std::string& about) {
    Event e = Result(line, id, ResultStatus::kOk, "");
    e.about = about;
    return e;
  };
  auto card = CardOf({
      Use(1, "a", "Read", "/r/third_party/pgqueue/README.md"),
      with_about(2, "a", "A tiny job queue on top of PostgreSQL."),
      Use(3, "b", "Read", "/r/README.md"),
      with_about(4, "b", "Relays webhooks to internal consumers."),
      Use(5, "c", "Read", "/r/docs/README.md"),
      with_about(6, "c", "The docs."),
  });
  EXPECT_EQ(card.about, "Relays webhooks to internal consumers.");
  EXPECT_EQ(card.about_file, "README.md");
  auto vendored = CardOf({Use(1, "a", "Read", "/r/third_party/pgqueue/README.md"),
                          with_about(2, "a", "A tiny job queue on top of PostgreSQL.")});
  EXPECT_EQ(vendored.about_file, "third_party/pgqueue/README.md");
}

}  // namespace
}  // namespace lore::activity
