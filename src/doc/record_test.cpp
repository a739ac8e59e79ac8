#include "lore/doc/record.h"

#include <gtest/gtest.h>

#include "doc/yaml_emit.h"

namespace lore::doc {
namespace {

Record MustParse(Kind kind, std::string_view text) {
  auto r = ParseRecord(kind, text, "x.md");
  EXPECT_TRUE(r) << (r ? "" : r.error().Format());
  return r ? *r : Record{};
}

// What RenderRecord writes once `rec`'s fields change (lore's own emission)
// reads back as the same fields.
void ExpectEmissionReadsBack(Kind kind, const Record& rec) {
  const std::string emitted = "---\n" + rec.preamble + EmitFields(rec.fields) + "---\n" + rec.body;
  auto again = ParseRecord(kind, emitted, "d.md");
  ASSERT_TRUE(again) << emitted << again.error().Format();
  EXPECT_EQ(again->fields, rec.fields) << emitted;
}

// Every kind, written the way people and tools write them: comments, odd
// spacing, quoting styles, unknown keys, CRLF and missing final newlines.
struct RoundTripCase {
  Kind kind;
  const char* text;
};

const RoundTripCase kCases[] = {
    {Kind::kSummary,
     "---\n# rewritten by consolidation\nupdated_at:   2026-01-31T12:00:00Z\n"
     "last_rewritten_from_range: [ 10,40 ]\n---\n# Summary\n\n- one   two\t\n\n\n"},
    {Kind::kDecision,
     "---\ncreated_at: 2026-01-02T03:04:05+09:00\nupdated_at: '2026-01-03T00:00:00Z'\n"
     "sources:\n- session_id: \"s-1\"\n  range: [3, 17]   # first\n-   {segment_id: s2, range: "
     "[1,2]}\nstatus: open\nowner: alice  # kept\ntags:\n  - a\n  - b\n---\n"
     "Use **SQLite**.\n  indented\n\ttabbed\n"},
    {Kind::kRequest,
     "---\r\ncreated_at: 2026-01-02T03:04:05Z\r\nupdated_at: 2026-01-02T03:04:05Z\r\n"
     "sources: []\r\n---\r\nPlease keep the CLI fast.\r\n"},
    {Kind::kKnowledge,
     "---\nkind: policy\ndescription: >-\n  Public workflow resources\n  are procedural\n"
     "model_invokation: true\nuser_invocable: true\nlast_sources: []\ncreated_at: "
     "2026-01-02T03:04:05.123Z\nupdated_at: 2026-01-02T03:04:05Z\n---\nBody without final newline"},
    {Kind::kWorkflow,
     "---\ndescription: worktree フロー\nmodel_invokation: true\nuser_invocable: true\n"
     "requires: [workflow-resource-boundary]\nupdated_at: 2026-01-02T03:04:05Z\n---\n\n"
     "# Multi-agent workflow\n\n1. 日本語\n"},
};

TEST(RecordRoundTrip, EveryKindIsByteIdentical) {
  for (const auto& c : kCases) {
    Record r = MustParse(c.kind, c.text);
    EXPECT_TRUE(r.issues.empty()) << KindName(c.kind) << ": " << r.issues[0].message;
    EXPECT_EQ(RenderRecord(r), c.text) << KindName(c.kind);
  }
}

// An explicit `?` key is not on its entry's first line: the entry's own lines
// would not read back, so it is written again from its value (found by the
// record fuzzer).
TEST(RecordRoundTrip, AnEntryWhoseLinesDoNotReadBackIsReEmitted) {
  const std::string text = "---\nss: mpen\nstatus: resolved\n?\n:k[a, b]\n: c\n---\nBody\n";
  auto rec = ParseRecord(Kind::kDecision, text, "d.md");
  ASSERT_TRUE(rec) << rec.error().Format();
  EXPECT_EQ(RenderRecord(*rec), text);
  ExpectEmissionReadsBack(Kind::kDecision, *rec);
}

// Found by the record fuzzer (issue 39): a byte-order mark and a blank before the first key
// indent the mapping; that entry's own lines, written below lore's at column 0, read otherwise,
// so it is re-emitted like an indented one.
TEST(RecordRoundTrip, AnEntryBehindAByteOrderMarkIsReEmitted) {
  const std::string text = "---\n\xEF\xBB\xBF Z]source:\n Z]\n---\nts: --[-\n";
  auto rec = ParseRecord(Kind::kRequest, text, "d.md");
  ASSERT_TRUE(rec) << rec.error().Format();
  EXPECT_EQ(RenderRecord(*rec), text);
  ExpectEmissionReadsBack(Kind::kRequest, *rec);
}

// Found by the record fuzzer: a mapping indented by one space. An entry's own
// lines start with that space, and written back below lore's emission at
// column 0 they would continue the line above, so such an entry is re-emitted.
TEST(RecordRoundTrip, AnIndentedMappingIsReEmittedAtColumnZero) {
  for (Kind kind : kAllKinds) {
    const std::string text = "---\n :\n Z]source:\n Z]\n---\nts: --[-\n";
    auto rec = ParseRecord(kind, text, "d.md");
    if (!rec) continue;
    EXPECT_EQ(RenderRecord(*rec), text);
    ExpectEmissionReadsBack(kind, *rec);
  }
}

// Found by the record fuzzer: yaml-cpp read a line of 2,500 characters as a
// key, which no YAML reader takes back (an implicit key has at most 1024
// characters). Such a key is an issue, like a key with control characters.
TEST(RecordRoundTrip, AKeyLongerThanYamlAllowsIsAnIssueNotAField) {
  const std::string key = "de" + std::string(1100, '[') + std::string(1100, ']') + "d";
  const std::string text = "---\na: &x [1, 2]\nb: *x\nc: |\n  multi\n  li\n" + key + "\n---\n";
  auto rec = ParseRecord(Kind::kWorkflow, text, "w.md");
  if (!rec) return;  // a reader that refuses it outright is as good
  EXPECT_EQ(RenderRecord(*rec), text);
  bool named = false;
  for (const Issue& i : rec->issues) named |= i.type == IssueType::kBadKey;
  EXPECT_TRUE(named);
  ExpectEmissionReadsBack(Kind::kWorkflow, *rec);
}

// Found by the record fuzzer: a key of 1,000 bytes holding NEL characters
// (U+0085, a line break to YAML 1.1) reads as a key, but lore writes it
// quoted, each NEL as the six characters \u0085, and the quoted key is past
// the 1024 characters an implicit key may hold. The limit is the written
// key's, so such a key is an issue, and the re-emission reads back.
TEST(RecordRoundTrip, AKeyWhoseQuotedFormIsTooLongIsAnIssue) {
  std::string key = "sta";
  for (int i = 0; i < 20; ++i) key += std::string(46, ']') + "\xC2\x85";
  key += "tus";
  ASSERT_LE(key.size(), 1024u);
  const std::string text = "---\nstatus: open\n" + key + ": resolved[a, b]\n? [a, b]\n: c\n---\n";
  auto rec = ParseRecord(Kind::kDecision, text, "d.md");
  if (!rec) return;  // a reader that refuses it outright is as good
  EXPECT_EQ(RenderRecord(*rec), text);
  ExpectEmissionReadsBack(Kind::kDecision, *rec);
}

TEST(RecordRoundTrip, BodyChangeKeepsFrontmatterBytes) {
  Record r = MustParse(Kind::kDecision, kCases[1].text);
  r.body = "New body\n";
  std::string out = RenderRecord(r);
  std::string head = std::string(kCases[1].text);
  head = head.substr(0, head.find("---\nUse"));
  EXPECT_EQ(out, head + "---\nNew body\n");
}

TEST(RecordRoundTrip, ParsesTypedFields) {
  Record r = MustParse(Kind::kDecision, kCases[1].text);
  const Fields& f = r.fields;
  EXPECT_EQ(f.created_at, "2026-01-02T03:04:05+09:00");
  EXPECT_EQ(f.updated_at, "2026-01-03T00:00:00Z");
  ASSERT_TRUE(f.sources);
  ASSERT_EQ(f.sources->size(), 2u);
  EXPECT_EQ((*f.sources)[0], (Source{"s-1", {3, 17}}));
  EXPECT_EQ((*f.sources)[1], (Source{"s2", {1, 2}}));
  EXPECT_EQ(f.status, "open");
  ASSERT_EQ(f.extra.size(), 2u);
  EXPECT_EQ(f.extra[0].key, "owner");
  EXPECT_EQ(f.extra[0].text, "owner: alice  # kept\n");
  EXPECT_EQ(f.extra[1].text, "tags:\n  - a\n  - b\n");
  EXPECT_EQ(r.lines.at("status"), 8);
  EXPECT_EQ(r.body_line, 14);
  Record k = MustParse(Kind::kKnowledge, kCases[3].text);
  EXPECT_EQ(k.fields.description, "Public workflow resources are procedural");
  EXPECT_EQ(k.fields.model_invokation, true);
  Record w = MustParse(Kind::kWorkflow, kCases[4].text);
  EXPECT_EQ(w.fields.requirements, (std::vector<std::string>{"workflow-resource-boundary"}));
}

TEST(RecordEmit, ChangedFieldReEmitsInFixedOrderKeepingUnknownKeys) {
  Record r = MustParse(Kind::kDecision, kCases[1].text);
  r.fields.updated_at = "2026-02-01T00:00:00Z";
  r.fields.status = "replaced";
  r.fields.replaced_by = "use-postgres";
  EXPECT_EQ(RenderRecord(r),
            "---\n"
            "created_at: 2026-01-02T03:04:05+09:00\n"
            "updated_at: 2026-02-01T00:00:00Z\n"
            "status: replaced\n"
            "replaced_by: use-postgres\n"
            "sources:\n"
            "  - session_id: s-1\n"
            "    range: [3, 17]\n"
            "  - session_id: s2\n"
            "    range: [1, 2]\n"
            "owner: alice  # kept\n"
            "tags:\n  - a\n  - b\n"
            "---\nUse **SQLite**.\n  indented\n\ttabbed\n");
}

TEST(RecordEmit, ReEmissionParsesBackToTheSameFields) {
  for (const auto& c : kCases) {
    Record r = MustParse(c.kind, c.text);
    r.fields.updated_at = "2030-01-01T00:00:00Z";
    std::string out = RenderRecord(r);
    Record back = MustParse(c.kind, out);
    EXPECT_EQ(back.fields.updated_at, r.fields.updated_at);
    Fields a = r.fields, b = back.fields;
    EXPECT_EQ(a.sources, b.sources);
    EXPECT_EQ(a.description, b.description);
    EXPECT_EQ(a.requirements, b.requirements);
    EXPECT_EQ(a.extra.size(), b.extra.size());
    EXPECT_EQ(back.body, r.body);
    EXPECT_EQ(RenderRecord(back), out);  // stable: a second pass changes nothing
  }
}

TEST(RecordEmit, FlowMappingFrontmatterKeepsUnknownKeysByValue) {
  Record r = MustParse(Kind::kRequest,
                       "---\n{created_at: 2026-01-02T03:04:05Z, updated_at: 2026-01-02T03:04:05Z, "
                       "sources: [], x: [1, 'a b'], y: {k: no}}\n---\nbody\n");
  ASSERT_EQ(r.fields.extra.size(), 2u);
  EXPECT_EQ(r.fields.extra[0].text, "x: [1, a b]\n");
  EXPECT_EQ(r.fields.extra[1].text, "\"y\": {k: no}\n");  // y is a YAML 1.1 boolean
  r.fields.updated_at = "2026-01-03T00:00:00Z";
  EXPECT_EQ(RenderRecord(r),
            "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-03T00:00:00Z\n"
            "sources: []\nx: [1, a b]\n\"y\": {k: no}\n---\nbody\n");
}

TEST(RecordParse, UnparseableYamlNamesTheFileLine) {
  auto r = ParseRecord(Kind::kDecision,
                       "---\ncreated_at: 2026-01-02T03:04:05Z\nsources: [a\nstatus: open\n---\nb\n",
                       "memory/decisions/x.md");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "memory/decisions/x.md");
  EXPECT_EQ(r.error().line, 4);  // yaml-cpp notices on the line after the open '['
  EXPECT_EQ(r.error().what, "frontmatter is not valid YAML (end of sequence flow not found)");
  auto s = ParseRecord(Kind::kDecision, "---\na: 1\nb: c: d\n---\n", "y.md");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().line, 3);
  EXPECT_EQ(s.error().Format(),
            "frontmatter is not valid YAML (illegal map value): y.md:3; fix the YAML between the "
            "'---' lines (quote a value that contains ': ' or starts with a special character such "
            "as [ { * & ! | > ' \" % @)");
}

