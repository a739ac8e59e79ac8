#include "lore/activity/episodes.h"

#include <gtest/gtest.h>

#include "lore/activity/outcomes.h"

namespace lore::activity {
namespace {

// A little session, one event per line number.
class Session {
 public:
  Session& Say(const std::string& text) { return Add(EventKind::kAssistantText, text); }
  Session& Person(const std::string& text) { return Add(EventKind::kPersonText, text); }
  Session& Run(const std::string& tool, const std::string& detail, ResultStatus status,
               const std::string& output, std::optional<int64_t> exit = std::nullopt) {
    std::string id = "t" + std::to_string(line_);
    Event use = MakeEvent(EventKind::kToolUse, ++line_);
    use.tool_name = tool;
    use.tool_id = id;
    use.detail = detail;
    events_.push_back(use);
    Event res = MakeEvent(EventKind::kToolResult, ++line_);
    res.tool_id = id;
    res.status = status;
    res.text = output;
    res.exit_code = exit;
    res.at = "2026-01-17T10:00:00Z";
    events_.push_back(res);
    return *this;
  }
  std::vector<Episode> Episodes() const {
    EpisodeReader r;
    for (const auto& e : events_) r.Take(e);
    return r.Finish();
  }
  std::vector<Outcome> Outcomes() const {
    OutcomeReader r;
    for (const auto& e : events_) r.Take(e);
    return r.Finish();
  }

 private:
  Session& Add(EventKind kind, const std::string& text) {
    events_.push_back(MakeEvent(kind, ++line_, false, text));
    return *this;
  }
  int64_t line_ = 0;
  std::vector<Event> events_;
};

constexpr auto kOk = ResultStatus::kOk;
constexpr auto kFailed = ResultStatus::kFailed;

TEST(Episodes, FailureDiagnosisAndFixMakeOneEpisode) {
  auto eps = Session()
                 .Run("Bash", "npm test", kFailed,
                      "Exit code 1\nFAIL src/a.test.js\nError: ENOENT: no such file '.env'", 1)
                 .Say("Let me look. The tests read `.env`, which the checkout does not have.")
                 .Run("Write", "/repo/.env", kOk, "File created")
                 .Run("Bash", "npm test -- --ci", kOk, "Tests: 12 passed")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].action, "npm test");
  EXPECT_EQ(eps[0].error, "FAIL src/a.test.js\nError: ENOENT: no such file '.env'");
  EXPECT_EQ(eps[0].cause, "The tests read `.env`, which the checkout does not have.");
  EXPECT_EQ(eps[0].fix, "npm test -- --ci");
  EXPECT_EQ(eps[0].files, std::vector<std::string>{"/repo/.env"});
  EXPECT_EQ(eps[0].first_line, 1);
  EXPECT_EQ(eps[0].last_line, 7);
  EXPECT_EQ(eps[0].exit_code, 1);
}

// A file tool without a path (a malformed call) names no file: an episode's
// files become a staged entry's, where an empty one is refused (found by the
// transcript fuzzer).
TEST(Episodes, AFileToolWithoutAPathNamesNoFile) {
  auto eps = Session()
                 .Run("Edit", "", kFailed, "Error: file_path is required")
                 .Run("Write", "", kOk, "File created")
                 .Run("Bash", "make", kFailed, "Error: no rule to make target", 2)
                 .Run("Edit", "", kOk, "ok")
                 .Episodes();
  ASSERT_FALSE(eps.empty());
  for (const auto& ep : eps) {
    for (const auto& f : ep.files) EXPECT_FALSE(f.empty());
  }
}

TEST(Episodes, TheSameFailureAgainIsARepeat) {
  auto eps =
      Session()
          .Run("Bash", "git push", kFailed, "! [rejected] main -> main (fetch first)")
          .Run("Bash", "git push origin main", kFailed, "! [rejected] main -> main (fetch first)")
          .Run("Bash", "git pull --rebase && git push", kOk, "main -> main")
          .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].repeats, 1);
  EXPECT_EQ(eps[0].fix, "git pull --rebase && git push");
}

