#include "lore/lint/lint.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace lore::lint {
namespace {

using doc::Kind;
using ::testing::ElementsAre;

constexpr const char* kTimes =
    "created_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n";

std::string Decision(std::string extra, std::string body = "Body.\n") {
  return "---\n" + std::string(kTimes) + "status: open\nsources: []\n" + extra + "---\n" + body;
}

std::string Knowledge(std::string extra, std::string body = "Body.\n") {
  return "---\n" + std::string(kTimes) +
         "kind: rule\ndescription: When to use SQLite\nlast_sources: []\n" + extra + "---\n" + body;
}

Target At(Kind kind, std::string slug, Op op = Op::kCreate) {
  std::string path = "/s/" + doc::RelPath(kind, slug);
  return Target{kind, std::move(slug), path, op};
}

std::vector<std::string> Rules(const Report& r) {
  std::vector<std::string> out;
  for (const Finding& f : r.findings) out.push_back(f.rule);
  return out;
}

Finding Only(const Report& r) {
  EXPECT_EQ(r.findings.size(), 1u) << ::testing::PrintToString(Rules(r));
  return r.findings.empty() ? Finding{} : r.findings[0];
}

TEST(Lint, ValidRecordsOfEveryKindHaveNoFindings) {
  StoreView v;
  v.Add(Kind::kKnowledge, "setup-guide");
  EXPECT_THAT(Rules(LintText(At(Kind::kDecision, "use-sqlite"), Decision(""), v)), ElementsAre());
  EXPECT_THAT(Rules(LintText(At(Kind::kRequest, "fast-cli"),
                             "---\n" + std::string(kTimes) + "sources: []\n---\nb\n", v)),
              ElementsAre());
  EXPECT_THAT(Rules(LintText(At(Kind::kKnowledge, "sqlite"), Knowledge(""), v)), ElementsAre());
  EXPECT_THAT(Rules(LintText(At(Kind::kSummary, "summary"),
                             "---\nupdated_at: 2026-01-02T03:04:05Z\n---\n# Summary\n", v)),
              ElementsAre());
  EXPECT_THAT(Rules(LintText(At(Kind::kWorkflow, "release", Op::kCheck),
                             "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: Release steps\n"
                             "auto_invoke: false\nuser_invocable: true\nrequires: [setup-guide]\n"
                             "---\n1. tag\n",
                             v)),
              ElementsAre());
}

TEST(Lint, UnparseableFrontmatterIsAnErrorWithItsLine) {
  Report r = LintText(At(Kind::kDecision, "x"), "---\nstatus: open\nsources: [a\n---\nb\n", {});
  Finding f = Only(r);
  EXPECT_EQ(f.rule, "frontmatter");
  EXPECT_EQ(f.line, 3);
  EXPECT_EQ(f.path, "/s/memory/decisions/x.md");
  Report none = LintText(At(Kind::kDecision, "x"), "no frontmatter\n", {});
  EXPECT_EQ(Only(none).rule, "frontmatter");
  EXPECT_EQ(Only(none).line, 1);
}

TEST(Lint, MissingFieldsAreErrorsEachNamed) {
  Report r =
      LintText(At(Kind::kKnowledge, "k"), "---\nkind: rule\ndescription: \"\"\n---\nb\n", {});
  EXPECT_THAT(Rules(r),
              ElementsAre("missing-field", "missing-field", "missing-field", "missing-field"));
  EXPECT_EQ(r.findings[0].field, "created_at");
  EXPECT_EQ(r.findings[1].field, "updated_at");
  EXPECT_EQ(r.findings[2].field, "description");
  EXPECT_EQ(r.findings[2].message, "frontmatter field 'description' is empty");
  EXPECT_EQ(r.findings[2].line, 3);
  EXPECT_EQ(r.findings[3].field, "last_sources");
  EXPECT_EQ(r.findings[3].Format(),
            "error: missing frontmatter field 'last_sources': /s/knowledge/k.md; add the line "
            "'last_sources: []'");
}

TEST(Lint, IllTypedFieldIsAnError) {
  Report r = LintText(At(Kind::kDecision, "x"),
                      "---\n" + std::string(kTimes) +
                          "status: open\nsources:\n  - session_id: s1\n    range: [9, 3]\n---\nb\n",
                      {});
  Finding f = Only(r);
  EXPECT_EQ(f.rule, "field-type");
  EXPECT_EQ(f.field, "sources");
  EXPECT_EQ(f.line, 7);
  EXPECT_EQ(f.message, "'sources' must be a list of {session_id, range: [from, to]}");
}

TEST(Lint, DuplicateKeyIsAnError) {
  Report r = LintText(At(Kind::kDecision, "x"), Decision("status: resolved\n"), {});
  EXPECT_EQ(Only(r).rule, "duplicate-key");
  EXPECT_EQ(Only(r).line, 6);
}

TEST(Lint, BadTimeIsAnError) {
  Report r = LintText(At(Kind::kRequest, "x"),
                      "---\ncreated_at: 2026-01-02\nupdated_at: 2026-01-02T03:04:05Z\nsources: "
                      "[]\n---\nb\n",
                      {});
  Finding f = Only(r);
  EXPECT_EQ(f.rule, "bad-time");
  EXPECT_EQ(f.field, "created_at");
  EXPECT_EQ(f.line, 2);
}

TEST(Lint, BadStatusIsAnError) {
  Report r = LintText(At(Kind::kDecision, "x"),
                      "---\n" + std::string(kTimes) + "status: closed\nsources: []\n---\nb\n", {});
  EXPECT_EQ(Only(r).rule, "bad-status");
  EXPECT_EQ(Only(r).message, "'status' is 'closed', not one of open, resolved, replaced");
  EXPECT_EQ(Only(r).line, 4);
}

TEST(Lint, BadSlugIsAnError) {
  Report r = LintText(At(Kind::kDecision, "Use_SQLite"), Decision(""), {});
  EXPECT_EQ(Only(r).rule, "bad-slug");
  EXPECT_THAT(Only(r).repair, ::testing::EndsWith("e.g. 'use-sqlite'"));
  Report s =
      LintText(At(Kind::kSummary, "other"), "---\nupdated_at: 2026-01-02T03:04:05Z\n---\n", {});
  EXPECT_EQ(Only(s).rule, "bad-slug");
}

TEST(Lint, AnyWriteUnderWorkflowIsAnError) {
  std::string text = "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: d\n---\nb\n";
  for (Op op : {Op::kCreate, Op::kUpdate}) {
    Report r = LintText(At(Kind::kWorkflow, "release", op), text, {});
    EXPECT_EQ(Only(r).rule, "workflow-write");
    EXPECT_EQ(Only(r).path, "/s/memory/workflow/release.md");
  }
  EXPECT_FALSE(LintText(At(Kind::kWorkflow, "release", Op::kCheck), text, {}).HasErrors());
}

TEST(Lint, CreatingAnExistingSlugIsAnError) {
  StoreView v;
  v.Add(Kind::kDecision, "use-sqlite");
  EXPECT_EQ(Only(LintText(At(Kind::kDecision, "use-sqlite"), Decision(""), v)).rule, "slug-exists");
  EXPECT_FALSE(
      LintText(At(Kind::kDecision, "use-sqlite", Op::kUpdate), Decision(""), v).HasErrors());
  // The same slug in another kind is another record.
  EXPECT_FALSE(LintText(At(Kind::kRequest, "use-sqlite"),
                        "---\n" + std::string(kTimes) + "sources: []\n---\nb\n", v)
                   .HasErrors());
}

std::string Replaced(std::string by) {
  return "---\n" + std::string(kTimes) + "status: replaced\nreplaced_by: " + by +
         "\nsources: []\n---\nb\n";
}

TEST(Lint, ReplacedByNamingAMissingRecordIsAnError) {
  StoreView v;
  v.Add(Kind::kRequest, "ghost");  // another kind does not count
  Finding f = Only(LintText(At(Kind::kDecision, "old"), Replaced("ghost"), v));
  EXPECT_EQ(f.rule, "missing-reference");
  EXPECT_EQ(f.field, "replaced_by");
  EXPECT_EQ(f.line, 5);
  EXPECT_EQ(f.message, "'replaced_by' names decision 'ghost', which does not exist");
}

TEST(Lint, RequiresNamingAMissingKnowledgePageIsAnError) {
  StoreView v;
  v.Add(Kind::kKnowledge, "present");
  Report r = LintText(At(Kind::kWorkflow, "w", Op::kCheck),
                      "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: d\nrequires: [present, "
                      "absent, Bad]\n---\n",
                      v);
  EXPECT_THAT(Rules(r), ElementsAre("missing-reference", "bad-slug"));
  EXPECT_EQ(r.findings[0].message,
            "'requires' names knowledge page 'absent', which does not exist");
  EXPECT_EQ(r.findings[0].line, 4);
}

TEST(Lint, ReplacedBySelfIsAnError) {
  StoreView v;
  v.Add(Kind::kDecision, "old");
  EXPECT_EQ(Only(LintText(At(Kind::kDecision, "old", Op::kUpdate), Replaced("old"), v)).rule,
            "replaced-by-self");
}

TEST(Lint, ReplacedByCycleIsAnError) {
  StoreView v;
  v.Add(Kind::kDecision, "pick-postgres", {"adopt-sqlite"});
  v.Add(Kind::kDecision, "adopt-sqlite", {"keep-flat-files"});
  v.Add(Kind::kDecision, "keep-flat-files");
  // keep-flat-files -> pick-postgres closes the loop.
  Finding f = Only(
      LintText(At(Kind::kDecision, "keep-flat-files", Op::kUpdate), Replaced("pick-postgres"), v));
  EXPECT_EQ(f.rule, "replaced-by-cycle");
  EXPECT_EQ(f.field, "replaced_by");
  EXPECT_EQ(f.message,
            "'replaced_by' forms a cycle: keep-flat-files -> pick-postgres -> adopt-sqlite -> "
            "keep-flat-files");
  // A chain that ends is fine, and a loop elsewhere is not this record's.
  v.Add(Kind::kDecision, "keep-flat-files");
  EXPECT_FALSE(
      LintText(At(Kind::kDecision, "use-redis"), Replaced("pick-postgres"), v).HasErrors());
  v.Add(Kind::kDecision, "keep-flat-files", {"adopt-sqlite"});
  EXPECT_FALSE(
      LintText(At(Kind::kDecision, "use-redis"), Replaced("pick-postgres"), v).HasErrors());
}

TEST(Lint, StatusAndReplacedByMustAgree) {
  StoreView v;
  v.Add(Kind::kDecision, "new");
  Report a = LintText(At(Kind::kDecision, "x"),
                      "---\n" + std::string(kTimes) + "status: replaced\nsources: []\n---\n", v);
  EXPECT_EQ(Only(a).rule, "replaced-status");
  Report b = LintText(At(Kind::kDecision, "x"), Decision("replaced_by: new\n"), v);
  EXPECT_EQ(Only(b).rule, "replaced-status");
  EXPECT_EQ(Only(b).message, "'replaced_by' is set but 'status' is 'open'");
}

TEST(Lint, LongDescriptionWithModelInvokationIsAnError) {
  std::string desc(1025, 'x');
  std::string text = "---\n" + std::string(kTimes) + "kind: rule\ndescription: " + desc +
                     "\nmodel_invokation: true\nlast_sources: []\n---\nb\n";
  Finding f = Only(LintText(At(Kind::kKnowledge, "k"), text, {}));
  EXPECT_EQ(f.rule, "description-too-long");
  EXPECT_EQ(f.line, 5);
  std::string off = text;
  off.replace(off.find("model_invokation: true"), 22, "model_invokation: false");
  EXPECT_FALSE(LintText(At(Kind::kKnowledge, "k"), off, {}).HasErrors());
  // 1024 multi-byte characters are within the limit.
  std::string kana;
  for (int i = 0; i < 1024; ++i) kana += "あ";
  std::string ok = text;
  ok.replace(ok.find(desc), desc.size(), kana);
  EXPECT_FALSE(LintText(At(Kind::kKnowledge, "k"), ok, {}).HasErrors());
}

TEST(Lint, BodyOverTheLimitIsAnError) {
  std::vector<doc::Source> three(3, doc::Source{"s", {1, 2}});
  std::string sources =
      "sources:\n  - {session_id: a, range: [1, 2]}\n  - {session_id: b, range: [1, 2]}\n";
  std::string text = "---\n" + std::string(kTimes) + "status: open\n" + sources + "---\n";
  EXPECT_FALSE(LintText(At(Kind::kDecision, "x"), text + std::string(8000, 'b'), {}).HasErrors());
  Finding f = Only(LintText(At(Kind::kDecision, "x"), text + std::string(8001, 'b'), {}));
  EXPECT_EQ(f.rule, "body-too-long");
  EXPECT_EQ(f.line, 9);
  std::string summary = "---\nupdated_at: 2026-01-02T03:04:05Z\n---\n";
  EXPECT_FALSE(
      LintText(At(Kind::kSummary, "summary"), summary + std::string(20000, 'b'), {}).HasErrors());
  EXPECT_EQ(
      Only(LintText(At(Kind::kSummary, "summary"), summary + std::string(20001, 'b'), {})).rule,
      "body-too-long");
}

TEST(Lint, LargeBodyWithAtMostOneSourceIsAWarning) {
  std::string one = "---\n" + std::string(kTimes) +
                    "status: open\nsources: [{session_id: a, range: [1, 2]}]\n---\n";
  Finding f = Only(LintText(At(Kind::kDecision, "x"), one + std::string(1500, 'b'), {}));
  EXPECT_EQ(f.rule, "large-body-few-sources");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_TRUE(
      LintText(At(Kind::kDecision, "x"), one + std::string(1499, 'b'), {}).findings.empty());
  EXPECT_EQ(
      Only(LintText(At(Kind::kKnowledge, "k"), Knowledge("", std::string(1600, 'b')), {})).rule,
      "large-body-few-sources");
}

TEST(Lint, MoreThanTenSourcesIsAWarning) {
  std::string sources = "sources:\n";
  for (int i = 0; i < 11; ++i)
    sources += "  - {session_id: s" + std::to_string(i) + ", range: [1, 2]}\n";
  std::string text = "---\n" + std::string(kTimes) + "status: open\n" + sources + "---\nb\n";
  Finding f = Only(LintText(At(Kind::kDecision, "x"), text, {}));
  EXPECT_EQ(f.rule, "too-many-sources");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.message, "'sources' has 11 entries (more than 10)");
}

