#include "lore/extract/model_io.h"

#include <gtest/gtest.h>

namespace lore::extract {
namespace {

TEST(ModelAnswerTest, AcceptsTheListsInAFence) {
  auto e = ParseModelAnswer(
      "```json\n{\"requests\":[{\"intent\":\"fix\",\"target\":null,\"summary\":\"fix it\"}]}\n```");
  ASSERT_TRUE(e.has_value()) << e.error().what;
  ASSERT_EQ(e->requests.size(), 1u);
  EXPECT_EQ(e->source.session_id, "");
}

TEST(ModelAnswerTest, IgnoresASourceTheModelWrote) {
  auto e = ParseModelAnswer(R"({"source":{"session_id":"x","range":[9,9]},"attempts":[]})");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->source.range.from, 0u);
}

TEST(ModelAnswerTest, SaysWhatIsWrong) {
  auto a = ParseModelAnswer("Sure! Here you go.");
  ASSERT_FALSE(a.has_value());
  EXPECT_NE(a.error().what.find("not one JSON object"), std::string::npos);
  auto b = ParseModelAnswer(R"({"attempts":[{"action":"make","result":"ok"}]})");
  ASSERT_FALSE(b.has_value());
  EXPECT_NE(b.error().what.find("attempts[0].succeeded"), std::string::npos) << b.error().what;
  auto c = ParseModelAnswer(R"({"notes":[]})");
  ASSERT_FALSE(c.has_value());
}

TEST(DigestTest, NeverCarriesFileContents) {
  Digester d;
  Event read = MakeEvent(EventKind::kToolUse, 5);
  read.tool_name = "Read";
  read.tool_id = "r";
  read.detail = "/etc/x";
  EXPECT_EQ(d.Line(read), "");
  Event res = MakeEvent(EventKind::kToolResult, 6);
  res.tool_id = "r";
  res.text = "line one of a file\nline two of a file";
  EXPECT_EQ(d.Line(res), "");
  Event bash = MakeEvent(EventKind::kToolUse, 7);
  bash.tool_name = "Bash";
  bash.tool_id = "b";
  bash.detail = "make";
  EXPECT_EQ(d.Line(bash), "[L7] tool Bash: make");
  res.tool_id = "b";
  res.text = "ok\nmore";
  EXPECT_EQ(d.Line(res), "[L6] result: ok");
}

}  // namespace
}  // namespace lore::extract