TEST(RecordParse, MissingFrontmatterAndNonMappingAreErrors) {
  auto a = ParseRecord(Kind::kRequest, "no frontmatter\n", "r.md");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().line, 1);
  auto b = ParseRecord(Kind::kRequest, "---\n- a\n- b\n---\n", "r.md");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().what, "frontmatter is not a mapping of keys to values");
  EXPECT_EQ(b.error().line, 2);
  auto c = ParseRecord(Kind::kRequest, "---\n---\nbody\n", "r.md");
  ASSERT_TRUE(c);
  EXPECT_EQ(RenderRecord(*c), "---\n---\nbody\n");
}

TEST(RecordParse, IllTypedFieldsBecomeIssuesAndKeepTheirText) {
  Record r = MustParse(Kind::kKnowledge,
                       "---\nmodel_invokation: \"yes\"\nuser_invocable: no\nlast_sources:\n"
                       "  - session_id: s\n    range: [5, 2]\nkind: [a]\n---\n");
  ASSERT_EQ(r.issues.size(), 4u);
  EXPECT_EQ(r.issues[0].field, "model_invokation");
  EXPECT_EQ(r.issues[0].line, 2);
  EXPECT_EQ(r.issues[0].message, "'model_invokation' must be true or false");
  EXPECT_EQ(r.issues[1].field, "user_invocable");
  EXPECT_EQ(r.issues[2].field, "last_sources");
  EXPECT_EQ(r.issues[2].line, 6);  // the bad range itself
  EXPECT_EQ(r.issues[3].field, "kind");
  EXPECT_FALSE(r.fields.model_invokation);
  EXPECT_EQ(r.fields.extra.size(), 4u);
}

