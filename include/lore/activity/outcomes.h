// Outcomes: what a session's shell commands achieved that a developer asks
// about later: commits (with their messages), pushes, pull requests, test and
// build runs, packages installed or removed system-wide (docs/extract.md,
// "Outcomes").
//
// A command counts by the program and sub-command its stages run (`git
// commit`, `git push`, `gh pr create`, a test runner, a build tool), whatever
// wraps it (`cd x && …`, `sudo`, pipes). Its result decides `ok`; "nothing to
// commit" is no commit at all.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "lore/activity/event.h"

namespace lore::activity {

struct Outcome {
  std::string kind;  // commit | push | pr | test | build | install | remove
  std::string what;  // the commit message, where the push went, the command
  bool ok = true;
  std::string
      detail;  // the result's telling line: "[main 2828430] …", "! [rejected] …", "12 passed"
  int64_t first_line = 0, last_line = 0;
  std::string at;
};

// The kind of outcome a shell command is, or "" when none: what its stages that
// are no dry run (DryRun) do.
std::string OutcomeKind(std::string_view command);

// True when a stage of a shell command only shows what it would do: `--dry-run`,
// `--just-print`, `--what-if`, make's `-n`, rsync's `-n` among its short options
// (`rsync -avn`). Its success does nothing a failure set out to do; OutcomeKind,
// IntentsOf and Achieves read a command without such stages.
bool DryRun(std::string_view stage);

// What a shell command set out to do, for judging whether a later call did
// it: the intent of its last stage that has one ("commit", "push", "pr",
// "test:<runner>", "build:<tool>", a test target's key "test*…"), since a chain stops at its
// failure ("git add . && git commit" fails committing). "" for none, and for an install or removal,
// which is judged by its packages (activity::Answers).
std::string Intent(std::string_view command);

// True when a stage of `command` has `intent` (Intent's names): its success
// does what a failure of that intent set out to do, whatever its command
// ("git commit --no-verify -m x" after a hook stopped "git commit -m y").
bool Achieves(std::string_view command, std::string_view intent);

// Every intent a stage of `command` has, its test targets' keys among them.
std::vector<std::string> IntentsOf(std::string_view command);

// The build intents a call's output shows done, whatever its command: the build
// tool's own verdict at a line's start (cargo's "Finished `dev` profile",
// Gradle's "BUILD SUCCESSFUL", Maven's "BUILD SUCCESS", "Build succeeded." of
// dotnet, "Build complete!" of swift, "** BUILD SUCCEEDED **" of xcodebuild)
// says it compiled the project: `./scripts/test.sh` printing cargo's verdict
// built what a failed `cargo build` did not. {"build:cargo build"}, … or empty.
std::vector<std::string> BuiltBy(std::string_view output);

// True when `passed`, a test run that passed, ran the tests the failed test run
// `failed` selected, by whatever runner: every name `failed` selects (a filter's
// value, the file or test a path names) is among `passed`'s words (`php artisan
// test --filter=DueDateTest`, then `vendor/bin/pest tests/Feature/DueDateTest.php`).
// False when `failed` selects nothing (a whole suite's run).
bool SameTestsPass(std::string_view failed, std::string_view passed);

// The pull request whose CI checks a shell command looks at (`gh pr checks 112`,
// `gh pr checks 112 --watch`): "merged:112", or "" for none. Its failure is dealt
// with once the pull request is merged (MergedBy).
std::string ChecksOf(std::string_view command);

// The pull requests a successful call shows merged, as "merged:<n>": `gh pr merge
// <n>`, or `gh pr view <n>` whose output says MERGED.
std::vector<std::string> MergedBy(std::string_view command, std::string_view output);

// The keys of the test targets `command` runs through a task runner (a make,
// just, task or rake target, a package script, a nox session named for tests)
// or as the project's own test script (`./scripts/test.sh`, `bin/test`):
// "test*" and the other parts of the target's name, sorted and joined by '+'
// ("make loader-test" -> "test*loader", "npm run test:unit" -> "test*unit",
// "just test" -> "test*"). Intent names such a command by its key.
std::vector<std::string> TestTargets(std::string_view command);

// True when a test target's run that passed (`key`, a TestTargets key) covers
// the failed test run `failed`, by whatever runner: the project's own way of
// running its tests, naming no part of them ("make test") or only parts the
// failed run names ("make loader-test" after "pytest loader/tests").
bool TestRunCovers(std::string_view failed, std::string_view key);

// Where a build or test run works, as intents ("build@build-s3",
// "test@build-host"): each folder it names with -C, -B, --build, --build-dir
// or --test-dir (`ninja -C build-s3`, `idf.py -B build-s3 build`, `cmake
// --build build-host`, `ctest --test-dir build-host`). Two builds in one
// folder build the same thing, whatever their programs. Empty for a command
// that is neither.
std::vector<std::string> FolderIntents(std::string_view command);

class OutcomeReader {
 public:
  void Take(const Event& event);
  std::vector<Outcome> Finish() { return std::move(out_); }

 private:
  struct Call {
    std::string id, command, kind;
    int64_t line = 0;
  };
  std::deque<Call> calls_;
  std::vector<Outcome> out_;
};

}  // namespace lore::activity
