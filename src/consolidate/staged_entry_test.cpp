#include "lore/consolidate/staged_entry.h"

#include <gtest/gtest.h>

namespace lore::consolidate {
namespace {

std::string Err(std::string_view text) {
  auto r = ParseStagedEntry(text, "<stdin>");
  return r ? "ok" : r.error().Format();
}

TEST(StagedEntry, ParsesAndRendersCanonically) {
  auto e = ParseStagedEntry(
      R"({"requests":[{"intent":"i","summary":"s","target":null}],
          "source":{"session_id":"s1","range":[3,9]},
          "decisions":[{"options":["a","b"],"chosen":"b","rationale":"why"}],
          "attempts":[{"action":"x","result":"y","succeeded":false}]})",
      "f");
  ASSERT_TRUE(e) << e.error().Format();
  EXPECT_EQ(e->source, (doc::Source{"s1", {3, 9}}));
  EXPECT_EQ(RenderStagedEntry(*e),
            R"({"source":{"session_id":"s1","range":[3,9]},"decisions":[{"options":["a","b"],)"
            R"("chosen":"b","rationale":"why"}],"discussions":[],"attempts":[{"action":"x",)"
            R"("result":"y","succeeded":false}],"requests":[{"intent":"i","summary":"s"}]})"
            "\n");
}

TEST(StagedEntry, SegmentIdIsReadAsSessionId) {
  auto e = ParseStagedEntry(R"({"source":{"segment_id":"seg","range":[0,0]}})", "f");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->source.session_id, "seg");
}

TEST(StagedEntry, ErrorsNameTheField) {
  const std::string tail =
      ": <stdin>; fix that field (see docs/consolidation.md for the staged entry) "
      "and stage the entry again";
  EXPECT_EQ(Err("[]"),
            "staged entry is not a JSON object: <stdin>; send exactly one JSON object "
            "{source, decisions, discussions, attempts, requests}");
  EXPECT_EQ(Err("{"),
            "staged entry is not valid JSON: expected a string key in an object: <stdin>; send "
            "exactly one JSON object");
  EXPECT_EQ(Err("{}"), "staged entry field source is missing" + tail);
  EXPECT_EQ(Err(R"({"source":{"session_id":"s","range":[5,1]}})"),
            "staged entry field source.range must have from <= to" + tail);
  EXPECT_EQ(
      Err(R"({"source":{"session_id":"s","range":[-1,1]}})"),
      "staged entry field source.range must be [from, to] with two non-negative integers" + tail);
  EXPECT_EQ(Err(R"({"source":{"session_id":"","range":[1,1]}})"),
            "staged entry field source.session_id must be a non-empty string" + tail);
  const std::string src = R"("source":{"session_id":"s","range":[1,2]})";
  EXPECT_EQ(
      Err("{" + src +
          R"(,"decisions":[{"options":[],"chosen":"a","rationale":"r"},{"options":["x"],"rationale":"r"}]})"),
      "staged entry field decisions[1].chosen is missing" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"decisions":[{"options":["a",""],"chosen":"a","rationale":"r"}]})"),
            "staged entry field decisions[0].options[1] must be a non-empty string" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"attempts":[{"action":"a","result":"r","succeeded":"no"}]})"),
            "staged entry field attempts[0].succeeded must be true or false" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"requests":[{"intent":"i","summary":"s","target":3}]})"),
            "staged entry field requests[0].target must be a string or null" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"discussions":{}})"),
            "staged entry field discussions must be a list" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"decison":[]})"),
            "staged entry field decison is not a known field (expected one of: source, started_at, "
            "ended_at, decisions, discussions, attempts, requests, outcomes)" +
                tail);
  EXPECT_EQ(Err("{" + src + R"(,"discussions":[{"topic":"t","points":["p"],"extra":1}]})"),
            "staged entry field discussions[0].extra is not a known field (expected one of: topic, "
            "points, lines, at)" +
                tail);
  EXPECT_EQ(Err("{" + src +
                R"(,"attempts":[{"action":"a","result":"","succeeded":false,"lines":[9,3]}]})"),
            "staged entry field attempts[0].lines must be [first, last] with first <= last" + tail);
  EXPECT_EQ(Err("{" + src + R"(,"outcomes":[{"kind":"deploy","what":"x","ok":true}]})"),
            "staged entry field outcomes[0].kind must be commit, push, pr, test, build, install or "
            "remove" +
                tail);
  EXPECT_EQ(Err("{" + src + R"(,"started_at":"yesterday"})"),
            "staged entry field started_at must be an RFC 3339 time" + tail);
}

TEST(StagedEntry, TheKeysLoreAddedRoundTrip) {
  const std::string text =
      R"({"source":{"session_id":"s","range":[1,9]},"started_at":"2025-01-02T03:04:05Z",)"
      R"("ended_at":"2025-01-02T03:05:00Z","decisions":[{"options":[],"chosen":"c","rationale":"r",)"
      R"("lines":[2,3],"at":"2025-01-02T03:04:06Z"}],"discussions":[],"attempts":[{"action":"make",)"
      R"("result":"error: x","succeeded":false,"cause":"why","fix":"make all","files":["a.c"],)"
      R"("lines":[4,8]}],"requests":[],"outcomes":[{"kind":"commit","what":"Fix","ok":true,)"
      R"("detail":"[main 1234567] Fix","lines":[8,9]}]})"
      "\n";
  auto e = ParseStagedEntry(text, "x.json");
  ASSERT_TRUE(e) << e.error().Format();
  EXPECT_EQ(e->attempts[0].cause, "why");
  EXPECT_EQ(e->attempts[0].files, std::vector<std::string>{"a.c"});
  EXPECT_EQ(e->outcomes[0].kind, "commit");
  EXPECT_EQ(RenderStagedEntry(*e), text);
}

TEST(StagedEntry, RefusesInvalidUtf8AndHugeInput) {
  EXPECT_NE(Err("{\"source\":\"\xff\"}").find("not valid UTF-8"), std::string::npos);
  EXPECT_NE(Err(std::string(kMaxStagedEntryBytes + 1, ' ')).find("larger than"), std::string::npos);
}

}  // namespace
}  // namespace lore::consolidate
