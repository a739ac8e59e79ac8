#include "lore/extract/transcript.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace lore::extract {
namespace {

constexpr char kKey[] = "AKIAIOSFODNN7EXAMPLE";

TEST(TranscriptRedaction, PersonWordsToolCallsAndResultsLoseSecretsAndPrivateSpans) {
  const std::string person =
      std::string(R"({"type":"user","sessionId":"s","message":{"content":)") + R"("deploy with )" +
      kKey + R"( <private>my home address</private> please"}})";
  ParsedLine p = ParseTranscriptLine(person, 1);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].text.find(kKey), std::string::npos) << p.events[0].text;
  EXPECT_EQ(p.events[0].text.find("home address"), std::string::npos) << p.events[0].text;
  EXPECT_NE(p.events[0].text.find("[REDACTED:aws-access-key]"), std::string::npos);

  const std::string call = std::string(R"({"type":"assistant","message":{"content":[)") +
                           R"({"type":"tool_use","id":"t1","name":"Bash","input":{"command":)" +
                           R"("AWS_ACCESS_KEY_ID=)" + kKey + R"( aws s3 ls"}}]}})";
  p = ParseTranscriptLine(call, 2);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].detail.find(kKey), std::string::npos) << p.events[0].detail;

  // A key that crosses the result's cut is still found (cleaned before the cut).
  std::string filler(kMaxResultText - 8, 'x');
  const std::string result = std::string(R"({"type":"user","message":{"content":[)") +
                             R"({"type":"tool_result","tool_use_id":"t1","content":")" + filler +
                             " " + kKey + R"("}]}})";
  p = ParseTranscriptLine(result, 3);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_LE(p.events[0].text.size(), kMaxResultText);
  EXPECT_EQ(p.events[0].text.find("AKIAIOS"), std::string::npos);
}

// Issue 38, finding 1: gitBranch and cwd reach the session log, the
// briefing, okf/ and the next session's context: redacted, one line without
// escapes or control characters, bounded.
TEST(TranscriptRedaction, BranchAndCwdAreCleanedOneLineFields) {
  nlohmann::json line = {
      {"type", "user"},
      {"sessionId", "s"},
      {"gitBranch", std::string("fix/") + kKey + "\x1b]0;owned\x07\nmain"},
      {"cwd", "/home/<private>me</private>/w?token=ghp_1234567890abcdefghijABCDEFGHIJ123456\r"},
      {"message", {{"content", "hi"}}}};
  ParsedLine p = ParseTranscriptLine(line.dump(), 1);
  EXPECT_EQ(p.branch, "fix/[REDACTED:aws-access-key] main");
  EXPECT_EQ(p.cwd, "/home//w?token=[REDACTED:github-token] ");
  line["gitBranch"] = std::string(10000, 'b');
  line["cwd"] = "/" + std::string(10000, 'c');
  p = ParseTranscriptLine(line.dump(), 2);
  EXPECT_EQ(p.branch.size(), kMaxBranchBytes);
  EXPECT_EQ(p.cwd.size(), kMaxCwdBytes);
}

// Claude Code writes an API error or a usage notice as an assistant line of the model
// "<synthetic>": harness text, never what the agent reported.
TEST(TranscriptTest, SyntheticAssistantLinesAreTheHarness) {
  nlohmann::json line = {
      {"type", "assistant"},
      {"sessionId", "s"},
      {"isApiErrorMessage", true},
      {"message",
       {{"model", "<synthetic>"},
        {"role", "assistant"},
        {"content", {{{"type", "text"}, {"text", "API Error: 401 authentication_error"}}}}}}};
  ParsedLine p = ParseTranscriptLine(line.dump(), 1);
  EXPECT_EQ(p.cls, LineClass::kHarness);
  EXPECT_TRUE(p.events.empty());
  line.erase("isApiErrorMessage");
  line["message"]["content"][0]["text"] = "You're out of extra usage";
  p = ParseTranscriptLine(line.dump(), 2);
  EXPECT_EQ(p.cls, LineClass::kHarness);
  EXPECT_TRUE(p.events.empty());
  line["message"]["model"] = "claude-opus-4-5";
  p = ParseTranscriptLine(line.dump(), 3);
  EXPECT_EQ(p.cls, LineClass::kUsed);
  ASSERT_EQ(p.events.size(), 1u);
  EXPECT_EQ(p.events[0].text, "You're out of extra usage");
}

}  // namespace
}  // namespace lore::extract
