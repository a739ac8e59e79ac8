#include "consolidate/tools.h"

#include <gtest/gtest.h>

#include "consolidate/prompt.h"
#include "lore/json/value.h"
#include "support/temp_dir.h"

namespace lore::consolidate {
namespace {

constexpr const char* kId = "01a22be5-a500-7000-8000-000000000001";

class ToolBoxTest : public ::testing::Test {
 protected:
  ToolBoxTest() : ws_(t_.path()) {
    t_.Write(
        "memory/decisions/old.md",
        "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nstatus: "
        "resolved\n"
        "sources:\n  - session_id: s0\n    range: [1, 1]\n---\nline one\nline two\nline two\n");
    in_.run_id = "r";
    in_.now = text::TimePoint(std::chrono::seconds(1764500000));  // 2025-11-30T10:53:20Z
    in_.settings = &settings_;
    StagedEntry e;
    e.source = {"s1", {4, 8}};
    in_.entries.push_back({kId, e});
  }
  ToolOutcome Call(const std::string& name, const Json& args) {
    ToolBox box(t_.path(), ws_, in_, candidates_);
    return box.Call(name, args.dump());
  }
  static Json Write(const std::string& path, const std::string& content,
                    Json ids = Json::array({kId})) {
    return {{"path", path}, {"content", content}, {"entry_ids", ids}};
  }

