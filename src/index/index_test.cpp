#include "lore/index/index.h"
#include "lore/index/sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "support/temp_dir.h"

namespace lore::index {
namespace {

using testing::TempDir;

class IndexTest : public ::testing::Test {
 protected:
  Index Open() {
    auto idx = Index::Open(t_.path());
    EXPECT_TRUE(idx) << idx.error().Format();
    return std::move(*idx);
  }
  std::vector<std::string> Slugs(Index& idx, const std::string& word, Filter f = {}) {
    auto m = idx.Find({Stem(word, Stemming::kSnowballEnglish)}, f);
    EXPECT_TRUE(m) << m.error().Format();
    std::vector<std::string> out;
    for (int64_t id : m->ids) out.push_back(idx.Get(id)->record.slug);
    std::sort(out.begin(), out.end());
    return out;
  }
  void Append(const std::string& rel, const std::string& text) {
    std::ofstream(t_ / rel, std::ios::app | std::ios::binary) << text;
  }
  TempDir t_;
};

TEST_F(IndexTest, IndexesEveryScopeWithFields) {
  t_.Write("raw.jsonl",
           "{\"kind\":\"review\",\"speaker\":\"Ana\",\"session_id\":\"s1\",\"position\":4,"
           "\"recorded_at\":\"2026-01-02T03:04:05Z\",\"text\":\"the parser crashed\"}\n");
  t_.Write("learnings.jsonl",
           "{\"id\":\"L1\",\"type\":\"fragile-file\",\"subject\":\"parser is fragile\"}\n");
  t_.Write("memory/summary.md", "---\nupdated_at: 2026-01-01T00:00:00Z\n---\nThe parser is old.\n");
  t_.Write("memory/decisions/keep-parser.md",
           "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n"
           "sources: [{session_id: s9, range: [1, 2]}]\nstatus: open\n---\nKeep the parser.\n");
  t_.Write("memory/workflow/never.md", "---\ndescription: parser\n---\nparser\n");
  t_.Write("knowledge/parsing.md",
           "---\nkind: howto\ndescription: Parser notes\nmodel_invokation: true\n---\nbody\n");
  t_.Write("okf/gotchas.md",
           "---\ntitle: Parser gotchas\nupdated: 2026-01-01\ntags: [parser]\n---\nx\n");
  Index idx = Open();
  auto st = idx.Update();
  ASSERT_TRUE(st) << st.error().Format();
  EXPECT_EQ(st->files_seen, 6);  // workflow is not indexed
  EXPECT_EQ(Slugs(idx, "parser"), (std::vector<std::string>{"L1", "gotchas", "keep-parser",
                                                            "parsing", "raw.jsonl:1", "summary"}));
  auto m = idx.Find({"crash"}, {});
  ASSERT_EQ(m->size(), 1u);
  auto d = idx.Get(m->ids[0]);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->record.author, "Ana");
  EXPECT_EQ(d->record.session, "s1");
  EXPECT_EQ(d->record.position, 4);
  EXPECT_EQ(*d->record.time, 1767323045);
  EXPECT_EQ(d->record.kind, "review");
  m = idx.Find({"note"}, {});
  ASSERT_EQ(m->size(), 1u);
  d = idx.Get(m->ids[0]);
  EXPECT_EQ(d->record.kind, "howto");
  EXPECT_EQ(*d->record.description, "Parser notes");
  EXPECT_EQ(*d->record.model_invokation, true);
  EXPECT_EQ(
      Slugs(idx, "parser",
            Filter{Scope::kMemory, std::nullopt, Replaced::kHide, std::nullopt, std::nullopt}),
      (std::vector<std::string>{"keep-parser", "summary"}));
}

// A README read in a session: what it says the project is can be found, quoted as the
// file's words; the rest of the file never was kept.
TEST_F(IndexTest, WhatAReadFileSaysTheProjectIsIsFoundQuoted) {
  t_.Write("sessions/s1.jsonl",
           "{\"turn\":\"tool\",\"line\":3,\"tool\":\"Read\",\"id\":\"r1\","
           "\"input\":\"/w/README.md\"}\n"
           "{\"turn\":\"result\",\"line\":4,\"id\":\"r1\",\"status\":\"ok\","
           "\"about\":\"Split shared household expenses.\"}\n"
           "{\"turn\":\"span\",\"session_id\":\"s1\",\"lines\":[1,4]}\n");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "household"), std::vector<std::string>{"sessions/s1.jsonl:2"});
  auto m = idx.Find({Stem("household", Stemming::kSnowballEnglish)}, {});
  ASSERT_EQ(m->size(), 1u);
  EXPECT_EQ(idx.Get(m->ids[0])->record.text,
            "result ok\nthe file says the project is: \"Split shared household expenses.\"");
}

