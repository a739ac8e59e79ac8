#include "lore/app/report.h"

#include <gtest/gtest.h>

namespace lore::app {
namespace {

TEST(AppReport, ErrorIsOneLineWithThePrefixAndTheRepair) {
  Error e{ErrorCode::kCorrupt, "malformed JSON\nline", "/s/raw.jsonl", 3, "fix it\r\nthen retry"};
  EXPECT_EQ(ErrorLine(e), "lore: malformed JSON line: /s/raw.jsonl:3; fix it  then retry\n");
  EXPECT_EQ(ExitCode(e), kExitError);
}

TEST(AppReport, WarningSaysSo) {
  Error e{ErrorCode::kIo, "cannot\nwrite", "/s/x", 0, ""};
  EXPECT_EQ(WarningLine(e), "lore: warning: cannot write: /s/x\n");
}

TEST(AppReport, ReviewerMemorySpeaksAsTheScript) {
  SpeakAs(Voice::kReviewerMemory);
  Error e{ErrorCode::kSymlink, "a symlink", "/s/raw.jsonl", 0, "x"};
  std::string line = ErrorLine(e);
  SpeakAs(Voice::kLore);
  EXPECT_EQ(line,
            "reviewer-memory: symlinked store path is not allowed: /s/raw.jsonl; replace it with "
            "a regular path, then retry\n");
}

}  // namespace
}  // namespace lore::app