TEST(Episodes, TheSameCallFailingAnotherWayCarriesTheLatestErrorAndDiagnosis) {
  auto eps = Session()
                 .Run("Bash", "docker build -t api . && docker run --rm api", kFailed,
                      "PrismaClientInitializationError: could not locate the Query Engine")
                 .Say("The engine for musl is missing from the image.")
                 .Run("Bash", "docker build -t api . && docker run --rm api", kFailed,
                      "Error relocating libquery_engine.so.node: __res_init: symbol not found")
                 .Say("The musl engine does not load on musl 1.2.5.")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_FALSE(eps[0].fixed());
  EXPECT_EQ(eps[0].repeats, 1);
  EXPECT_NE(eps[0].error.find("__res_init"), std::string::npos) << eps[0].error;
  EXPECT_EQ(eps[0].cause, "The musl engine does not load on musl 1.2.5.");
}

TEST(Episodes, AnotherProgramOnTheSameWordsFixesIt) {
  auto eps = Session()
                 .Run("Bash", "npm install -g ralph-tui", kFailed, "npm error code ENOTFOUND")
                 .Run("Bash", "bun install -g ralph-tui", kOk, "installed ralph-tui")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].fix, "bun install -g ralph-tui");
}

// Asking a program its version runs none of what failed: the codegen that failed
// on the SDK is fixed by the run through the pinned SDK, not by `flutter --version`.
TEST(Episodes, AskingAProgramItsVersionIsNoFix) {
  auto eps =
      Session()
          .Run("Bash", "flutter pub run build_runner build --delete-conflicting-outputs", kFailed,
               "Because tamarack requires SDK version >=3.5.0, version solving failed.")
          .Run("Bash", "which flutter; flutter --version; cat .fvmrc", kOk,
               "Flutter 3.19.6 • channel stable")
          .Run("Bash", "fvm dart run build_runner build --delete-conflicting-outputs", kOk,
               "[INFO] Succeeded after 9.8s with 4 outputs")
          .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].fix, "fvm dart run build_runner build --delete-conflicting-outputs")
      << "the same work run by another program";
  auto wrapped = Session()
                     .Run("Bash", "fvm flutter build appbundle --release --flavor prod", kFailed,
                          "FAILURE: Build failed with an exception.")
                     .Run("Bash",
                          "./scripts/with_upload_key.sh fvm flutter build appbundle "
                          "--release --flavor prod",
                          kOk, "Built build/app/outputs/app.aab")
                     .Episodes();
  ASSERT_EQ(wrapped.size(), 1u);
  EXPECT_FALSE(wrapped[0].fix.empty()) << "the same command under a wrapper";
  auto other = Session()
                   .Run("Bash", "git push origin main", kFailed, "! [rejected] main -> main")
                   .Run("Bash", "git log origin main", kOk, "abc123 x")
                   .Episodes();
  ASSERT_EQ(other.size(), 1u);
  EXPECT_TRUE(other[0].fix.empty()) << "two words in common are no same work";
}

TEST(Episodes, TheSameProgramDoingAnotherThingIsNoFix) {
  auto eps = Session()
                 .Run("Bash", "cargo build --release --target aarch64-unknown-linux-gnu", kFailed,
                      "error: failed to run custom build command for `openssl-sys v0.9.109`")
                 .Run("Bash", "cargo tree -i openssl-sys --target aarch64-unknown-linux-gnu", kOk,
                      "openssl-sys v0.9.109")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_FALSE(eps[0].fixed()) << eps[0].fix;
}