// What a file-writing call defined is found by its name, though what it wrote
// was kept to its start only.
TEST_F(IndexTest, WhatAWriteDefinedIsFound) {
  t_.Write("sessions/s1.jsonl",
           "{\"turn\":\"tool\",\"line\":3,\"tool\":\"Write\",\"id\":\"w1\","
           "\"input\":\"/w/src/ingest.py\",\"change\":\"import httpx\","
           "\"defines\":\"EiaApiError, get_page\"}\n"
           "{\"turn\":\"span\",\"session_id\":\"s1\",\"lines\":[1,3]}\n");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "page"), std::vector<std::string>{"sessions/s1.jsonl:1"});  // get_page
  auto m = idx.Find({Stem("eiaapierror", Stemming::kSnowballEnglish)}, {});
  ASSERT_EQ(m->size(), 1u);
  EXPECT_EQ(idx.Get(m->ids[0])->record.text,
            "Write: /w/src/ingest.py\nwrote:\nimport httpx\ndefines: EiaApiError, get_page");
}

TEST_F(IndexTest, UnparseableFrontmatterIsIndexedWithNullFields) {
  t_.Write("knowledge/broken.md", "---\nkind: [unclosed\n---\nwidget body\n");
  t_.Write("knowledge/nofront.md", "widget without frontmatter\n");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "widget"), (std::vector<std::string>{"broken", "nofront"}));
  auto m = idx.Find({"widget"}, {});
  for (int64_t id : m->ids) {
    auto d = idx.Get(id);
    EXPECT_EQ(d->record.kind, "");
    EXPECT_FALSE(d->record.description);
    EXPECT_FALSE(d->record.model_invokation);
  }
}

TEST_F(IndexTest, IncrementalAppendAddRemove) {
  t_.Write("raw.jsonl", "{\"text\":\"alpha\"}\n");
  t_.Write("memory/decisions/a.md", "---\nstatus: open\n---\nalpha decision\n");
  Index idx = Open();
  auto st = idx.Update();
  EXPECT_EQ(st->records_added, 2);
  st = idx.Update();  // nothing changed (or only re-checked racy files)
  ASSERT_TRUE(st);
  Append("raw.jsonl", "{\"text\":\"beta\"}\n{\"text\":\"partial");  // a partial last line waits
  st = idx.Update();
  ASSERT_TRUE(st);
  EXPECT_EQ(Slugs(idx, "beta"), std::vector<std::string>{"raw.jsonl:2"});
  EXPECT_EQ(Slugs(idx, "partial"), std::vector<std::string>{});
  Append("raw.jsonl", " gamma\"}\n");
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "gamma"), std::vector<std::string>{"raw.jsonl:3"});
  EXPECT_EQ(Slugs(idx, "alpha"), (std::vector<std::string>{"a", "raw.jsonl:1"}));
  std::filesystem::remove(t_ / "memory/decisions/a.md");
  st = idx.Update();
  EXPECT_EQ(st->files_removed, 1);
  EXPECT_EQ(Slugs(idx, "alpha"), std::vector<std::string>{"raw.jsonl:1"});
}

TEST_F(IndexTest, RewrittenLogIsReindexedFromItsStart) {
  t_.Write("raw.jsonl", "{\"text\":\"alpha\"}\n");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  t_.Write("raw.jsonl",
           "{\"text\":\"omega\"}\n{\"text\":\"delta\"}\n");  // same start size, new bytes
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "alpha"), std::vector<std::string>{});
  EXPECT_EQ(Slugs(idx, "omega"), std::vector<std::string>{"raw.jsonl:1"});
}

TEST_F(IndexTest, ReplacedHiddenUnlessIncludedAndKindFilter) {
  t_.Write("memory/decisions/old.md", "---\nstatus: replaced\nreplaced_by: new\n---\ncache plan\n");
  t_.Write("memory/decisions/new.md", "---\nstatus: open\n---\ncache plan\n");
  t_.Write("memory/requests/ask.md", "---\nsources: []\n---\ncache please\n");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "cache"), (std::vector<std::string>{"ask", "new"}));
  EXPECT_EQ(
      Slugs(idx, "cache",
            Filter{std::nullopt, std::nullopt, Replaced::kInclude, std::nullopt, std::nullopt}),
      (std::vector<std::string>{"ask", "new", "old"}));
  EXPECT_EQ(Slugs(idx, "cache",
                  Filter{std::nullopt, std::string("request"), Replaced::kHide, std::nullopt,
                         std::nullopt}),
            std::vector<std::string>{"ask"});
}