  testing::TempDir t_;
  Workspace ws_;
  Settings settings_;
  RunInput in_;
  CandidateReport candidates_{{}, "[]"};
};

TEST_F(ToolBoxTest, WriteSetsTimesAndSourcesItself) {
  auto o = Call("memory_write",
                Write("memory/decisions/new-one.md",
                      "---\ncreated_at: 1999-01-01T00:00:00Z\nstatus: open\n---\nBody.\n"));
  EXPECT_FALSE(o.rejected) << o.content;
  EXPECT_EQ(
      o.content,
      R"({"ok":true,"path":"memory/decisions/new-one.md","sources":[{"session_id":"s1","range":[4,8]}]})");
  EXPECT_EQ(**ws_.Read("memory/decisions/new-one.md"),
            "---\ncreated_at: 2025-11-30T10:53:20Z\nupdated_at: 2025-11-30T10:53:20Z\nstatus: "
            "open\nsources:\n"
            "  - session_id: s1\n    range: [4, 8]\n---\nBody.\n");
  EXPECT_TRUE(t_.Read("memory/decisions/new-one.md").empty());  // nothing on disk before the commit
}

TEST_F(ToolBoxTest, EditKeepsSourcesAndNeedsAUniqueMatch) {
  auto twice = Call("memory_edit", {{"path", "memory/decisions/old.md"},
                                    {"old_string", "line two"},
                                    {"new_string", "x"},
                                    {"entry_ids", {kId}}});
  EXPECT_FALSE(twice.rejected);
  EXPECT_NE(twice.content.find("occurs more than once"), std::string::npos);
  auto ok = Call("memory_edit", {{"path", "memory/decisions/old.md"},
                                 {"old_string", "line one"},
                                 {"new_string", "line 1"},
                                 {"entry_ids", {kId}}});
  ASSERT_FALSE(ok.rejected) << ok.content;
  std::string text = **ws_.Read("memory/decisions/old.md");
  EXPECT_NE(text.find("created_at: 2026-01-01T00:00:00Z\n"), std::string::npos) << text;
  EXPECT_NE(
      text.find("  - session_id: s0\n    range: [1, 1]\n  - session_id: s1\n    range: [4, 8]\n"),
      std::string::npos)
      << text;
  // Repeating the record's own sources is allowed; changing them is not.
  std::string same = text;
  same.replace(same.find("line 1"), 6, "line uno");
  EXPECT_FALSE(Call("memory_write", Write("memory/decisions/old.md", same)).rejected);
  std::string forged = same;
  forged.replace(forged.find("range: [1, 1]"), 13, "range: [1, 9]");
  auto refused = Call("memory_write", Write("memory/decisions/old.md", forged));
  EXPECT_TRUE(refused.rejected);
  EXPECT_NE(refused.content.find("'sources' is written by lore"), std::string::npos);
}

TEST_F(ToolBoxTest, KnowledgeNeedsACandidateSource) {
  const std::string page = "---\nkind: rule\ndescription: d\n---\nBody.\n";
  auto none = Call("memory_write", Write("knowledge/k.md", page));
  EXPECT_TRUE(none.rejected);
  EXPECT_NE(none.content.find("which is empty"), std::string::npos);
  candidates_ = *ParseCandidates(R"([{"source":{"session_id":"s1","range":[9,12]}}])", "r.json");
  auto miss = Call("memory_write", Write("knowledge/k.md", page));
  EXPECT_NE(miss.content.find("which lists none of s1 [4, 8]"), std::string::npos) << miss.content;
  candidates_ = *ParseCandidates(
      R"({"candidates":[{"sources":[{"session_id":"s1","range":[8,12]}]}]})", "r.json");
  auto ok = Call("memory_write", Write("knowledge/k.md", page));
  EXPECT_FALSE(ok.rejected) << ok.content;
  EXPECT_NE(
      (**ws_.Read("knowledge/k.md")).find("last_sources:\n  - session_id: s1\n    range: [4, 8]\n"),
      std::string::npos);
}

TEST_F(ToolBoxTest, SummaryNeedsNoEntriesAndUsageErrorsAreNotFailures) {
  EXPECT_FALSE(
      Call("memory_write", Write("memory/summary.md", "---\n---\n# Summary\n", Json::array()))
          .rejected);
  auto unknown = Call("remove_everything", Json::object());
  EXPECT_FALSE(unknown.rejected);
  EXPECT_NE(unknown.content.find("unknown tool 'remove_everything'"), std::string::npos);
  EXPECT_FALSE(Call("memory_read", {{"path", "memory/decisions/none.md"}}).rejected);
  EXPECT_TRUE(
      Call("memory_read", {{"path", "memory/workflow/w.md"}}).content.find("no such record") !=
      std::string::npos);
  EXPECT_TRUE(Call("finish", Json::object()).finished);
}

TEST(Candidates, ShapesAndErrors) {
  EXPECT_TRUE(ParseCandidates("[]", "r")->sources.empty());
  auto bad = ParseCandidates(R"({"candidates":[{"reason":"x"}]})", "r.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(
      bad.error().Format(),
      "knowledge-candidate report candidate 0 names no source: r.json; write {\"candidates\": "
      "[{\"source\": "
      "{\"session_id\": ..., \"range\": [from, to]}}]} or remove the file (absent means empty)");
  auto r = ParseCandidates(R"({"candidates":[{"source":{"segment_id":"s","range":[1,3]}}]})", "r");
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->Covers({"s", {3, 9}}));
  EXPECT_FALSE(r->Covers({"s", {4, 9}}));
  EXPECT_FALSE(r->Covers({"t", {1, 3}}));
}

TEST(Prompt, HoldsEntriesMemoryAndReportButNoKnowledge) {
  testing::TempDir t;
  t.Write("memory/summary.md", "---\n---\nSUMMARY\n");
  t.Write("memory/decisions/d.md", "DECISION\n");
  t.Write("memory/requests/r.md", std::string(300, 'r'));
  t.Write("memory/workflow/w.md", "WORKFLOW\n");
  t.Write("knowledge/k.md", "KNOWLEDGE\n");
  Workspace ws(t.path());
  Settings s;
  s.llm_prompt_memory_chars = 100;
  StagedEntry entry;
  entry.source = {"s1", {1, 2}};
  RunInput in{"r", {}, {{kId, entry}}, &s, nullptr};
  auto p = BuildPrompt(in, ws, CandidateReport{{}, "[]"});
  ASSERT_TRUE(p);
  EXPECT_NE(p->user.find("\"id\": \"" + std::string(kId) + "\""), std::string::npos);
  EXPECT_NE(p->user.find("=== memory/summary.md ===\n---\n---\nSUMMARY\n"), std::string::npos);
  EXPECT_NE(p->user.find("=== memory/decisions/d.md ===\nDECISION\n"), std::string::npos);
  EXPECT_NE(p->user.find(
                "Not shown for length (memory_read them when needed):\n- memory/requests/r.md\n"),
            std::string::npos)
      << p->user;
  EXPECT_EQ(p->user.find("KNOWLEDGE"), std::string::npos);
  EXPECT_EQ(p->user.find("WORKFLOW"), std::string::npos);
  EXPECT_NE(p->system.find("An empty result is a fine result"), std::string::npos);
}

}  // namespace
}  // namespace lore::consolidate