TEST(Lint, ThreeSlugsWithinEditDistanceTwoIsAWarning) {
  StoreView v;
  v.Add(Kind::kDecision, "use-sqlite");
  v.Add(Kind::kDecision, "something-else");
  EXPECT_TRUE(LintText(At(Kind::kDecision, "use-sqlite3"), Decision(""), v).findings.empty());
  v.Add(Kind::kDecision, "uses-sqlite");
  Finding f = Only(LintText(At(Kind::kDecision, "use-sqlite3"), Decision(""), v));
  EXPECT_EQ(f.rule, "similar-slugs");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.message,
            "slug 'use-sqlite3' is within edit distance 2 of 'use-sqlite' and 'uses-sqlite'");
  // Other kinds do not count.
  StoreView w;
  w.Add(Kind::kRequest, "use-sqlite");
  w.Add(Kind::kRequest, "uses-sqlite");
  EXPECT_TRUE(LintText(At(Kind::kDecision, "use-sqlite3"), Decision(""), w).findings.empty());
}

TEST(Lint, EveryViolationIsReportedAtOnce) {
  StoreView v;
  v.Add(Kind::kDecision, "x");
  Report r = LintText(
      At(Kind::kDecision, "x"),
      "---\ncreated_at: soon\nstatus: maybe\nsources: 3\n---\n" + std::string(9000, 'b'), v);
  EXPECT_THAT(Rules(r), ElementsAre("slug-exists", "field-type", "missing-field", "bad-time",
                                    "bad-status", "body-too-long"));
  EXPECT_EQ(r.Errors(), 6u);
  EXPECT_EQ(r.Warnings(), 0u);
}

TEST(Finding, JsonShape) {
  Finding f{Severity::kWarning, "too-many-sources", "/p.md", 0, "sources", "m", "r"};
  EXPECT_EQ(f.ToJson().dump(),
            R"({"severity":"warning","rule":"too-many-sources","path":"/p.md","line":null,)"
            R"("field":"sources","message":"m","repair":"r"})");
}

}  // namespace
}  // namespace lore::lint