TEST(Episodes, AnUnrelatedSuccessIsNoFixAndThePersonClosesIt) {
  auto eps = Session()
                 .Run("Bash", "defaults read com.apple.screensaver askForPassword", kFailed,
                      "The domain/default pair does not exist")
                 .Run("Bash", "defaults read /Library/Preferences/com.apple.loginwindow", kOk, "x")
                 .Person("skip that")
                 .Run("Bash", "defaults read com.apple.screensaver askForPassword", kOk, "1")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_FALSE(eps[0].fixed());
}

TEST(Episodes, NotFailuresAndSilentFailuresOpenNone) {
  auto eps = Session()
                 .Run("Bash", "rm -rf build", ResultStatus::kRejected, "")
                 .Run("Bash", "sleep 100", ResultStatus::kInterrupted, "")
                 .Run("Bash", "ls /x", ResultStatus::kDenied, "")
                 .Run("Bash", "false", kFailed, "Exit code 1", 1)
                 .Episodes();
  EXPECT_TRUE(eps.empty());
}

TEST(Episodes, TheAgentReportingSuccessResolvesIt) {
  auto eps = Session()
                 .Run("Bash", "ralph --version", kFailed, "Unknown option: --version")
                 .Say("Both are installed successfully! Try `ralph --help`.")
                 .Episodes();
  EXPECT_TRUE(eps.empty());
  // A checker that found what it should: its exit was what was meant.
  EXPECT_TRUE(Session()
                  .Run("Bash", "node dist/cli.js check test/fixtures/site", kFailed,
                       "\u2717 test/fixtures/site/blog/index.html -> /missing (404)")
                  .Say("Works on Node 20; exit 1 is expected there, the fixture site has two "
                       "deliberately broken links.")
                  .Episodes()
                  .empty());
  EXPECT_FALSE(Session()
                   .Run("Bash", "npm test", kFailed, "1 failed")
                   .Say("That exit is unexpected: the suite passed on main an hour ago.")
                   .Episodes()
                   .empty());
  EXPECT_FALSE(Session()
                   .Run("Bash", "npm test", kFailed, "1 failed")
                   .Say("It fails with a timeout, not the assertion I expected.")
                   .Episodes()
                   .empty());
}

TEST(Episodes, ARefusedEditDoneAgainIsFixed) {
  auto eps = Session()
                 .Run("Edit", "/repo/src/a.c", kFailed,
                      "<tool_use_error>String to replace not found in file.</tool_use_error>")
                 .Say("The file changed since I read it; I will read it again.")
                 .Run("Read", "/repo/src/a.c", kOk, "...")
                 .Run("Edit", "/repo/src/a.c", kOk, "updated")
                 .Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_EQ(eps[0].action, "Edit /repo/src/a.c");
  EXPECT_EQ(eps[0].error, "String to replace not found in file.");
  EXPECT_EQ(eps[0].fix, "Edit /repo/src/a.c");
}

TEST(Episodes, AnOpenEpisodeClosesAfterManyCallsWithoutAFix) {
  Session s;
  s.Run("Bash", "make", kFailed, "error: missing separator");
  for (int i = 0; i < kMaxCallsOpen; ++i) s.Run("Bash", "ls dir" + std::to_string(i), kOk, "");
  s.Run("Bash", "make", kOk, "built");
  auto eps = s.Episodes();
  ASSERT_EQ(eps.size(), 1u);
  EXPECT_FALSE(eps[0].fixed());
}

TEST(Episodes, CommandKeyAndSignature) {
  EXPECT_EQ(CommandKey("Bash", "cd repo && sudo git push origin main 2>&1 | tail"), "git push");
  EXPECT_EQ(CommandKey("Bash", "FOO=1 npm test"), "npm test");
  EXPECT_EQ(CommandKey("Bash", "./build.sh --fast"), "build.sh");
  EXPECT_EQ(CommandKey("Edit", "/a/b/c.txt"), "edit c.txt");
  EXPECT_EQ(ErrorSignature("Exit code 1\nfatal: unable to access 'https://x/y.git/': Could not "
                           "resolve host: github.com (after 3021 ms)"),
            ErrorSignature("fatal: unable to access 'https://z/w.git/': Could not resolve "
                           "host: github.com (after 12 ms)"));
  EXPECT_EQ(ErrorSignature("cat: /home/a/x.txt: No such file or directory"),
            "cat: …/x.txt: no such file or directory");
  EXPECT_EQ(ErrorSignature(""), "");
}

