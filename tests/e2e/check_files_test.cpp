// `lore check` reads every file kind of a store with its own module's reader
// (issue 38: it said "ok" for everything but raw.jsonl), one line per problem
// naming the file, the line and the repair; `lore check --repair` repairs what
// it can without losing a line (torn log tails and unreadable cursors into
// quarantine/, a damaged search index deleted) and leaves the rest, saying so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

constexpr const char* kRepo = "https://example.com/acme/app";
constexpr const char* kKey = "example.com_acme_app";
constexpr const char* kTorn =
    "torn last line (an append was cut off: no newline, not a whole JSON "
    "object): ";

size_t Lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

class CheckFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0); }
  RunOptions Opts() const { return IsolatedOptions(t_.path(), "stores"); }
  std::string Rel(const std::string& rel) const {
    return "stores/" + std::string(kKey) + "/" + rel;
  }
  std::string Path(const std::string& rel) const { return t_ / Rel(rel); }
  void Write(const std::string& rel, const std::string& text) const { t_.Write(Rel(rel), text); }
  std::string Read(const std::string& rel) const { return t_.Read(Rel(rel)); }
  RunResult Check(bool repair = false) const {
    std::vector<std::string> args{"check", kRepo};
    if (repair) args.push_back("--repair");
    return Lore(args, Opts());
  }
  // `lore check` fails with exactly `line` on stderr.
  void ExpectOnly(const std::string& line) const {
    auto c = Check();
    EXPECT_EQ(c.exit_code, 1);
    EXPECT_EQ(c.err, "lore: " + line + "\n");
  }
  void ExpectOk() const {
    auto c = Check();
    EXPECT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(c.err, "");
  }

  TempDir t_;
};

TEST_F(CheckFilesTest, ATornSessionLogIsCutBackToItsLastSpanIntoQuarantine) {
  const std::string logged =
      R"({"turn":"person","line":1,"at":"2026-01-01T00:00:00Z","text":"hi"})"
      "\n"
      R"({"turn":"span","session_id":"s1","lines":[1,1],"started_at":"2026-01-01T00:00:00Z",)"
      R"("ended_at":"2026-01-01T00:00:00Z"})"
      "\n";
  const std::string torn = R"({"turn":"person","line":2,"at":"2026-01-01T00:00:00Z","text":"x"})"
                           "\n"
                           R"({"turn":"agent","li)";
  Write("sessions/s1.jsonl", logged + torn);
  ExpectOnly(std::string(kTorn) + Path("sessions/s1.jsonl") +
             ":4; run 'lore check --repair': it "
             "moves the torn bytes into the store's quarantine/ folder and cuts the file back to "
             "its last complete line");
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string copy = "quarantine/sessions/s1.jsonl.torn-at-" + std::to_string(logged.size());
  EXPECT_NE(r.out.find("repaired: quarantined the torn last line of " + Path("sessions/s1.jsonl") +
                       ": " + Path(copy)),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Read("sessions/s1.jsonl"), logged);
  EXPECT_EQ(Read(copy), torn);
  ExpectOk();
}

TEST_F(CheckFilesTest, AGarbageExtractCursorIsMovedAside) {
  Write("extract/s1.json", "garbage\n");
  ExpectOnly("extract cursor is not a JSON object: " + Path("extract/s1.json") +
             "; run 'lore check --repair': it moves the cursor into quarantine/, and the next "
             "extract of that session starts from the transcript's first line (the session log "
             "never takes a line twice)");
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(stdfs::exists(Path("extract/s1.json")));
  EXPECT_EQ(Read("quarantine/extract/s1.json.unreadable"), "garbage\n");
  ExpectOk();
}

TEST_F(CheckFilesTest, ABrokenSummaryIsReportedAndLeftForAPerson) {
  const std::string broken = "---\nupdated_at: [\n---\nbody\n";
  Write("memory/summary.md", broken);
  auto c = Check();
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(Lines(c.err), 1u) << c.err;
  EXPECT_EQ(c.err.rfind("lore: frontmatter is not valid YAML", 0), 0u) << c.err;
  EXPECT_NE(c.err.find(Path("memory/summary.md") + ":2; "), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("('lore lint' lists every finding)"), std::string::npos) << c.err;
  EXPECT_EQ(Check(true).exit_code, 1);
  EXPECT_EQ(Read("memory/summary.md"), broken);
}

TEST_F(CheckFilesTest, FoldersSymlinkedOutOfTheStoreAreReportedNeverFollowed) {
  ASSERT_EQ(::symlink("/etc", Path("knowledge").c_str()), 0);
  stdfs::create_directories(Path("memory"));
  ASSERT_EQ(::symlink("/etc", Path("memory/decisions").c_str()), 0);
  auto c = Check();
  EXPECT_EQ(c.exit_code, 1);
  const std::string repair =
      "; replace it with the real file or folder, or move it out of the "
      "store; lore check --repair leaves it alone\n";
  EXPECT_EQ(c.err, "lore: symlink in the store (lore never follows it): " + Path("knowledge") +
                       repair + "lore: symlink in the store (lore never follows it): " +
                       Path("memory/decisions") + repair);
  EXPECT_EQ(c.out.find("passwd"), std::string::npos);
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, c.err);
  EXPECT_TRUE(stdfs::is_symlink(Path("knowledge")));
  EXPECT_TRUE(stdfs::is_symlink(Path("memory/decisions")));
}