TEST_F(IndexTest, RebuildEqualsIncrementalAndDamagedIndexIsRecreated) {
  t_.Write("raw.jsonl", "{\"text\":\"one\"}\n");
  {
    Index idx = Open();
    ASSERT_TRUE(idx.Update());
    Append("raw.jsonl", "{\"text\":\"one two\"}\n");
    ASSERT_TRUE(idx.Update());
    auto a = idx.Find({"one"}, {});
    auto st = idx.Rebuild();
    ASSERT_TRUE(st);
    EXPECT_TRUE(st->rebuilt);
    auto b = idx.Find({"one"}, {});
    ASSERT_EQ(a->size(), b->size());
    EXPECT_EQ(a->tf, b->tf);
    for (size_t i = 0; i < a->size(); ++i) {
      EXPECT_EQ(idx.Get(b->ids[i])->length, i == 0 ? 1 : 2);
    }
  }
  for (const char* s : {"-wal", "-shm"})
    std::filesystem::remove(t_ / (std::string("index.sqlite") + s));
  t_.Write("index.sqlite", "this is not a database at all, not even close to one.....");
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(Slugs(idx, "two"), std::vector<std::string>{"raw.jsonl:2"});
}

TEST_F(IndexTest, InMemoryIndexWritesNothingToTheStore) {
  t_.Write("raw.jsonl", "{\"kind\":\"review\",\"text\":\"zebra crossing\"}\n");
  auto idx = Index::OpenInMemory(t_.path());
  ASSERT_TRUE(idx) << idx.error().Format();
  EXPECT_EQ(Slugs(*idx, "zebra"), std::vector<std::string>{"raw.jsonl:1"});
  EXPECT_FALSE(std::filesystem::exists(t_ / kIndexFile));
}

TEST_F(IndexTest, OpenExistingNeedsAnIndexAndLeavesItAsItIs) {
  EXPECT_FALSE(Index::OpenExisting(t_.path()));
  EXPECT_FALSE(std::filesystem::exists(t_ / kIndexFile));
  t_.Write("raw.jsonl", "{\"kind\":\"review\",\"text\":\"zebra crossing\"}\n");
  {
    Index idx = Open();
    ASSERT_TRUE(idx.Update());
  }
  Append("raw.jsonl", "{\"kind\":\"review\",\"text\":\"giraffe\"}\n");
  auto idx = Index::OpenExisting(t_.path());
  ASSERT_TRUE(idx) << idx.error().Format();
  EXPECT_EQ(Slugs(*idx, "zebra"), std::vector<std::string>{"raw.jsonl:1"});
  EXPECT_TRUE(Slugs(*idx, "giraffe").empty());  // not updated by opening
}

// The df table the update keeps holds, for every token and column, the
// number of records FTS5 itself finds the token in (its fts5vocab view
// counts them from the posting lists): after adds, appends, a rewritten log,
// changed and removed files and a rebuild, the two agree exactly.
TEST_F(IndexTest, DocumentCountsAgreeWithFts5AfterEveryKindOfUpdate) {
  const std::vector<std::string> words = {"alpha", "Beta",  "gamma_delta", "café", "naïve",
                                          "x86",   "HTTP2", "it's",        "a-b",  "zeta"};
  uint32_t seed = 27;
  auto next = [&seed](uint32_t n) {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) % n;
  };
  auto text = [&](int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += (i ? " " : "") + words[next(words.size())];
    return out;
  };
  auto line = [&]() {
    return "{\"author\":\"" + words[next(words.size())] + " " + words[next(words.size())] +
           "\",\"text\":\"" + text(6) + "\"}\n";
  };
  auto agree = [&](Index& idx, const char* when) {
    auto db = Db::Open(t_ / kIndexFile, /*create=*/false);
    ASSERT_TRUE(db) << db.error().Format();
    std::map<std::string, std::array<int64_t, 2>> vocab, kept;
    auto st = db->Prepare("SELECT term, col, doc FROM fts_terms WHERE col != 'tags'");
    ASSERT_TRUE(st);
    while (*st->Step()) vocab[std::string(st->Text(0))][st->Text(1) == "author"] = st->Int(2);
    auto df = db->Prepare("SELECT term, words, author FROM df");
    ASSERT_TRUE(df);
    while (*df->Step()) kept[std::string(df->Text(0))] = {df->Int(1), df->Int(2)};
    EXPECT_FALSE(vocab.empty()) << when;
    EXPECT_EQ(kept, vocab) << when;
    for (const auto& [term, n] : vocab) {
      auto ts = idx.Stats(term);
      ASSERT_TRUE(ts) << ts.error().Format();
      EXPECT_EQ(ts->docs, n[0]) << term << " " << when;
      EXPECT_EQ(ts->author_docs, n[1]) << term << " " << when;
    }
    EXPECT_EQ(idx.Stats("absent")->docs, 0);
  };
  std::string log;
  for (int i = 0; i < 20; ++i) log += line();
  t_.Write("raw.jsonl", log);
  for (int i = 0; i < 6; ++i) {
    t_.Write("memory/decisions/d" + std::to_string(i) + ".md",
             "---\nstatus: open\n---\n" + text(12) + "\n");
  }
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  agree(idx, "built");
  for (int i = 0; i < 5; ++i) Append("raw.jsonl", line());
  t_.Write("memory/decisions/d2.md", "---\nstatus: open\n---\n" + text(12) + "\n");
  std::filesystem::remove(t_ / "memory/decisions/d4.md");
  ASSERT_TRUE(idx.Update());
  agree(idx, "appended, changed, removed");
  log.clear();
  for (int i = 0; i < 8; ++i) log += line();
  t_.Write("raw.jsonl", log);  // rewritten: read again from its start
  for (int i = 0; i < 6; ++i)
    std::filesystem::remove(t_ / ("memory/decisions/d" + std::to_string(i) + ".md"));
  t_.Write("memory/decisions/only.md", "---\nstatus: open\n---\nzeta\n");
  ASSERT_TRUE(idx.Update());
  agree(idx, "rewritten");
  ASSERT_TRUE(idx.Rebuild());
  agree(idx, "rebuilt");
}

