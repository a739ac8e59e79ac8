#include "redact/json.h"

#include <gtest/gtest.h>

#include "lore/capture/capture.h"
#include "lore/json/value.h"

namespace lore::redact {
namespace {

TEST(RedactJson, KeysAndStringsOfAValue) {
  Json v = Json::parse(
      R"({"a":"key AKIAIOSFODNN7EXAMPLE","AKIAIOSFODNN7EXAMPLE":1,"n":[{"password":"Zx8kq2LmP0wR"}],)"
      R"("k<private>x</private>":true,"ok":2})");
  EXPECT_TRUE(CleanJson(&v));
  EXPECT_EQ(v.dump(), R"({"a":"key [REDACTED:aws-access-key]","[REDACTED:aws-access-key]":1,)"
                      R"("n":[{"password":"[REDACTED:assignment]"}],"k":true,"ok":2})");
  Json same = Json::parse(R"({"a":"b","c":[1,"d"]})");
  EXPECT_FALSE(CleanJson(&same));
}

TEST(RedactJson, KeysReplacedAlikeStayDistinct) {
  Json v = Json::parse(
      R"({"AKIAIOSFODNN7EXAMPLE":1,"AKIAIOSFODNN7EXAMPLF":2,"[REDACTED:aws-access-key]~2":3})");
  EXPECT_TRUE(CleanJson(&v));
  EXPECT_EQ(v.dump(), R"({"[REDACTED:aws-access-key]":1,"[REDACTED:aws-access-key]~2":2,)"
                      R"("[REDACTED:aws-access-key]~2~2":3})");
}

TEST(RedactJson, ALineKeepsItsBytesUnlessSomethingIsFound) {
  const std::string clean = R"({ "id": "x",  "n": 1.50, "s": "a\u0041" })";
  EXPECT_EQ(CleanJsonLine(clean), clean);
  EXPECT_EQ(CleanJsonLine(R"({ "id": "x", "n": 1.50, "s": "\u0041KIAIOSFODNN7EXAMPLE" })"),
            R"({"id":"x","n":1.50,"s":"[REDACTED:aws-access-key]"})");
  EXPECT_EQ(
      CleanJsonLine(R"({"ghp_1234567890abcdefghijABCDEFGHIJ123456":{"token":"Zx8kq2LmP0wR"}})"),
      R"({"[REDACTED:github-token]":{"token":"[REDACTED:assignment]"}})");
  // Not JSON: its text.
  EXPECT_EQ(CleanJsonLine("oops AKIAIOSFODNN7EXAMPLE {"), "oops [REDACTED:aws-access-key] {");
}

TEST(RedactJson, CapturedKeysAreCleanedToo) {
  const auto now = std::chrono::system_clock::time_point{};
  auto line = capture::MakeRecordLine(
      R"({"note":"n","AKIAIOSFODNN7EXAMPLE":{"ghp_1234567890abcdefghijABCDEFGHIJ123456":1},)"
      R"("AKIAIOSFODNN7EXAMPLF":2,"kin<private>x</private>d":3,"k\u0041":"v"})",
      capture::Kind::kReview, now);
  ASSERT_TRUE(line) << line.error().Format();
  EXPECT_EQ(*line, R"({"note":"n","[REDACTED:aws-access-key]":{"[REDACTED:github-token]":1},)"
                   R"("[REDACTED:aws-access-key]~2":2,"kind~2":3,"k\u0041":"v",)"
                   R"("kind":"review","recorded_at":"1970-01-01T00:00:00Z"})");
}

}  // namespace
}  // namespace lore::redact
