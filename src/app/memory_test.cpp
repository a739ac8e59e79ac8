#include "lore/app/memory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "lore/app/recall.h"
#include "lore/fs/fd.h"
#include "support/app_store.h"

namespace lore::app {
namespace {

constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources:\n- {session_id: s1, range: [3, 17]}\n---\nWe use **SQLite**.\n";

class AppMemoryTest : public testing::RemoteStoreTest {};

TEST_F(AppMemoryTest, AWriteMakesTheStoreThenTheRecord) {
  RecordChange w = WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision);
  EXPECT_TRUE(w.warnings.empty());
  ASSERT_TRUE(w.outcome) << w.outcome.error().Format();
  EXPECT_TRUE(w.outcome->ok());
  EXPECT_TRUE(w.outcome->written);
  EXPECT_EQ(w.outcome->path, store_->Path("memory/decisions/use-sqlite.md"));
  auto text = ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite");
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_EQ(*text, kDecision);
  // A second write of the slug is the linter's refusal, not an Error.
  RecordChange again = WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision);
  ASSERT_TRUE(again.outcome) << again.outcome.error().Format();
  EXPECT_FALSE(again.outcome->ok());
  EXPECT_FALSE(again.outcome->written);
}

TEST_F(AppMemoryTest, AChangeOfAStoreNotMadeIsTheRecordsNoSuch) {
  bool asked = false;
  RecordChange e = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite", [&] {
    asked = true;
    return Result<std::string>(kDecision);
  });
  ASSERT_FALSE(e.outcome);
  EXPECT_EQ(e.outcome.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(asked);  // the text (standard input) is not read for nothing
  RecordChange r =
      ReplaceRecord(*store_, doc::Kind::kDecision, "use-sqlite", "other", text::TimePoint{});
  ASSERT_FALSE(r.outcome);
  EXPECT_EQ(r.outcome.error().code, ErrorCode::kNotFound);
  EXPECT_FALSE(fs::Exists(store_->dir()));
}

TEST_F(AppMemoryTest, EditsChangeTheRecord) {
  ASSERT_TRUE(WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision).outcome);
  std::string edited = kDecision;
  edited.replace(edited.find("**SQLite**"), 10, "SQLite, with WAL");
  RecordChange e = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite",
                                  [&] { return Result<std::string>(edited); });
  ASSERT_TRUE(e.outcome) << e.outcome.error().Format();
  EXPECT_TRUE(e.outcome->written);
  EXPECT_EQ(*ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite"), edited);
  RecordChange c = EditRecord(*store_, doc::Kind::kDecision, "use-sqlite", [](doc::Record& r) {
    r.body = "We use SQLite.\n";
    return Ok();
  });
  ASSERT_TRUE(c.outcome) << c.outcome.error().Format();
  EXPECT_TRUE(c.outcome->written);
  EXPECT_NE(ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite")->find("We use SQLite.\n"),
            std::string::npos);
  // Text that cannot be had is the change's Error.
  RecordChange none = EditRecordText(*store_, doc::Kind::kDecision, "use-sqlite", [] {
    return Result<std::string>(Fail(ErrorCode::kInvalidInput, "no record on standard input"));
  });
  ASSERT_FALSE(none.outcome);
  EXPECT_EQ(none.outcome.error().what, "no record on standard input");
}

TEST(AppRecordNameTest, TheKindIsNamedAndTheSummaryNeedsNoSlug) {
  auto d = NameRecord("decisions", "use-sqlite");
  ASSERT_TRUE(d) << d.error().Format();
  EXPECT_EQ(d->kind, doc::Kind::kDecision);
  EXPECT_EQ(d->slug, "use-sqlite");
  auto s = NameRecord("summary", "");
  ASSERT_TRUE(s) << s.error().Format();
  EXPECT_EQ(s->kind, doc::Kind::kSummary);
  EXPECT_EQ(s->slug, "summary");
  auto bad = NameRecord("note", "x");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().what,
            "unknown kind 'note'; use summary, decision, request, knowledge or workflow");
  auto slugless = NameRecord("request", "");
  ASSERT_FALSE(slugless);
  EXPECT_EQ(slugless.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(slugless.error().what,
            "a request needs a slug: lore memory <verb> <repo> request <slug>");
}

const text::TimePoint kEditTime = std::chrono::sys_days{std::chrono::year{2026} / 3 / 4} +
                                  std::chrono::hours{5} + std::chrono::minutes{6} +
                                  std::chrono::seconds{7};