TEST(IsWriteFailure, PermissionAndIoButNotCorruptOrBusy) {
  EXPECT_TRUE(IsWriteFailure(Error{ErrorCode::kPermission, "x", "", 0, ""}));
  EXPECT_TRUE(IsWriteFailure(Error{ErrorCode::kIo, "x", "", 0, ""}));
  EXPECT_FALSE(IsWriteFailure(Error{ErrorCode::kCorrupt, "x", "", 0, ""}));
  EXPECT_FALSE(IsWriteFailure(Error{ErrorCode::kBusy, "x", "", 0, ""}));
  EXPECT_FALSE(IsWriteFailure(Error{ErrorCode::kSymlink, "x", "", 0, ""}));
}

}  // namespace
}  // namespace lore::index

namespace lore::index {
namespace {

TEST_F(IndexTest, LearnedStatisticsLastUntilTheRecordsChange) {
  t_.Write("raw.jsonl", "{\"text\":\"first\"}\n");
  // Older than the time stamps' granularity, so that it is not looked at again.
  std::filesystem::last_write_time(
      t_ / "raw.jsonl", std::filesystem::file_time_type::clock::now() - std::chrono::seconds(10));
  Index idx = Open();
  ASSERT_TRUE(idx.Update());
  auto g = idx.Generation();
  ASSERT_TRUE(g) << g.error().Format();
  ASSERT_TRUE(idx.StoreLearned(*g, {{"k", "v"}}));
  auto v = idx.Learned("k");
  ASSERT_TRUE(v) << v.error().Format();
  EXPECT_EQ(v->value_or(""), "v");
  EXPECT_FALSE(idx.Learned("other")->has_value());
  // An update that changes nothing keeps it.
  ASSERT_TRUE(idx.Update());
  EXPECT_EQ(*idx.Generation(), *g);
  EXPECT_TRUE(idx.Learned("k")->has_value());
  // New records: a new generation, and what was learned before is gone.
  Append("raw.jsonl", "{\"text\":\"second\"}\n");
  ASSERT_TRUE(idx.Update());
  auto g2 = idx.Generation();
  ASSERT_TRUE(g2);
  EXPECT_NE(*g2, *g);
  EXPECT_FALSE(idx.Learned("k")->has_value());
  // What was learned from the old records is not stored under the new ones.
  ASSERT_TRUE(idx.StoreLearned(*g, {{"k", "stale"}}));
  EXPECT_FALSE(idx.Learned("k")->has_value());
  ASSERT_TRUE(idx.StoreLearned(*g2, {{"k", "v2"}}));
  EXPECT_EQ(idx.Learned("k")->value_or(""), "v2");
  // A rebuild is a change too.
  ASSERT_TRUE(idx.Rebuild());
  EXPECT_FALSE(idx.Learned("k")->has_value());
}

TEST(DbTest, SQLiteKeepsNoMemoryStatistics) {
  // Each of SQLite's allocations would take the statistics' mutex: a
  // prompt's search makes thousands (Db::Open turns them off first).
  auto db = Db::Open(":memory:", /*create=*/false);
  ASSERT_TRUE(db) << db.error().Format();
  ASSERT_TRUE(db->Exec("CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(100000));"));
  EXPECT_EQ(sqlite3_memory_used(), 0);
}

}  // namespace
}  // namespace lore::index
