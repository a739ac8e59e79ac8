#include "lore/capture/capture.h"

#include <gtest/gtest.h>

namespace lore::capture {
namespace {

const text::TimePoint kNow{std::chrono::seconds(1767225600)};  // 2026-01-01T00:00:00Z

std::string Line(std::string_view input) {
  auto line = MakeRecordLine(input, Kind::kReview, kNow);
  EXPECT_TRUE(line) << line.error().Format();
  return line ? *line : "";
}

// Keys are cleaned too (issue 25: a secret as a key reached raw.jsonl).
TEST(CaptureRedaction, StringValuesAndKeysAreCleanedNumbersKept) {
  EXPECT_EQ(Line(R"({ "AKIAIOSFODNN7EXAMPLE": 1e400, "note": "key AKIAIOSFODNN7EXAMPLE",
                     "list": ["<private>x</private>kept", 12345678901234567890],
                     "password": "Zx8kq2LmP0wR7tYv", "deep": {"api_key": "Ab12Cd34Ef56"}})"),
            R"({"[REDACTED:aws-access-key]":1e400,"note":"key [REDACTED:aws-access-key]",)"
            R"("list":["kept",12345678901234567890],"password":"[REDACTED:assignment]",)"
            R"("deep":{"api_key":"[REDACTED:assignment]"},"kind":"review",)"
            R"("recorded_at":"2026-01-01T00:00:00Z"})");
}

TEST(CaptureRedaction, EscapedTextIsCleanedAsDecoded) {
  // \u0041 is 'A', \n a line end inside a PEM block; the rest keeps its escapes.
  EXPECT_EQ(Line(R"({"a":"\u0041KIAIOSFODNN7EXAMPLE","b":"-----BEGIN PRIVATE KEY-----\nMIIB\n)"
                 R"(-----END PRIVATE KEY-----\n","c":"tab\tkept \u00e9"})"),
            R"({"a":"[REDACTED:aws-access-key]","b":"[REDACTED:private-key]\n",)"
            R"("c":"tab\tkept \u00e9","kind":"review","recorded_at":"2026-01-01T00:00:00Z"})");
}

TEST(CaptureRedaction, CleanRecordsAreByteForByteAsBefore) {
  EXPECT_EQ(Line(R"({"password":"short","token_count":"12345678","x":"a\/b"})"),
            R"({"password":"short","token_count":"12345678","x":"a\/b","kind":"review",)"
            R"("recorded_at":"2026-01-01T00:00:00Z"})");
}

}  // namespace
}  // namespace lore::capture
