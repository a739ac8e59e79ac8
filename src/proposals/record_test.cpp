#include "lore/proposals/record.h"

#include <gtest/gtest.h>

#include <cmath>

#include "lore/json/dump_js.h"
#include "lore/proposals/learning.h"
#include "lore/proposals/settings.h"

namespace lore::proposals {
namespace {

Json Valid() {
  return Json::parse(
      R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2026-05-01T10:00:00.000Z","wave_id":"W1","type":"anti-pattern","subject":"s","insight":"i","evidence":"e","confidence":0.85,"schema_version":1})");
}

std::vector<std::string> With(const char* key, Json value) {
  Json r = Valid();
  r[key] = std::move(value);
  return Validate(r);
}

TEST(RecordTest, ValidRecordHasNoErrors) { EXPECT_TRUE(Validate(Valid()).empty()); }

TEST(RecordTest, SubjectBoundaries) {
  EXPECT_TRUE(With("subject", std::string(100, 'a')).empty());
  EXPECT_EQ(With("subject", std::string(101, 'a')),
            std::vector<std::string>{"subject exceeds 100 chars (got 101)"});
  // Code points, not bytes: 100 two-byte characters are fine.
  std::string wide;
  for (int i = 0; i < 100; ++i) wide += "\xc3\xa9";
  EXPECT_TRUE(With("subject", wide).empty());
  EXPECT_EQ(With("subject", "a\nb"),
            std::vector<std::string>{"subject must not contain newline characters"});
  EXPECT_EQ(With("subject", "a\rb"),
            std::vector<std::string>{"subject must not contain newline characters"});
  EXPECT_EQ(With("subject", ""), std::vector<std::string>{"subject must not be empty"});
  EXPECT_EQ(With("insight", std::string(2001, 'x')),
            std::vector<std::string>{"insight exceeds 2000 chars (got 2001)"});
  EXPECT_TRUE(With("insight", std::string(2000, 'x')).empty());
  EXPECT_EQ(With("evidence", std::string(5001, 'x')),
            std::vector<std::string>{"evidence exceeds 5000 chars (got 5001)"});
}

TEST(RecordTest, ConfidenceBoundaries) {
  EXPECT_TRUE(With("confidence", 0).empty());
  EXPECT_TRUE(With("confidence", 1).empty());
  EXPECT_TRUE(With("confidence", 1.0).empty());
  EXPECT_EQ(With("confidence", -0.0001),
            std::vector<std::string>{"confidence must be a finite number in [0, 1], got: -0.0001"});
  EXPECT_EQ(With("confidence", 1.0001),
            std::vector<std::string>{"confidence must be a finite number in [0, 1], got: 1.0001"});
  EXPECT_EQ(With("confidence", std::nan("")),
            std::vector<std::string>{"confidence must be a finite number in [0, 1], got: null"});
  EXPECT_EQ(With("confidence", "0.5"),
            std::vector<std::string>{"confidence must be a finite number in [0, 1], got: \"0.5\""});
}

TEST(RecordTest, FilePathsBoundaries) {
  EXPECT_TRUE(With("file_paths", Json::array({"src/a.cc"})).empty());
  EXPECT_EQ(
      With("file_paths", Json::array()),
      std::vector<std::string>{
          "file_paths must be a non-empty array of paths when present (omit it instead of [])"});
  EXPECT_EQ(With("file_paths", Json::array({"**"})),
            std::vector<std::string>{
                "file_paths[0] must be a plain path, not a glob (found '*' in \"**\")"});
  EXPECT_EQ(With("file_paths", Json::array({"src/[ab]"})),
            std::vector<std::string>{
                "file_paths[0] must be a plain path, not a glob (found '[' in \"src/[ab]\")"});
  EXPECT_EQ(With("file_paths", Json::array({""})),
            std::vector<std::string>{"file_paths[0] must not be empty"});
}

TEST(RecordTest, EveryProblemReportedTogether) {
  Json r = Valid();
  r.erase("insight");
  r["type"] = "pattern";
  r["wave_id"] = "W 1";
  r["subject"] = std::string(101, 's') + "\n";
  r["confidence"] = 2;
  r["id"] = "not-a-uuid";
  auto errors = Validate(r);
  ASSERT_EQ(errors.size(), 7u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], "missing required field: insight");
  EXPECT_EQ(errors[1], "id must be a UUID v4, got: \"not-a-uuid\"");
  EXPECT_EQ(errors[2], "wave_id must match ^[A-Za-z0-9_-]+$, got: \"W 1\"");
  EXPECT_EQ(errors[3].rfind("type must be one of [mode-selector-accuracy, ", 0), 0u);
  EXPECT_EQ(errors[4], "subject exceeds 100 chars (got 102)");
  EXPECT_EQ(errors[5], "subject must not contain newline characters");
  EXPECT_EQ(errors[6], "confidence must be a finite number in [0, 1], got: 2");
}

TEST(RecordTest, MakeRecordKeyOrderAndCompactLine) {
  Fields f{"W2", "convention",           "Use X",          "Because Y", "Seen Z",
           0.5,  std::string("agent-7"), {"a.cc", "b/c.h"}};
  Json r = MakeRecord(f, "2bc5d48f-e3ba-4c4e-b9a0-107600f8e090",
                      text::TimePoint(std::chrono::milliseconds(1700000000123)));
  EXPECT_EQ(
      json::DumpJs(r),
      R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2023-11-14T22:13:20.123Z","wave_id":"W2","type":"convention","subject":"Use X","insight":"Because Y","evidence":"Seen Z","confidence":0.5,"schema_version":1,"proposed_by_agent":"agent-7","file_paths":["a.cc","b/c.h"]})");
  EXPECT_TRUE(Validate(r).empty());
  f.file_paths.clear();
  f.proposed_by_agent.reset();
  EXPECT_EQ(MakeRecord(f, "x", {}).size(), 9u);  // optional keys left out, never []
}

TEST(JsJsonTest, NumbersAsJavaScriptWritesThem) {
  EXPECT_EQ(json::JsNumber(1.0), "1");
  EXPECT_EQ(json::JsNumber(0.0), "0");
  EXPECT_EQ(json::JsNumber(-0.0), "0");
  EXPECT_EQ(json::JsNumber(0.85), "0.85");
  EXPECT_EQ(json::JsNumber(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(json::JsNumber(0.00001), "0.00001");
  EXPECT_EQ(json::JsNumber(0.000001), "0.000001");
  EXPECT_EQ(json::JsNumber(1e-7), "1e-7");
  EXPECT_EQ(json::JsNumber(1.5e-7), "1.5e-7");
  EXPECT_EQ(json::JsNumber(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(json::JsNumber(1e21), "1e+21");
  EXPECT_EQ(json::JsNumber(-2.5), "-2.5");
  EXPECT_EQ(json::JsNumber(std::nan("")), "null");
}

TEST(JsJsonTest, StringsAndOrder) {
  Json j = Json::object();
  j["b"] = "é \"q\" \\ \n\t\x01/";
  j["a"] = Json::array({1, 1.0, true, nullptr});
  EXPECT_EQ(json::DumpJs(j), "{\"b\":\"é \\\"q\\\" \\\\ \\n\\t\\u0001/\",\"a\":[1,1,true,null]}");
}

TEST(LearningTest, KeysInTheOriginalOrder) {
  Json r = Valid();
  r["proposed_by_agent"] = "agent";
  r["file_paths"] = Json::array({"a.cc"});
  Json l = ToLearning(r, "sess-9", {});
  EXPECT_EQ(
      json::DumpJs(l),
      R"({"id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","created_at":"2026-05-01T10:00:00.000Z","wave_id":"W1","type":"anti-pattern","subject":"s","insight":"i","evidence":"e","confidence":0.85,"schema_version":1,"file_paths":["a.cc"],"source_session":"sess-9","scope":"local","occurrences":1,"_provenance":"agent-proposed@W1","expires_at":"2026-07-30T10:00:00.000Z","host_class":null,"anonymized":false})");
  EXPECT_EQ(TtlDays("mode-selector-accuracy"), 30);
  EXPECT_EQ(TtlDays("fragile-file"), 45);
  EXPECT_EQ(TtlDays("convention"), 90);  // docs/learnings.md
  Json rej =
      ToRejected(r, "manual-skip", text::TimePoint(std::chrono::milliseconds(1700000000123)));
  EXPECT_EQ(
      json::DumpJs(rej).substr(json::DumpJs(rej).find("\"file_paths\"")),
      R"("file_paths":["a.cc"],"_rejected_reason":"manual-skip","_rejected_at":"2023-11-14T22:13:20.123Z"})");
  EXPECT_NE(json::DumpJs(rej).find("\"proposed_by_agent\":\"agent\""), std::string::npos);
}

TEST(SettingsTest, RangesAndUnknownKeys) {
  auto load = [](const std::string& text) {
    auto c = config::Config::Parse(text, "/s/config.toml");
    EXPECT_TRUE(c);
    return LoadSettings(*c);
  };
  auto ok =
      load("[memory.proposals]\nquota_per_wave = 3\nconfidence_floor = 0.7\nenabled = false\n");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->quota_per_wave, 3);
  EXPECT_EQ(ok->confidence_floor, 0.7);
  EXPECT_FALSE(ok->enabled);
  auto bad = load("[memory.proposals]\nconfidence_floor = 1.5\n");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().line, 2);
  auto typo = load("[memory.proposals]\nquota-per-wave = 3\n");
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().Format().find("did you mean memory.proposals.quota_per_wave?"),
            std::string::npos)
      << typo.error().Format();
}

// Lines the original's collector shows and its promotion accepts are never
// refused at promotion (docs/proposals.md, "What a promotion accepts").
TEST(RecordTest, PromotionAcceptsWhatTheOriginalAccepts) {
  for (
      const char* line : {
          // keys in another order, extra keys
          R"({"confidence":0.7,"type":"convention","id":"2bc5d48f-e3ba-4c4e-b9a0-107600f8e090","subject":"s","insight":"i","evidence":"e","tags":["x"],"extra":{"a":1}})",
          // an id that is no UUID, no created_at, no wave_id, no schema_version
          R"({"id":"p-1","type":"convention","subject":"s","insight":"i","evidence":"e","confidence":1})",
          // created_at with an offset, without milliseconds, as a number
          R"({"id":"a","created_at":"2026-05-01T12:00:00+02:00","type":"t","subject":"s","insight":"i","evidence":"e","confidence":0})",
          R"({"id":"a","created_at":1714557600000,"type":"t","subject":"s","insight":"i","evidence":"e","confidence":0.5})",
          // an unknown type, a wave with a dot, schema_version 2, texts past the limits
          R"({"id":"a","wave_id":"W1.2","type":"pattern","subject":"s","insight":"i","evidence":"e","confidence":0.5,"schema_version":2})",
          // empty strings, newlines, numbers where text belongs, file_paths []
          R"({"id":"a","type":"convention","subject":"","insight":"a\nb","evidence":5,"confidence":0.5,"file_paths":[]})",
          R"({"id":null,"type":null,"subject":null,"insight":null,"evidence":null,"confidence":0.5,"host_class":null,"anonymized":false})",
      }) {
    EXPECT_TRUE(PromotionProblems(Json::parse(line)).empty()) << line;
  }
  Json long_subject = Valid();
  long_subject["subject"] = std::string(300, 'a');
  EXPECT_TRUE(PromotionProblems(long_subject).empty());
  EXPECT_FALSE(Validate(long_subject).empty());  // still refused when proposing
}

TEST(RecordTest, PromotionRefusesWhatTheOriginalRefuses) {
  auto problems = [](const char* line) { return PromotionProblems(Json::parse(line)); };
  EXPECT_EQ(problems(R"({"type":"t","subject":"s","insight":"i","evidence":"e","confidence":0.5})"),
            std::vector<std::string>{"missing required field: id"});
  EXPECT_EQ(
      problems(
          R"({"id":"a","type":"t","subject":"s","insight":"i","evidence":"e","confidence":"0.85"})"),
      std::vector<std::string>{"confidence must be a number in [0, 1], got: \"0.85\""});
  EXPECT_EQ(
      problems(
          R"({"id":"a","type":"t","subject":"s","insight":"i","evidence":"e","confidence":1.5})")
          .size(),
      1u);
  EXPECT_EQ(
      problems(
          R"({"id":"a","type":"t","subject":"s","insight":"i","evidence":"e","confidence":0.5,"host_class":3,"anonymized":"no"})")
          .size(),
      2u);
  EXPECT_EQ(problems("[1]"), std::vector<std::string>{"record must be a JSON object"});
}

}  // namespace
}  // namespace lore::proposals
