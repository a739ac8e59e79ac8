#include "lore/memory/records.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <filesystem>
#include <thread>

#include "lore/fs/fd.h"
#include "support/temp_dir.h"

namespace lore::memory {
namespace {

using doc::Kind;
using testing::TempDir;
namespace stdfs = std::filesystem;

constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources:\n- {session_id: s1, range: [3, 17]}\nowner: alice # kept\n---\n"
    "We use **SQLite**.\n\n  - indented list\n";

std::string Decision(std::string_view status = "open") {
  std::string t = kDecision;
  t.replace(t.find("status: open"), 12, "status: " + std::string(status));
  return t;
}

// Every path under `root` with its bytes (directories as "<dir>").
std::map<std::string, std::string> Snapshot(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : stdfs::recursive_directory_iterator(root)) {
    std::string rel = stdfs::relative(e.path(), root).string();
    if (e.is_directory()) {
      out[rel] = "<dir>";
    } else {
      auto text = fs::ReadFile(e.path().string(), fs::Kind::kRecord);
      out[rel] = text ? *text : "<unreadable>";
    }
  }
  return out;
}

mode_t Mode(const std::string& path) {
  struct stat st;
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

class RecordsTest : public ::testing::Test {
 protected:
  std::string root() const { return t_.path(); }
  TempDir t_;
};

TEST_F(RecordsTest, WriteCreatesTheExactBytesAtomically) {
  auto out = Write(root(), Kind::kDecision, "use-sqlite", kDecision);
  ASSERT_TRUE(out) << out.error().Format();
  EXPECT_TRUE(out->ok());
  EXPECT_TRUE(out->written);
  EXPECT_EQ(out->path, root() + "/memory/decisions/use-sqlite.md");
  EXPECT_EQ(t_.Read("memory/decisions/use-sqlite.md"), kDecision);
  EXPECT_EQ(Mode(out->path), 0600u);
  EXPECT_EQ(Mode(root() + "/memory"), 0700u);
  EXPECT_EQ(Mode(root() + "/memory/decisions"), 0700u);
  auto text = ReadText(root(), Kind::kDecision, "use-sqlite");
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, kDecision);
  auto rec = Read(root(), Kind::kDecision, "use-sqlite");
  ASSERT_TRUE(rec);
  EXPECT_EQ(doc::RenderRecord(*rec), kDecision);
}

// Issue 38, finding 3: the frontmatter's secrets are cleaned like the
// body's, by every writer: Write (a record on stdin, --set, --source),
// EditText (the page's edit form) and Edit (memory edit --set).
TEST_F(RecordsTest, EveryWriterCleansTheFrontmatterAsTheBody) {
  const std::string gh = "ghp_1234567890abcdefghijABCDEFGHIJ123456";
  std::string text = kDecision;
  text.replace(text.find("owner: alice"), 12, "owner: " + gh);
  auto out = Write(root(), Kind::kDecision, "keys", text + gh + "\n");
  ASSERT_TRUE(out) << out.error().Format();
  ASSERT_TRUE(out->written) << (out->report.findings.empty() ? ""
                                                             : out->report.findings[0].Format());
  const std::string stored = t_.Read("memory/decisions/keys.md");
  EXPECT_EQ(stored.find(gh.substr(4)), std::string::npos) << stored;
  EXPECT_NE(stored.find("owner: \"[REDACTED:github-token]\""), std::string::npos) << stored;

  ASSERT_TRUE(EditText(root(), Kind::kDecision, "keys",
                       "---\ndescription_x: " + gh + "\n" + std::string(kDecision).substr(4)));
  EXPECT_EQ(t_.Read("memory/decisions/keys.md").find(gh.substr(4)), std::string::npos);
  auto edited = Edit(root(), Kind::kDecision, "keys",
                     [&](doc::Record& r) { return doc::SetFieldText(r, "owner", "bob " + gh); });
  ASSERT_TRUE(edited && edited->written);
  EXPECT_EQ(t_.Read("memory/decisions/keys.md").find(gh.substr(4)), std::string::npos);
  EXPECT_NE(t_.Read("memory/decisions/keys.md").find("owner: \"bob [REDACTED:github-token]\""),
            std::string::npos)
      << t_.Read("memory/decisions/keys.md");
}

TEST_F(RecordsTest, EveryKindLivesAtItsPath) {
  const std::string times = "created_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n";
  ASSERT_TRUE(
      Write(root(), Kind::kSummary, "summary", "---\nupdated_at: 2026-01-02T03:04:05Z\n---\nS\n"));
  ASSERT_TRUE(Write(root(), Kind::kRequest, "fast", "---\n" + times + "sources: []\n---\nR\n"));
  ASSERT_TRUE(Write(root(), Kind::kKnowledge, "k",
                    "---\n" + times + "kind: rule\ndescription: d\nlast_sources: []\n---\nK\n"));
  EXPECT_EQ(t_.Read("memory/summary.md"), "---\nupdated_at: 2026-01-02T03:04:05Z\n---\nS\n");
  EXPECT_EQ(t_.Read("memory/requests/fast.md").back(), '\n');
  EXPECT_NE(t_.Read("knowledge/k.md").find("kind: rule"), std::string::npos);
}

TEST_F(RecordsTest, LinterErrorsChangeNothing) {
  auto before = Snapshot(root());
  auto out = Write(root(), Kind::kDecision, "x", "---\nstatus: closed\n---\nb\n");
  ASSERT_TRUE(out);
  EXPECT_FALSE(out->ok());
  EXPECT_FALSE(out->written);
  EXPECT_GE(out->report.Errors(), 4u);
  EXPECT_EQ(Snapshot(root()), before);
}

TEST_F(RecordsTest, CreatingAnExistingSlugIsRefused) {
  ASSERT_TRUE(Write(root(), Kind::kDecision, "use-sqlite", kDecision));
  auto out = Write(root(), Kind::kDecision, "use-sqlite", Decision("resolved"));
  ASSERT_TRUE(out);
  ASSERT_EQ(out->report.findings.size(), 1u);
  EXPECT_EQ(out->report.findings[0].rule, "slug-exists");
  EXPECT_EQ(t_.Read("memory/decisions/use-sqlite.md"), kDecision);
}

TEST_F(RecordsTest, WorkflowWritesAreRefusedAndChangeNothing) {
  t_.Write("memory/workflow/release.md",
           "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: d\n---\nsteps\n");
  auto before = Snapshot(root());
  std::string text = "---\nupdated_at: 2026-01-02T03:04:05Z\ndescription: e\n---\nnew\n";
  auto w = Write(root(), Kind::kWorkflow, "other", text);
  ASSERT_TRUE(w);
  EXPECT_EQ(w->report.findings.at(0).rule, "workflow-write");
  auto e = EditText(root(), Kind::kWorkflow, "release", text);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->report.findings.at(0).rule, "workflow-write");
  auto c = Edit(root(), Kind::kWorkflow, "release", [](doc::Record& r) {
    r.body = "changed\n";
    return Ok();
  });
  ASSERT_TRUE(c);
  EXPECT_EQ(c->report.findings.at(0).rule, "workflow-write");
  auto r = Replace(root(), Kind::kWorkflow, "release", "other", std::chrono::system_clock::now());
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->ok());
  EXPECT_EQ(Snapshot(root()), before);
}