TEST(Episodes, DiagnosisSkipsAnnouncements) {
  EXPECT_EQ(Diagnosis("Let me check the logs. The port is taken by another server.", 300),
            "The port is taken by another server.");
  EXPECT_EQ(Diagnosis("Now let me fix it:\n```\ncode\n```", 300), "");
  // A list's numbers are no sentences.
  EXPECT_EQ(Diagnosis("1. **`parseAmount`**\n2. **`4837 `**\nThe parser trims nothing.", 300),
            "The parser trims nothing.");
}

TEST(Outcomes, CommitsPushesTestsBuildsAndInstalls) {
  auto out =
      Session()
          .Run("Bash", "git add -A && git commit -m \"Fix the parser\"", kOk,
               "[main 2828430] Fix the parser\n 1 file changed")
          .Run("Bash", "git commit -m 'nothing'", kOk, "nothing to commit, working tree clean")
          .Run("Bash", "git push", kFailed,
               "To github.com:a/b.git\n ! [rejected]        main -> main (fetch first)")
          .Run("Bash", "cd build && ctest --output-on-failure", kOk,
               "Test project /b\n100% tests passed, 0 tests failed out of 12")
          .Run("Bash", "cmake --build build", kFailed, "error: x.c:3: expected ';'")
          .Run("Bash", "brew install lynis gnupg", kOk, "installed")
          .Run("Bash", "npm install lodash", kOk, "added 1 package")  // a project's own
          .Outcomes();
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].kind, "commit");
  EXPECT_EQ(out[0].what, "Fix the parser");
  EXPECT_EQ(out[0].detail, "[main 2828430] Fix the parser");
  EXPECT_EQ(out[1].kind, "push");
  EXPECT_FALSE(out[1].ok);
  EXPECT_EQ(out[1].detail, "! [rejected] main -> main (fetch first)");
  EXPECT_EQ(out[2].kind, "test");
  EXPECT_TRUE(out[2].ok);
  EXPECT_EQ(out[2].detail, "100% tests passed, 0 tests failed out of 12");
  EXPECT_EQ(out[3].kind, "build");
  EXPECT_FALSE(out[3].ok);
  EXPECT_EQ(out[4].kind, "install");
  EXPECT_EQ(out[4].what, "brew install lynis gnupg");

  // A commit's message after short options run together (-am), and git's own commit
  // line, never a push's "* [new branch] a -> a" of the same chain.
  auto chain =
      Session()
          .Run("Bash",
               "git commit -am \"ci(deploy): grant packages: write\" && git push -u origin ci/p",
               kOk,
               "pre-commit: ok\n[ci/p 5d2a8f0] ci(deploy): grant packages: write\n"
               " * [new branch]      ci/p -> ci/p")
          .Run("Bash", "git commit -q && git push -u origin ci/q", kOk,
               "pre-commit: ok\n…\n * [new branch]      ci/q -> ci/q")
          .Outcomes();
  ASSERT_GE(chain.size(), 2u);
  EXPECT_EQ(chain[0].what, "ci(deploy): grant packages: write");
  EXPECT_EQ(chain[0].detail, "[ci/p 5d2a8f0] ci(deploy): grant packages: write");
  EXPECT_EQ(chain[1].kind, "commit");
  EXPECT_EQ(chain[1].what, "git commit -q && git push -u origin ci/q")
      << "no message seen: the command, not the push's line";
}

}  // namespace
}  // namespace lore::activity