TEST(AppRecordEditsTest, ARecordIsBuiltFromItsFieldsSourcesAndBody) {
  RecordEdits e;
  EXPECT_FALSE(e.Any());
  e.no_touch = true;
  EXPECT_FALSE(e.Any()) << "no_touch alone changes nothing";
  e.set = {"status=resolved", "title=Use: WAL"};
  e.source = {"s1:3-17", "a:b:9"};
  e.body = "We use SQLite.\n";
  e.append = "With WAL.";
  EXPECT_TRUE(e.Any());
  auto text = RecordTextFrom(doc::Kind::kDecision, e, kEditTime);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_NE(text->find("created_at: 2026-03-04T05:06:07Z"), std::string::npos) << *text;
  EXPECT_NE(text->find("status: resolved"), std::string::npos) << *text;
  EXPECT_NE(text->find("title: \"Use: WAL\""), std::string::npos) << *text;
  EXPECT_NE(text->find("  - session_id: s1\n    range: [3, 17]\n  - session_id: a:b\n"
                       "    range: [9, 9]\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("---\nWe use SQLite.\n\nWith WAL.\n"), std::string::npos) << *text;
}

TEST(AppRecordEditsTest, AnEditThatCannotBeMadeNamesItsFlag) {
  RecordEdits set;
  set.set = {"status"};
  auto s = RecordTextFrom(doc::Kind::kDecision, set, kEditTime);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().what, "bad --set 'status'");
  set.set = {"sources=[1]"};
  s = RecordTextFrom(doc::Kind::kDecision, set, kEditTime);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().what.rfind("invalid --set sources=[1] (", 0), 0u) << s.error().what;
  RecordEdits source;
  source.source = {"s1:9-3"};
  s = RecordTextFrom(doc::Kind::kDecision, source, kEditTime);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().what, "bad range in --source 's1:9-3'");
  source.source = {"s1:3-4"};
  s = RecordTextFrom(doc::Kind::kSummary, source, kEditTime);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().what, "--source applies to decisions, requests and knowledge only");
}

TEST(AppRecordEditsTest, TheBodyIsReadFromItsFileOrStandardInput) {
  testing::TempDir t;
  std::ofstream(t / "body.md") << "From a file.\n";
  RecordEdits e;
  e.body_file = t / "body.md";
  auto text = RecordTextFrom(doc::Kind::kRequest, e, kEditTime);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_NE(text->find("---\nFrom a file.\n"), std::string::npos) << *text;
  int reads = 0;
  e.body_file = "-";
  e.read_stdin = [&] {
    ++reads;
    return Result<std::string>("From stdin.\n");
  };
  text = RecordTextFrom(doc::Kind::kRequest, e, kEditTime);
  ASSERT_TRUE(text) << text.error().Format();
  EXPECT_NE(text->find("---\nFrom stdin.\n"), std::string::npos) << *text;
  EXPECT_EQ(reads, 1);
  e.set = {"bogus"};  // a bad --set is reported before standard input is read
  EXPECT_FALSE(RecordTextFrom(doc::Kind::kRequest, e, kEditTime));
  EXPECT_EQ(reads, 1);
  e.set.clear();
  e.body_file = t / "missing.md";
  EXPECT_FALSE(RecordTextFrom(doc::Kind::kRequest, e, kEditTime));
}

TEST_F(AppMemoryTest, AFindingAboutASetFieldNamesTheFlag) {
  RecordEdits e;
  // A build that fails writes nothing, not even the store.
  e.set = {"bogus"};
  RecordChange bad = WriteRecordFrom(*store_, doc::Kind::kDecision, "use-sqlite", e, kEditTime);
  ASSERT_FALSE(bad.outcome);
  EXPECT_EQ(bad.outcome.error().what, "bad --set 'bogus'");
  EXPECT_FALSE(fs::Exists(store_->dir()));
  e.set = {"status=open", "status=closed"};
  RecordChange w = WriteRecordFrom(*store_, doc::Kind::kDecision, "use-sqlite", e, kEditTime);
  ASSERT_TRUE(w.outcome) << w.outcome.error().Format();
  EXPECT_FALSE(w.outcome->ok());
  EXPECT_FALSE(w.outcome->written);
  ASSERT_FALSE(w.outcome->report.findings.empty());
  const lint::Finding& f = w.outcome->report.findings.front();
  EXPECT_EQ(f.field, "status");
  EXPECT_EQ(f.path, "--set status=closed") << "the last --set of a key";
  EXPECT_EQ(f.line, 0);
  EXPECT_FALSE(fs::Exists(store_->Path("memory/decisions/use-sqlite.md")));
}