TEST_F(RecordsTest, SlugsCannotLeaveTheirFolder) {
  auto before = Snapshot(root());
  for (const char* slug : {"../escape", "a/b", "..", "UP"}) {
    auto out = Write(root(), Kind::kDecision, slug, kDecision);
    ASSERT_TRUE(out);
    EXPECT_EQ(out->report.findings.at(0).rule, "bad-slug") << slug;
    EXPECT_FALSE(ReadText(root(), Kind::kDecision, slug));
  }
  EXPECT_FALSE(Write(root(), Kind::kSummary, "other", "---\n---\n")->ok());
  EXPECT_EQ(Snapshot(root()), before);
}

TEST_F(RecordsTest, EditTextNeedsAnExistingRecord) {
  auto out = EditText(root(), Kind::kDecision, "missing", kDecision);
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(out.error().path, root() + "/memory/decisions/missing.md");
  ASSERT_TRUE(Write(root(), Kind::kDecision, "d", kDecision));
  auto edited = EditText(root(), Kind::kDecision, "d", Decision("resolved"));
  ASSERT_TRUE(edited);
  EXPECT_TRUE(edited->written);
  EXPECT_EQ(t_.Read("memory/decisions/d.md"), Decision("resolved"));
  auto same = EditText(root(), Kind::kDecision, "d", Decision("resolved"));
  ASSERT_TRUE(same);
  EXPECT_TRUE(same->ok());
  EXPECT_FALSE(same->written);
}

TEST_F(RecordsTest, EditChangesOnlyWhatTheChangeTouches) {
  ASSERT_TRUE(Write(root(), Kind::kDecision, "d", kDecision));
  auto body = Edit(root(), Kind::kDecision, "d", [](doc::Record& r) {
    r.body += "More.\n";
    return Ok();
  });
  ASSERT_TRUE(body);
  EXPECT_EQ(t_.Read("memory/decisions/d.md"), std::string(kDecision) + "More.\n");
  auto field = Edit(root(), Kind::kDecision, "d",
                    [](doc::Record& r) { return doc::SetFieldText(r, "status", "resolved"); });
  ASSERT_TRUE(field);
  EXPECT_EQ(t_.Read("memory/decisions/d.md"),
            "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: "
            "resolved\nsources:\n  - session_id: s1\n    range: [3, 17]\nowner: alice # kept\n---\n"
            "We use **SQLite**.\n\n  - indented list\nMore.\n");
  auto failed = Edit(root(), Kind::kDecision, "d",
                     [](doc::Record&) -> Status { return Fail(ErrorCode::kInvalidInput, "no"); });
  EXPECT_FALSE(failed);
}