TEST_F(CheckFilesTest, MalformedLearningsLinesAreNamedAndATornOneQuarantined) {
  const std::string good = R"({"id":"a","subject":"s"})"
                           "\n"
                           "not json\n"
                           R"({"id":"b"})"
                           "\n";
  Write("learnings.jsonl", good + R"({"id":"c","sub)");
  auto c = Check();
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(c.err,
            "lore: malformed line (not valid JSON: unexpected 'n'): " + Path("learnings.jsonl") +
                ":2; fix that line's JSON by hand or move it to "
                "another file (lore skips it meanwhile)\nlore: " +
                kTorn + Path("learnings.jsonl") +
                ":4; run 'lore check --repair': it moves the "
                "torn bytes into the store's quarantine/ folder and cuts the file back to "
                "its last complete line\n");
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 1);  // line 2 is a person's to fix
  EXPECT_EQ(Read("learnings.jsonl"), good);
  EXPECT_EQ(Read("quarantine/learnings.jsonl.torn-at-" + std::to_string(good.size())),
            R"({"id":"c","sub)");
  ExpectOnly("malformed line (not valid JSON: unexpected 'n'): " + Path("learnings.jsonl") +
             ":2; fix that line's JSON by hand or move it to another file (lore skips it "
             "meanwhile)");
}

TEST_F(CheckFilesTest, MalformedProposalLinesAreNamed) {
  Write("proposals.jsonl", R"({"id":"a"})"
                           "\n"
                           R"({"bad")"
                           "\n"
                           R"({"id":"b"})"
                           "\n");
  ExpectOnly("malformed line (not valid JSON: expected ':' after an object key): " +
             Path("proposals.jsonl") +
             ":2; fix that line's JSON by hand or move it to another "
             "file (lore skips it meanwhile)");
}

TEST_F(CheckFilesTest, AGarbageSearchIndexIsDeletedAndRebuiltBySearch) {
  Write("index.sqlite", std::string(8192, 'g'));
  auto c = Check();
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(Lines(c.err), 1u) << c.err;
  EXPECT_EQ(c.err.rfind("lore: search index cannot be read (", 0), 0u) << c.err;
  EXPECT_NE(c.err.find(Path("index.sqlite") + "; run 'lore check --repair': it deletes the index"),
            std::string::npos)
      << c.err;
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(stdfs::exists(Path("index.sqlite")));
  ASSERT_EQ(Lore({"append-review", kRepo}, IsolatedOptions(t_.path(), "stores", R"({"g":"zebra"})"))
                .exit_code,
            0);
  auto s = Lore({"search", kRepo, "zebra"}, Opts());
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("raw.jsonl:1"), std::string::npos) << s.out;
  ExpectOk();
}

TEST_F(CheckFilesTest, AFifoIsReportedNeverOpened) {
  ASSERT_EQ(::mkfifo(Path("events.jsonl").c_str(), 0600), 0);
  const std::string line = "not a regular file (a FIFO) in the store: " + Path("events.jsonl") +
                           "; move it out of the store; lore never opens it, and lore check "
                           "--repair leaves it alone";
  ExpectOnly(line);
  auto r = Check(true);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lore: " + line + "\n");
  struct stat st;
  ASSERT_EQ(::lstat(Path("events.jsonl").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(CheckFilesTest, ATornEventsLogIsQuarantined) {
  const std::string whole = R"({"event":"a"})"
                            "\n";
  Write("events.jsonl", whole + R"({"event":)");
  ExpectOnly(std::string(kTorn) + Path("events.jsonl") +
             ":2; run 'lore check --repair': it "
             "moves the torn bytes into the store's quarantine/ folder and cuts the file back to "
             "its last complete line");
  EXPECT_EQ(Check(true).exit_code, 0);
  EXPECT_EQ(Read("events.jsonl"), whole);
  EXPECT_EQ(Read("quarantine/events.jsonl.torn-at-" + std::to_string(whole.size())),
            R"({"event":)");
  ExpectOk();
}

TEST_F(CheckFilesTest, ABrokenConfigAndStateFilesAreNamed) {
  Write("config.toml", "[memory]\nquota = \n");
  Write("staging/.consolidation.state.json", "{\"last_run\":");
  auto c = Check();
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_EQ(Lines(c.err), 2u) << c.err;
  EXPECT_NE(c.err.find(Path("config.toml") + ":2"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find(Path("staging/.consolidation.state.json")), std::string::npos) << c.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
