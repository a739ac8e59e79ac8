#include "activity/clean.h"

#include <gtest/gtest.h>

namespace lore::activity {
namespace {

TEST(Readable, DropsEscapesAndControlCharacters) {
  EXPECT_EQ(Readable("\x1b[1;31merror\x1b[0m: x"), "error: x");
  EXPECT_EQ(Readable("a\x1b]0;title\x07"
                     "b"),
            "ab");                                              // OSC to BEL
  EXPECT_EQ(Readable("a\x1b]8;;http://x\x1b\\link"), "alink");  // OSC to ST
  EXPECT_EQ(Readable("a\x1b(Bb\x1b=c"), "abc");                 // a character set; a keypad mode
  EXPECT_EQ(Readable("tab\tnew\nline\r\nend\rover"), "tab\tnew\nline\nend\nover");
  EXPECT_EQ(Readable("bell\x07 nul\x01 del\x7f"), "bell nul del");
  EXPECT_EQ(Readable("c1 \xc2\x9b here"), "c1  here");  // U+009B dropped
  EXPECT_EQ(Readable("caf\xc3\xa9"), "caf\xc3\xa9");    // other UTF-8 kept
}

TEST(Readable, DropsEscapesWrittenAsText) {
  EXPECT_EQ(Readable(R"(echo -e "\033[31mred\033[0m")"), R"(echo -e "red")");
  EXPECT_EQ(Readable(R"(\x1b[2K\u001b[1mbold)"), "bold");
  EXPECT_EQ(Readable(R"(a \033 alone stays)"), R"(a \033 alone stays)");
}

TEST(WithoutHarness, CutsRemindersAndInstructions) {
  EXPECT_EQ(WithoutHarness("ok\n<system-reminder>\nthe model must\n</system-reminder>\nrest"),
            "ok\n\nrest");
  EXPECT_EQ(WithoutHarness("body <system-reminder>unclosed to the end"), "body");
  EXPECT_EQ(WithoutHarness("Todos have been modified successfully. Ensure that you continue to "
                           "use the todo list to track your progress."),
            "Todos have been modified successfully.");
  EXPECT_EQ(WithoutHarness("partial\n[Request interrupted by user for tool use]"), "partial");
  EXPECT_EQ(WithoutHarness("a</system-reminder>b"), "b");
}

TEST(Classify, RejectionsInterruptionsAndDenialsAreNotFailures) {
  std::string reason;
  EXPECT_EQ(Classify("The user doesn't want to proceed with this tool use. The tool use was "
                     "rejected (eg. if it was a file edit, the new_string was NOT written to the "
                     "file). STOP what you are doing and wait for the user to tell you how to "
                     "proceed.",
                     true, std::nullopt, "", &reason),
            ResultStatus::kRejected);
  EXPECT_EQ(reason, "");
  EXPECT_EQ(Classify("The user doesn't want to proceed with this tool use. The tool use was "
                     "rejected. To tell you how to proceed, the user said:\nuse pnpm instead",
                     true, std::nullopt, "", &reason),
            ResultStatus::kRejected);
  EXPECT_EQ(reason, "use pnpm instead");
  EXPECT_EQ(
      Classify("The user doesn't want to take this action right now. STOP", true, std::nullopt, ""),
      ResultStatus::kRejected);
  EXPECT_EQ(Classify("Exit code 130\n[Request interrupted by user for tool use]", true, 130, ""),
            ResultStatus::kInterrupted);
  EXPECT_EQ(Classify("Claude requested permissions to use Bash, but you haven't granted it yet.",
                     true, std::nullopt, ""),
            ResultStatus::kDenied);
}

TEST(Classify, FailuresByFlagExitCodeOrText) {
  EXPECT_EQ(Classify("boom", true, std::nullopt, "make"), ResultStatus::kFailed);
  EXPECT_EQ(Classify("out", false, 2, "make"), ResultStatus::kFailed);
  EXPECT_EQ(Classify("Exit code 2\nerror: x", false, std::nullopt, "make"), ResultStatus::kFailed);
  EXPECT_EQ(Classify("fine", false, 0, "make"), ResultStatus::kOk);
}

TEST(Classify, NothingToCommitAndNoMatchAreNotFailures) {
  EXPECT_EQ(Classify("Exit code 1\nOn branch main\nnothing to commit, working tree clean", true, 1,
                     "git commit -m x"),
            ResultStatus::kOk);
  EXPECT_EQ(Classify("Exit code 1", true, 1, "ps aux | grep nginx"), ResultStatus::kOk);
  EXPECT_EQ(Classify("Exit code 1", true, 1, "test -f x"), ResultStatus::kOk);
  // A search that prints an error did fail; so does any other command exiting 1.
  EXPECT_EQ(Classify("Exit code 2\ngrep: x: No such file", true, 2, "grep a x"),
            ResultStatus::kFailed);
  EXPECT_EQ(Classify("Exit code 1", true, 1, "defaults read x"), ResultStatus::kFailed);
}

// Issue 38: a field of one line from outside (a branch, a cwd, a path) and
// what lore shows of a field on one line.
TEST(Classify, ABuildPipedIntoTailFailsByItsOutput) {
  const char* linker = "   Compiling tidewatch v0.4.0\nclang: error: linker command failed\n";
  EXPECT_TRUE(MaskedFailure("OPENSSL_DIR=/x cargo build --release 2>&1 | tail -14", linker));
  EXPECT_TRUE(MaskedFailure("pytest -x 2>&1 | tail -3", "FAILED tests/test_a.py::test_b\n"));
  EXPECT_TRUE(MaskedFailure("cargo test | head -40", "test result: FAILED. 3 passed; 1 failed"));
  EXPECT_TRUE(MaskedFailure("cross build --release --target aarch64 2>&1 | tail -25", linker));
  EXPECT_FALSE(MaskedFailure("cargo build --release 2>&1 | tail -3", "    Finished release\n"));
  EXPECT_FALSE(MaskedFailure("cargo build --release", linker));  // its own exit code counts
  EXPECT_FALSE(MaskedFailure("grep -rn 'error:' logs | head", "error: disk full\n"));
  EXPECT_FALSE(MaskedFailure("cat build.log | tail", "error: disk full\n"));
}

TEST(Readable, OneLineFieldsLoseEscapesControlsAndSecrets) {
  EXPECT_EQ(ReadableLine("a\x1b]0;owned\x07"
                         "b\x1b[2J\nc\td\r\ne"),
            "ab c d e");
  EXPECT_EQ(ReadableLine("\x1b[8mhidden\x1b[0m"), "hidden");
  EXPECT_EQ(CleanLine("feat/ghp_1234567890abcdefghijABCDEFGHIJ123456\x1b[2J", 256),
            "feat/[REDACTED:github-token]");
  EXPECT_EQ(CleanLine("/w/<private>me</private>/repo\n", 256), "/w//repo ");
  EXPECT_EQ(CleanLine(std::string(300, 'a') + "\xc3\xa9", 301), std::string(300, 'a'));
  // Cleaned before it is cut: the first bytes of a secret are not kept.
  EXPECT_EQ(CleanLine("x AKIAIOSFODNN7EXAMPLE", 8), "x [REDAC");
}

TEST(Status, NamesRoundTrip) {
  for (auto s : {ResultStatus::kOk, ResultStatus::kFailed, ResultStatus::kRejected,
                 ResultStatus::kInterrupted, ResultStatus::kDenied}) {
    EXPECT_EQ(ParseStatus(StatusName(s)), s);
  }
  EXPECT_FALSE(ParseStatus("maybe"));
}

}  // namespace
}  // namespace lore::activity