TEST_F(RecordsTest, EditOfAnUnparseableRecordNamesTheLine) {
  t_.Write("memory/decisions/bad.md", "---\nstatus: [open\n---\n");
  auto out = Edit(root(), Kind::kDecision, "bad", [](doc::Record&) { return Ok(); });
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error().code, ErrorCode::kCorrupt);
  EXPECT_EQ(out.error().line, 2);
}

TEST_F(RecordsTest, ReplaceMarksTheRecordAndChecksTheTarget) {
  auto now = *text::ParseIso("2026-05-06T07:08:09Z");
  ASSERT_TRUE(Write(root(), Kind::kDecision, "old-way", kDecision));
  auto missing = Replace(root(), Kind::kDecision, "old-way", "new-way", now);
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->report.findings.at(0).rule, "missing-reference");
  EXPECT_EQ(t_.Read("memory/decisions/old-way.md"), kDecision);
  ASSERT_TRUE(Write(root(), Kind::kDecision, "new-way", kDecision));
  auto done = Replace(root(), Kind::kDecision, "old-way", "new-way", now);
  ASSERT_TRUE(done);
  EXPECT_TRUE(done->ok());
  auto rec = Read(root(), Kind::kDecision, "old-way");
  ASSERT_TRUE(rec);
  EXPECT_EQ(rec->fields.status, "replaced");
  EXPECT_EQ(rec->fields.replaced_by, "new-way");
  EXPECT_EQ(rec->fields.updated_at, "2026-05-06T07:08:09Z");
  // new-way replaced by old-way would close a loop.
  auto cycle = Replace(root(), Kind::kDecision, "new-way", "old-way", now);
  ASSERT_TRUE(cycle);
  EXPECT_EQ(cycle->report.findings.at(0).rule, "replaced-by-cycle");
  EXPECT_EQ(t_.Read("memory/decisions/new-way.md"), kDecision);
  EXPECT_FALSE(Replace(root(), Kind::kSummary, "summary", "x", now));
}

TEST_F(RecordsTest, SymlinksAreRefused) {
  t_.Write("elsewhere.md", kDecision);
  stdfs::create_directories(root() + "/memory/decisions");
  ASSERT_EQ(
      ::symlink((root() + "/elsewhere.md").c_str(), (root() + "/memory/decisions/link.md").c_str()),
      0);
  auto read = ReadText(root(), Kind::kDecision, "link");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code, ErrorCode::kSymlink);
  auto edit = EditText(root(), Kind::kDecision, "link", kDecision);
  EXPECT_FALSE(edit);
  stdfs::create_directories(root() + "/real");
  ASSERT_EQ(::symlink((root() + "/real").c_str(), (root() + "/knowledge").c_str()), 0);
  auto w = Write(root(), Kind::kKnowledge, "k", kDecision);
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error().code, ErrorCode::kSymlink);
  EXPECT_TRUE(stdfs::is_empty(root() + "/real"));
}

TEST_F(RecordsTest, ConcurrentEditsLoseNothing) {
  ASSERT_TRUE(Write(root(), Kind::kDecision, "d", kDecision));
  auto append = [&](char tag) {
    for (int i = 0; i < 40; ++i) {
      auto out = Edit(root(), Kind::kDecision, "d", [&](doc::Record& r) {
        r.body += std::string(1, tag) + std::to_string(i) + "\n";
        return Ok();
      });
      ASSERT_TRUE(out && out->written);
    }
  };
  std::thread a(append, 'a'), b(append, 'b');
  a.join();
  b.join();
  std::string body = t_.Read("memory/decisions/d.md");
  EXPECT_EQ(std::count(body.begin(), body.end(), '\n'), 8 + 3 + 80);
  EXPECT_NE(body.find("\na39\n"), std::string::npos);
  EXPECT_NE(body.find("\nb39\n"), std::string::npos);
}

TEST_F(RecordsTest, ASecondRootIsIndependent) {
  TempDir shadow;
  ASSERT_TRUE(Write(root(), Kind::kDecision, "d", kDecision));
  stdfs::copy(root(), shadow.path(), stdfs::copy_options::recursive);
  ASSERT_TRUE(Edit(shadow.path(), Kind::kDecision, "d", [](doc::Record& r) {
    r.body = "shadow\n";
    return Ok();
  }));
  EXPECT_EQ(t_.Read("memory/decisions/d.md"), kDecision);
  EXPECT_NE(shadow.Read("memory/decisions/d.md"), kDecision);
}

}  // namespace
}  // namespace lore::memory