TEST(RecordParse, DuplicateKeysAreIssues) {
  Record r = MustParse(Kind::kRequest, "---\nsources: []\nsources: []\n---\n");
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_EQ(r.issues[0].message, "duplicate frontmatter key 'sources'");
  EXPECT_EQ(r.issues[0].line, 3);
}

TEST(RecordParse, KeysOfAnotherKindAreKeptRaw) {
  Record r = MustParse(Kind::kSummary, "---\nupdated_at: 2026-01-02T03:04:05Z\nstatus: odd\n---\n");
  EXPECT_TRUE(r.issues.empty());
  EXPECT_FALSE(r.fields.status);
  ASSERT_EQ(r.fields.extra.size(), 1u);
  EXPECT_EQ(r.fields.extra[0].text, "status: odd\n");
}

TEST(RecordSet, SetFieldChecksTypesAndReplacesRawText) {
  Record r = MustParse(Kind::kKnowledge, "---\nuser_invocable: maybe\n---\nb\n");
  ASSERT_EQ(r.issues.size(), 1u);
  EXPECT_FALSE(SetFieldYaml(r, "user_invocable", "sometimes"));
  ASSERT_TRUE(SetFieldYaml(r, "user_invocable", "false"));
  EXPECT_EQ(RenderRecord(r), "---\nuser_invocable: false\n---\nb\n");
  ASSERT_TRUE(SetFieldText(r, "description", "Use: the thing"));
  ASSERT_TRUE(SetFieldYaml(r, "last_sources", "[{session_id: s1, range: [1, 4]}]"));
  ASSERT_TRUE(SetFieldYaml(r, "x-note", "[1, two]"));
  ASSERT_TRUE(SetFieldText(r, "owner", "no"));
  EXPECT_EQ(RenderRecord(r),
            "---\ndescription: \"Use: the thing\"\nuser_invocable: false\nlast_sources:\n"
            "  - session_id: s1\n    range: [1, 4]\nx-note: [1, two]\nowner: \"no\"\n---\nb\n");
  UnsetField(r, "owner");
  UnsetField(r, "description");
  EXPECT_EQ(RenderRecord(r),
            "---\nuser_invocable: false\nlast_sources:\n  - session_id: s1\n    range: [1, 4]\n"
            "x-note: [1, two]\n---\nb\n");
  EXPECT_FALSE(SetFieldYaml(r, "bad\nkey", "1"));
  EXPECT_FALSE(SetFieldYaml(r, " padded", "1"));
  EXPECT_FALSE(SetFieldYaml(r, "", "1"));
  // Any key the parser reads back as itself can be set.
  ASSERT_TRUE(SetFieldYaml(r, "Review Board", "[a, b]"));
  ASSERT_TRUE(SetFieldText(r, "ticket.id", "W-1"));
  auto back = ParseRecord(r.kind, RenderRecord(r), "x.md");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->fields, r.fields);
  EXPECT_FALSE(SetFieldText(r, "user_invocable", "true"));
  EXPECT_FALSE(SetFieldYaml(r, "sources2", "[a"));
}