TEST_F(AppMemoryTest, AnEditWithFieldsTouchesUpdatedAtUnlessTold) {
  ASSERT_TRUE(WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision).outcome);
  RecordEdits e;
  e.set = {"status=resolved", "ticket.id=T-1"};
  e.append = "Resolved.";
  RecordChange c = EditRecordWith(*store_, doc::Kind::kDecision, "use-sqlite", e, kEditTime);
  ASSERT_TRUE(c.outcome) << c.outcome.error().Format();
  EXPECT_TRUE(c.outcome->ok());
  EXPECT_TRUE(c.outcome->written);
  std::string text = *ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite");
  EXPECT_NE(text.find("updated_at: 2026-03-04T05:06:07Z"), std::string::npos) << text;
  EXPECT_NE(text.find("status: resolved"), std::string::npos) << text;
  EXPECT_NE(text.find("ticket.id: T-1"), std::string::npos) << text;
  EXPECT_NE(text.find("We use **SQLite**.\n\nResolved.\n"), std::string::npos) << text;
  RecordEdits kept;
  kept.set = {"status=open"};
  kept.unset = {"ticket.id"};
  kept.no_touch = true;
  c = EditRecordWith(*store_, doc::Kind::kDecision, "use-sqlite", kept,
                     kEditTime + std::chrono::hours{24});
  ASSERT_TRUE(c.outcome) << c.outcome.error().Format();
  text = *ReadRecord(*store_, doc::Kind::kDecision, "use-sqlite");
  EXPECT_NE(text.find("updated_at: 2026-03-04T05:06:07Z"), std::string::npos) << text;
  EXPECT_NE(text.find("status: open"), std::string::npos) << text;
  EXPECT_EQ(text.find("ticket.id"), std::string::npos) << text;
  // A field's value found wrong by the linter names its --set.
  RecordEdits wrong;
  wrong.set = {"status=closed"};
  c = EditRecordWith(*store_, doc::Kind::kDecision, "use-sqlite", wrong, kEditTime);
  ASSERT_TRUE(c.outcome) << c.outcome.error().Format();
  EXPECT_FALSE(c.outcome->ok());
  ASSERT_FALSE(c.outcome->report.findings.empty());
  EXPECT_EQ(c.outcome->report.findings.front().path, "--set status=closed");
}

TEST_F(AppMemoryTest, ARecordNamedAsAnAgentNamesItIsReadAndCountedAsOpened) {
  ASSERT_TRUE(WriteRecord(*store_, doc::Kind::kDecision, "use-sqlite", kDecision).outcome);
  const text::TimePoint now = std::chrono::system_clock::now();
  // A plural kind names the same records; the answer gives the kind's own name.
  auto r = ReadNamedRecord(*store_, "decisions", "use-sqlite", "mcp", now);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->status, NamedRecord::Status::kRead);
  EXPECT_EQ(r->kind, "decision");
  EXPECT_EQ(r->slug, "use-sqlite");
  EXPECT_EQ(r->path, store_->Path("memory/decisions/use-sqlite.md"));
  EXPECT_EQ(r->text, kDecision);
  auto usage = Usage(*store_);
  ASSERT_TRUE(usage) << usage.error().Format();
  EXPECT_EQ(usage->opened, 1);
  ASSERT_EQ(usage->items.size(), 1u);
  EXPECT_EQ(usage->items[0].id, "memory/decisions/use-sqlite.md");

  // A missing record is the read's error, and nothing is counted.
  auto missing = ReadNamedRecord(*store_, "decision", "no-such", "mcp", now);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(Usage(*store_)->opened, 1);
}

TEST_F(AppMemoryTest, ANamedRecordNeedsAKnownKindAndASlugButTheSummary) {
  const text::TimePoint now = std::chrono::system_clock::now();
  auto unknown = ReadNamedRecord(*store_, "diary", "x", "mcp", now);
  ASSERT_TRUE(unknown) << unknown.error().Format();
  EXPECT_EQ(unknown->status, NamedRecord::Status::kUnknownKind);
  auto no_slug = ReadNamedRecord(*store_, "request", "", "mcp", now);
  ASSERT_TRUE(no_slug) << no_slug.error().Format();
  EXPECT_EQ(no_slug->status, NamedRecord::Status::kNoSlug);
  EXPECT_FALSE(fs::Exists(store_->dir()));  // neither looked at the store

  // The summary has its own slug: the one given is not read.
  ASSERT_TRUE(store_->Ensure(now, store::RawCheck::kSkip));
  const std::string summary = "---\nupdated_at: 2026-01-02T03:04:05Z\n---\nAll of it.\n";
  std::filesystem::create_directories(store_->Path("memory"));
  std::ofstream(store_->Path("memory/summary.md")) << summary;
  auto s = ReadNamedRecord(*store_, "summary", "ignored", "mcp", now);
  ASSERT_TRUE(s) << s.error().Format();
  EXPECT_EQ(s->status, NamedRecord::Status::kRead);
  EXPECT_EQ(s->kind, "summary");
  EXPECT_EQ(s->slug, "summary");
  EXPECT_EQ(s->text, summary);
}

}  // namespace
}  // namespace lore::app
