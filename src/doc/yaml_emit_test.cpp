#include "doc/yaml_emit.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace lore::doc {
namespace {

TEST(EmitString, PlainWhenItReadsBackAsTheSameText) {
  EXPECT_EQ(EmitString("use-postgres"), "use-postgres");
  EXPECT_EQ(EmitString("Use SQLite, not files"), "Use SQLite, not files");
  EXPECT_EQ(EmitString("2026-01-31T12:00:00Z"), "2026-01-31T12:00:00Z");
  EXPECT_EQ(EmitString("日本語の説明"), "日本語の説明");
  EXPECT_EQ(EmitString("a:b"), "a:b");
}

TEST(EmitString, QuotesWhatWouldMisread) {
  EXPECT_EQ(EmitString(""), "\"\"");
  EXPECT_EQ(EmitString("no"), "\"no\"");
  EXPECT_EQ(EmitString("True"), "\"True\"");
  EXPECT_EQ(EmitString("~"), "\"~\"");
  EXPECT_EQ(EmitString("12345"), "\"12345\"");
  EXPECT_EQ(EmitString("1.5e3"), "\"1.5e3\"");
  EXPECT_EQ(EmitString("0x1F"), "\"0x1F\"");
  EXPECT_EQ(EmitString(".inf"), "\".inf\"");
  EXPECT_EQ(EmitString("2026-01-31"), "\"2026-01-31\"");
  EXPECT_EQ(EmitString("key: value"), "\"key: value\"");
  EXPECT_EQ(EmitString("a #comment"), "\"a #comment\"");
  EXPECT_EQ(EmitString("- item"), "\"- item\"");
  EXPECT_EQ(EmitString("*alias"), "\"*alias\"");
  EXPECT_EQ(EmitString(" padded"), "\" padded\"");
  EXPECT_EQ(EmitString("ends:"), "\"ends:\"");
  EXPECT_EQ(EmitString("two\nlines\t\"q\" \\"), "\"two\\nlines\\t\\\"q\\\" \\\\\"");
  EXPECT_EQ(EmitString("bell\x07"), "\"bell\\x07\"");
  EXPECT_EQ(EmitString("a,b", ScalarContext::kFlow), "\"a,b\"");
  EXPECT_EQ(EmitString("a,b", ScalarContext::kBlock), "a,b");
}

TEST(EmitString, EveryOutputParsesBackToItsInput) {
  const char* inputs[] = {"",
                          "no",
                          "Yes",
                          "null",
                          "12",
                          "-3",
                          "+1",
                          ".nan",
                          "a: b",
                          "#x",
                          "x #y",
                          "'q'",
                          "\"dq\"",
                          "tab\there",
                          "nl\n",
                          "\r",
                          "@at",
                          "`bt",
                          "%pct",
                          "{brace}",
                          "[br]",
                          "a, b",
                          "?q",
                          "!tag",
                          "&anc",
                          "|pipe",
                          ">fold",
                          "\xC2\x85",
                          "\xE2\x80\xA8",
                          "\xEF\xBB\xBF"
                          "bom",
                          "ok text",
                          "trailing ",
                          "emoji 😀"};
  for (const char* in : inputs) {
    for (auto ctx : {ScalarContext::kBlock, ScalarContext::kFlow}) {
      std::string doc = "k: " + EmitString(in, ctx) + "\n";
      if (ctx == ScalarContext::kFlow) doc = "k: [" + EmitString(in, ctx) + "]\n";
      YAML::Node n = YAML::Load(doc);
      YAML::Node v = ctx == ScalarContext::kFlow ? n["k"][0] : n["k"];
      EXPECT_EQ(v.as<std::string>(), in) << doc;
    }
  }
}

TEST(EmitFields, FixedOrderAndStyle) {
  Fields f;
  f.last_sources = std::vector<Source>{};
  f.requirements = std::vector<std::string>{"a", "b-c"};
  f.user_invocable = true;
  f.auto_invoke = false;
  f.model_invokation = true;
  f.description = "Does: things";
  f.kind = "rule";
  f.updated_at = "2026-01-01T00:00:00Z";
  f.created_at = "2025-01-01T00:00:00Z";
  f.status = "open";
  f.replaced_by = "x";
  f.last_rewritten_from_range = Range{1, 9};
  f.sources = std::vector<Source>{{"123", {0, 4}}};
  f.extra = {{"zeta", "zeta: 1\n"}, {"alpha", "alpha: [x]"}};
  EXPECT_EQ(EmitFields(f),
            "created_at: 2025-01-01T00:00:00Z\n"
            "updated_at: 2026-01-01T00:00:00Z\n"
            "kind: rule\n"
            "description: \"Does: things\"\n"
            "status: open\n"
            "replaced_by: x\n"
            "model_invokation: true\n"
            "auto_invoke: false\n"
            "user_invocable: true\n"
            "requires: [a, b-c]\n"
            "last_rewritten_from_range: [1, 9]\n"
            "sources:\n"
            "  - session_id: \"123\"\n"
            "    range: [0, 4]\n"
            "last_sources: []\n"
            "zeta: 1\n"
            "alpha: [x]\n");
}

}  // namespace
}  // namespace lore::doc
