#include "lore/learnings/lifecycle.h"

#include <gtest/gtest.h>

#include "lore/json/dump_js.h"

namespace lore::learnings {
namespace {

text::TimePoint IsoAt(const char* iso) { return *text::ParseIso(iso); }

TEST(LearningsTtl, EveryTypeOfFormatsSection12AndUnknown) {
  const std::pair<const char*, int> want[] = {
      {"mode-selector-accuracy", 30},  {"fragile-file", 45},     {"effective-sizing", 45},
      {"recurring-issue", 45},         {"hardware-pattern", 60}, {"domain-regression", 60},
      {"workflow-pattern", 90},        {"proven-pattern", 90},   {"anti-pattern", 90},
      {"autopilot-effectiveness", 90}, {"convention", 90},       {"architecture-pattern", 90},
      {"design-pattern", 90},
  };
  for (const auto& [type, days] : want) EXPECT_EQ(TtlDays(type), days) << type;
  EXPECT_EQ(TtlDays("autonomy-verdict"), 60);  // not in the original's table
  EXPECT_EQ(TtlDays("no-such-type"), 60);
  EXPECT_EQ(TtlDays(""), 60);
}

TEST(LearningsSubject, NormalisedCaseSpaceAndTrailingPunctuation) {
  EXPECT_EQ(NormaliseSubject("  Use  RAII\tfor files. "), "use raii for files");
  EXPECT_EQ(NormaliseSubject("use raii for files"), "use raii for files");
  EXPECT_EQ(NormaliseSubject("Why?!"), "why");
  EXPECT_EQ(NormaliseSubject("a . ;"), "a");
  EXPECT_EQ(NormaliseSubject("\xC3\x9C"
                             "ber CACHE"),
            "\xC3\x9C"
            "ber cache");                                       // non-ASCII kept
  EXPECT_EQ(NormaliseSubject("v1.2 release"), "v1.2 release");  // inner dots kept
  EXPECT_EQ(NormaliseSubject(""), "");
}

TEST(LearningsConfidence, RoundingKeepsTheShortForm) {
  EXPECT_EQ(json::JsNumber(RoundConfidence(0.45 + 0.15)), "0.6");
  EXPECT_EQ(json::JsNumber(RoundConfidence(0.1 + 0.2)), "0.3");
  EXPECT_EQ(json::JsNumber(RoundConfidence(0.85)), "0.85");
}

TEST(LearningsConfirm, AddsOccurrenceConfidenceExpiryAndTheProposal) {
  Json l = Json::parse(
      R"({"id":"L1","type":"fragile-file","subject":"s","confidence":0.45,"occurrences":1,)"
      R"("expires_at":"2026-01-01T00:00:00.000Z","host_class":null})");
  Confirm(&l, "P2", IsoAt("2026-03-01T00:00:00.000Z"));
  EXPECT_EQ(json::DumpJs(l),
            R"({"id":"L1","type":"fragile-file","subject":"s","confidence":0.6,"occurrences":2,)"
            R"("expires_at":"2026-04-15T00:00:00.000Z","host_class":null,"confirmed_by":["P2"]})");
  for (int i = 0; i < 5; ++i)
    Confirm(&l, "P" + std::to_string(3 + i), IsoAt("2026-03-02T00:00:00Z"));
  EXPECT_EQ(l["confidence"].get<double>(), 1.0);  // capped
  EXPECT_EQ(l["occurrences"].get<int>(), 7);
  EXPECT_EQ(l["confirmed_by"].size(), 6u);
}

TEST(LearningsContradict, LowersToAFloorOfZero) {
  Json l = Json::parse(R"({"id":"L1","confidence":0.5})");
  Contradict(&l);
  EXPECT_EQ(json::DumpJs(l), R"({"id":"L1","confidence":0.3})");
  Contradict(&l);
  Contradict(&l);
  EXPECT_EQ(json::DumpJs(l), R"({"id":"L1","confidence":0})");
}

TEST(LearningsLive, ExpiryAndConfidence) {
  const auto now = IsoAt("2026-03-01T00:00:00Z");
  Facts f;
  EXPECT_TRUE(IsLive(f, now));  // neither field: live
  f.expires_at = IsoAt("2026-03-01T00:00:01Z");
  EXPECT_TRUE(IsLive(f, now));
  f.expires_at = now;
  EXPECT_FALSE(IsLive(f, now));
  f.expires_at.reset();
  f.confidence = 0;
  EXPECT_FALSE(IsLive(f, now));
  f.confidence = 0.01;
  EXPECT_TRUE(IsLive(f, now));
}

}  // namespace
}  // namespace lore::learnings