TEST(RecordNew, NewRecordsCarryLoreDefaults) {
  text::TimePoint t = *text::ParseIso("2026-03-04T05:06:07Z");
  Record d = NewRecord(Kind::kDecision, t);
  d.body = "Body\n";
  EXPECT_EQ(RenderRecord(d),
            "---\ncreated_at: 2026-03-04T05:06:07Z\nupdated_at: 2026-03-04T05:06:07Z\nstatus: "
            "open\nsources: []\n---\nBody\n");
  Record k = NewRecord(Kind::kKnowledge, t);
  EXPECT_EQ(RenderRecord(k),
            "---\ncreated_at: 2026-03-04T05:06:07Z\nupdated_at: 2026-03-04T05:06:07Z\n"
            "model_invokation: false\nuser_invocable: true\nlast_sources: []\n---\n");
  EXPECT_EQ(RenderRecord(NewRecord(Kind::kSummary, t)),
            "---\nupdated_at: 2026-03-04T05:06:07Z\n---\n");
}

}  // namespace
}  // namespace lore::doc

namespace lore::doc {
namespace {

// Found by the record fuzzer: yaml-cpp let NUL and other control bytes
// through inside a flow map and gave back text that is not UTF-8.
TEST(RecordParse, ControlCharactersInFrontmatterAreRefused) {
  const std::string nul("---\n{creat1\0_at: 2026-01:x 1}\n---\n", 33);
  auto r = ParseRecord(Kind::kDecision, nul, "d.md");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().what.find("control character"), std::string::npos);
  EXPECT_EQ(r.error().line, 2);
  EXPECT_FALSE(ParseRecord(Kind::kDecision, "---\n{a: b\x02}\n---\n", "d.md"));
}

// Issue 38, finding 3: every frontmatter key and value is cleaned as the
// body is, whatever its depth; a record without secrets keeps its bytes.
TEST(RecordClean, EveryFrontmatterKeyAndValueAndTheBodyLoseTheirSecrets) {
  const std::string gh = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
  const std::string aws = "AKIAIOSFODNN7EXAMPLE";
  const std::string text = "---\n# owner " + gh +
                           "\ncreated_at: 2026-01-02T03:04:05Z\n"
                           "updated_at: 2026-01-02T03:04:05Z\nstatus: open  # " +
                           aws +
                           "\n"
                           "sources:\n- {session_id: \"s " +
                           gh +
                           "\", range: [3, 17]}\n"
                           "owner: alice  # kept\n"
                           "api_key: Zx8kq2LmP0wRt5\n"
                           "note: deploy with " +
                           aws + " <private>home</private>\n" + gh +
                           ": a key that is a secret\n"
                           "nested:\n  deep: [x, {token: \"Ab12Cd34Ef56Gh78\"}, " +
                           gh +
                           "]\n"
                           "---\nbody " +
                           aws + "\n";
  Record r = MustParse(Kind::kDecision, text);
  EXPECT_TRUE(CleanRecord(r));
  const std::string out = RenderRecord(r);
  for (const std::string& secret : {gh.substr(4), aws, std::string("Zx8kq2LmP0wRt5"),
                                    std::string("Ab12Cd34Ef56Gh78"), std::string("home")}) {
    EXPECT_EQ(out.find(secret), std::string::npos) << secret << "\n" << out;
  }
  Record back = MustParse(Kind::kDecision, out);
  EXPECT_TRUE(back.issues.empty()) << out;
  EXPECT_EQ((*back.fields.sources)[0].session_id, "s [REDACTED:github-token]");
  EXPECT_EQ(*back.fields.status, "open");
  EXPECT_EQ(back.preamble, "# owner [REDACTED:github-token]\n");
  EXPECT_EQ(back.body, "body [REDACTED:aws-access-key]\n");
  EXPECT_NE(out.find("owner: alice  # kept\n"), std::string::npos) << out;
  EXPECT_NE(out.find("api_key: \"[REDACTED:assignment]\"\n"), std::string::npos) << out;
  EXPECT_NE(out.find("note: \"deploy with [REDACTED:aws-access-key] \"\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("\"[REDACTED:github-token]\": a key that is a secret\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("nested: {deep: [x, {token: \"[REDACTED:assignment]\"}, "
                     "\"[REDACTED:github-token]\"]}\n"),
            std::string::npos)
      << out;

  // Two keys cleaned alike stay two; a record without secrets keeps its bytes.
  // A key that was all private is named by its rule's marker.
  Record two = MustParse(Kind::kDecision, "---\nstatus: open\n" + gh + ": 1\nx " + gh +
                                              ": 2\n"
                                              "\"[REDACTED:github-token]\": 3\n"
                                              "<private>me</private>: 4\n---\n");
  EXPECT_TRUE(CleanRecord(two));
  Record keys = MustParse(Kind::kDecision, RenderRecord(two));
  EXPECT_TRUE(keys.issues.empty()) << RenderRecord(two);
  ASSERT_EQ(keys.fields.extra.size(), 4u) << RenderRecord(two);
  EXPECT_EQ(keys.fields.extra[0].key, "[REDACTED:github-token]~2");
  EXPECT_EQ(keys.fields.extra[3].key, "[REDACTED:private]");
  for (const auto& c : kCases) {
    Record plain = MustParse(c.kind, c.text);
    EXPECT_FALSE(CleanRecord(plain)) << KindName(c.kind);
    EXPECT_EQ(RenderRecord(plain), c.text);
  }
}

}  // namespace
}  // namespace lore::doc
