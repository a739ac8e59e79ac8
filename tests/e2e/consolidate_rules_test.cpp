// Black-box tests of `lore stage` and of the rules engine through
// `lore consolidate`: expected files byte for byte, and a second run over the
// same entries changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "support/consolidate_fixture.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

// Two entries an hour apart (their UUIDv7 ids carry the times).
constexpr const char* kId1 = "01a22be5-a500-7000-8000-000000000001";  // 2026-11-30T10:00:00Z
constexpr const char* kId2 = "01a22c1c-9380-7000-8000-000000000002";  // 2026-11-30T11:00:00Z

constexpr const char* kEntry1 =
    R"({"source":{"session_id":"s1","range":[5,9]},"decisions":[{"options":["SQLite","Postgres"],)"
    R"("chosen":"Postgres","rationale":"we need concurrent writers"}],"discussions":[{"topic":"Naming",)"
    R"("points":["slugs are file names","no spaces"]}],"attempts":[{"action":"build with clang 14",)"
    R"("result":"ranges do not compile","succeeded":false},{"action":"build with g++ 12","result":"ok",)"
    R"("succeeded":true}],"requests":[{"intent":"Keep the CLI fast","summary":"hooks run it on every tool call"}]})";
constexpr const char* kEntry2 =
    R"({"source":{"session_id":"s2","range":[1,3]},"decisions":[{"options":["ninja","make"],"chosen":"ninja",)"
    R"("rationale":"faster no-op builds"},{"options":["Postgres","SQLite"],"chosen":"postgres",)"
    R"("rationale":"replication later"}],"discussions":[{"topic":"Naming","points":["no spaces",)"
    R"("lower case only"]}],"attempts":[{"action":"run tests in parallel","result":"flaky lock test",)"
    R"("succeeded":false}],"requests":[{"intent":"Keep the CLI fast","summary":"measure with hyperfine"},)"
    R"({"intent":"Add dark mode","target":"settings page","summary":"users asked twice"}]})";

const std::map<std::string, std::string> kBefore = {
    {"memory/decisions/postgres-or-sqlite.md",
     "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nstatus: resolved\n"
     "sources:\n  - session_id: s0\n    range: [1, 2]\n---\n# SQLite or Postgres\n\nChosen: "
     "SQLite\n"
     "Options: SQLite; Postgres\n\n- one file, no server\n"},
    {"knowledge/storage.md",
     "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nkind: rule\n"
     "description: How records are stored\nmodel_invokation: false\nuser_invocable: true\n"
     "last_sources:\n  - session_id: s1\n    range: [1, 4]\n---\n# Storage\n\nUse one file per "
     "record.\n"},
    {"knowledge/unrelated.md",
     "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nkind: rule\n"
     "description: Something else\nmodel_invokation: false\nuser_invocable: true\nlast_sources:\n"
     "  - session_id: s9\n    range: [1, 1]\n---\n# Unrelated\n"},
    {"memory/summary.md",
     "---\nupdated_at: 2026-11-01T09:00:00Z\n---\n# Summary\n\nThe project stores memory as "
     "Markdown files.\n"},
    {"memory/workflow/release.md",
     "---\nupdated_at: 2026-11-01T09:00:00Z\ndescription: Release steps\nauto_invoke: false\n"
     "user_invocable: true\nrequires: []\n---\n1. Tag.\n"},
};

const std::map<std::string, std::string> kChanged = {
    {"knowledge/storage.md",
     "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-30T10:00:00Z\nkind: rule\n"
     "description: How records are stored\nmodel_invokation: false\nuser_invocable: true\n"
     "last_sources:\n  - session_id: s1\n    range: [1, 9]\n---\n# Storage\n\nUse one file per "
     "record.\n"
     "\n## Updates\n\n- Chose Postgres over SQLite: we need concurrent writers\n"},
    {"memory/decisions/make-or-ninja.md",
     "---\ncreated_at: 2026-11-30T11:00:00Z\nupdated_at: 2026-11-30T11:00:00Z\nstatus: resolved\n"
     "sources:\n  - session_id: s2\n    range: [1, 3]\n---\n# ninja (over make)\n\nChosen: ninja\n"
     "Options: ninja; make\n\n- faster no-op builds\n"},
    {"memory/decisions/postgres-or-sqlite-postgres.md",
     "---\ncreated_at: 2026-11-30T10:00:00Z\nupdated_at: 2026-11-30T11:00:00Z\nstatus: resolved\n"
     "sources:\n  - session_id: s1\n    range: [5, 9]\n  - session_id: s2\n    range: [1, 3]\n---\n"
     "# Postgres (over SQLite)\n\nChosen: Postgres\nOptions: SQLite; Postgres\n\n"
     "- we need concurrent writers\n- replication later\n"},
    {"memory/decisions/postgres-or-sqlite.md",
     "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-30T10:00:00Z\nstatus: replaced\n"
     "replaced_by: postgres-or-sqlite-postgres\nsources:\n  - session_id: s0\n    range: [1, "
     "2]\n---\n"
     "# SQLite or Postgres\n\nChosen: SQLite\nOptions: SQLite; Postgres\n\n- one file, no "
     "server\n"},
    {"memory/requests/add-dark-mode-settings-page.md",
     "---\ncreated_at: 2026-11-30T11:00:00Z\nupdated_at: 2026-11-30T11:00:00Z\nsources:\n"
     "  - session_id: s2\n    range: [1, 3]\n---\n# Add dark mode\n\nTarget: settings page\n\n"
     "- users asked twice\n"},
    {"memory/requests/keep-the-cli-fast.md",
     "---\ncreated_at: 2026-11-30T10:00:00Z\nupdated_at: 2026-11-30T11:00:00Z\nsources:\n"
     "  - session_id: s1\n    range: [5, 9]\n  - session_id: s2\n    range: [1, 3]\n---\n"
     "# Keep the CLI fast\n\n- hooks run it on every tool call\n- measure with hyperfine\n"},
    // The briefing (no session logs here: the decisions), then the person's
    // text, then the discussions of sessions without a log. Attempts leave
    // no line: the briefing names failures from the session logs.
    {"memory/summary.md",
     "---\nupdated_at: 2026-11-30T11:00:00Z\n---\n<!-- lore:briefing -->\n# Briefing\n\nProject "
     "`example.com_acme_app`.\n\n## Recent decisions\n- 2026-11-30: ninja (over make): faster "
     "no-op builds\n- 2026-11-30: Postgres (over SQLite): replication later\n<!-- "
     "/lore:briefing -->\n\n# Summary\n\nThe project stores memory as Markdown files.\n\n## "
     "Discussions\n\n- **Naming**: slugs are file names; no spaces; lower case only\n"},
};

class RulesEngineTest : public ConsolidateFixture {
 protected:
  void SetUp() override {
    ConsolidateFixture::SetUp();
    for (const auto& [rel, text] : kBefore) Write(rel, text);
  }
  void StageFixed() {
    Write(std::string("staging/") + kId1 + ".json", kEntry1);
    Write(std::string("staging/") + kId2 + ".json", kEntry2);
  }
};

TEST_F(RulesEngineTest, FixedEntriesGiveTheExpectedFilesByteForByte) {
  StageFixed();
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush", "--engine", "rules"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("(rules): consumed 2 entries, changed 7 files\n"), std::string::npos)
      << r.out;
  std::map<std::string, std::string> expected = kBefore;
  for (const auto& [rel, text] : kChanged) expected[rel] = text;
  auto got = Records();
  for (const auto& [rel, text] : expected) EXPECT_EQ(got[rel], text) << rel;
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(Staged().empty());
  EXPECT_EQ(Lore({"lint", kRepo}, Opts()).exit_code, 0);

  // The same entries again: nothing changes, not even a time stamp.
  StageFixed();
  auto again = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("consumed 2 entries, changed 0 files\n"), std::string::npos)
      << again.out;
  EXPECT_EQ(Records(), got);
  EXPECT_TRUE(Staged().empty());
}

TEST_F(RulesEngineTest, NeverCreatesKnowledgeAndNeverTouchesWorkflow) {
  // A decision from a session no knowledge page came from.
  Write(
      "staging/01a22be5-a500-7000-8000-000000000003.json",
      R"({"source":{"session_id":"s7","range":[1,1]},"decisions":[{"options":[],"chosen":"Use tabs","rationale":""}]})");
  ASSERT_EQ(Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts()).exit_code, 0);
  auto got = Records();
  EXPECT_EQ(got["knowledge/storage.md"], kBefore.at("knowledge/storage.md"));
  EXPECT_EQ(got["knowledge/unrelated.md"], kBefore.at("knowledge/unrelated.md"));
  EXPECT_EQ(got["memory/workflow/release.md"], kBefore.at("memory/workflow/release.md"));
  EXPECT_EQ(got.count("knowledge/use-tabs.md"), 0u);
  EXPECT_EQ(
      got["memory/decisions/use-tabs.md"],
      "---\ncreated_at: 2026-11-30T10:00:00Z\nupdated_at: 2026-11-30T10:00:00Z\nstatus: resolved\n"
      "sources:\n  - session_id: s7\n    range: [1, 1]\n---\n# Use tabs\n\nChosen: Use tabs\n");
}

TEST_F(RulesEngineTest, SummaryStaysWithinItsLimit) {
  Write("config.toml", "[memory.consolidation]\nsummary_max_chars = 1000\n");
  std::string points;
  for (int i = 0; i < 150; ++i) {
    Write(
        "staging/01a22be5-a500-7000-8000-000000000" +
            std::string(i < 10    ? "00"
                        : i < 100 ? "0"
                                  : "") +
            std::to_string(i) + ".json",
        R"({"source":{"session_id":"s1","range":[1,1]},"discussions":[{"topic":"topic )" +
            std::to_string(i) +
            R"(","points":["a point long enough to fill the summary quickly, again and again"]}]})");
  }
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string summary = Read("memory/summary.md");
  std::string body = summary.substr(summary.find("---\n", 4) + 4);
  // The briefing keeps its budget; lore's lines outside it their cap.
  size_t end = body.find("<!-- /lore:briefing -->");
  ASSERT_NE(end, std::string::npos);
  EXPECT_LE(end, 1000u);
  EXPECT_LE(body.size() - end, 10000u + 50);
  EXPECT_NE(body.find("The project stores memory as Markdown files."), std::string::npos);
  EXPECT_NE(body.find("**topic 149**"), std::string::npos);  // the newest lines stay
  EXPECT_EQ(body.find("**topic 0**"), std::string::npos);    // the oldest went first
}

TEST_F(RulesEngineTest, ACorruptRecordFailsTheRunAndChangesNothing) {
  Write("memory/decisions/postgres-or-sqlite.md", "---\nstatus: [unclosed\n---\n");
  StageFixed();
  auto before = Records();
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("failed, nothing changed, 2 entries kept: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memory/decisions/postgres-or-sqlite.md"), std::string::npos) << r.out;
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged().size(), 2u);
  auto status = Status();
  EXPECT_EQ(status["last_run"]["outcome"], "failed");
}

TEST_F(ConsolidateFixture, StageValidatesAndWritesACanonicalEntry) {
  auto bad = Lore(
      {"stage", kRepo},
      Opts(
          R"({"source":{"session_id":"s","range":[1,2]},"decisions":[{"options":[],"rationale":"r"}]})"));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err,
            "lore: staged entry field decisions[0].chosen is missing: <stdin>; fix that field (see "
            "docs/consolidation.md for the staged entry) and stage the entry again\n");
  EXPECT_TRUE(Staged().empty());
  std::string id = Stage(R"({"source":{"session_id":"s","range":[1,2]}})");
  EXPECT_EQ(Staged(), std::vector<std::string>{id});
  EXPECT_EQ(
      Read("staging/" + id + ".json"),
      R"({"source":{"session_id":"s","range":[1,2]},"decisions":[],"discussions":[],"attempts":[],"requests":[]})"
      "\n");
  std::string later = Stage(R"({"source":{"session_id":"s","range":[3,4]}})");
  EXPECT_LT(id, later);  // time-ordered
}

// Ageing by use (docs/recall.md): a decision neither shown nor opened for
// recall.unused_days, and not pinned, leaves the briefing; one pinned or used
// lately stays; recall.unused_days = 0 ages nothing.
TEST_F(ConsolidateFixture, AnUnusedDecisionLeavesTheBriefingUnlessPinnedOrUsed) {
  const auto now = std::chrono::system_clock::now();
  auto iso = [](std::chrono::system_clock::time_point t) {
    std::time_t secs = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(buf);
  };
  const std::string old = iso(now - std::chrono::hours(24 * 120));
  for (const char* name : {"unused", "pinned", "used"}) {
    const std::string rel = std::string("memory/decisions/") + name + ".md";
    Write(rel, "---\ncreated_at: " + old + "\nupdated_at: " + old + "\nstatus: resolved\n---\n# " +
                   name + "\n\nChosen: the " + name + " choice\nOptions: the " + name +
                   " choice; another\n\n- because\n");
    // Written by lore 120 days ago.
    std::filesystem::last_write_time(
        Path(rel), std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 120));
  }
  // A gotcha page lore wrote 120 days ago and nobody used since.
  Write("knowledge/gotcha-stale-lockfile.md",
        "---\ncreated_at: " + old + "\nupdated_at: " + old +
            "\nkind: gotcha\ndescription: the old lockfile gotcha\nmodel_invokation: false\n"
            "user_invocable: true\n---\n# Stale lockfile\n\nRemove it.\n");
  std::filesystem::last_write_time(
      Path("knowledge/gotcha-stale-lockfile.md"),
      std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 120));
  Write("usage.jsonl", R"({"at":")" + iso(now - std::chrono::hours(24 * 100)) +
                           R"(","use":"pin","item":"memory/decisions/pinned.md","via":"cli"})" +
                           "\n" + R"({"at":")" + iso(now - std::chrono::hours(24 * 2)) +
                           R"(","use":"opened","item":"memory/decisions/used.md","via":"mcp"})" +
                           "\n");
  Stage(Entry("s9", "indent", "Use tabs"));
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string summary = Read("memory/summary.md");
  EXPECT_NE(summary.find("Use tabs"), std::string::npos) << summary;
  EXPECT_NE(summary.find("the pinned choice"), std::string::npos) << summary;
  EXPECT_NE(summary.find("the used choice"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("the unused choice"), std::string::npos) << summary;
  EXPECT_EQ(summary.find("the old lockfile gotcha"), std::string::npos) << summary;
  // Aged, never deleted.
  EXPECT_TRUE(Exists("memory/decisions/unused.md"));

  Write("config.toml", "[recall]\nunused_days = 0\n");
  // A failure seen again and again that no session fixed is a lesson too (sudo with no
  // terminal); the briefing leaves it out only once a session dealt with it.
  Write(
      "knowledge/gotcha-flaky-fetch.md",
      "---\ncreated_at: " + old + "\nupdated_at: " + old +
          "\nkind: gotcha\ndescription: \"When `make fetch` fails with \\\"timeout\\\": not fixed "
          "yet\"\nmodel_invokation: false\nuser_invocable: true\n---\n# timeout\n\nNo session "
          "has fixed it yet.\n");
  Stage(Entry("s10", "quotes", "Use double quotes"));
  ASSERT_EQ(Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts()).exit_code, 0);
  summary = Read("memory/summary.md");
  EXPECT_NE(summary.find("the unused choice"), std::string::npos) << summary;
  EXPECT_NE(summary.find("the old lockfile gotcha"), std::string::npos) << summary;
  EXPECT_NE(summary.find("make fetch"), std::string::npos) << summary;

  // A bad recall setting fails the run with the key and its repair; nothing changes.
  Write("config.toml", "[recall]\nunused_days = -3\n");
  Stage(Entry("s11", "eol", "Use LF"));
  auto bad = Lore({"consolidate", kRepo, "--foreground", "--flush"}, Opts());
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.out.find("failed, nothing changed, 1 entry kept: recall.unused_days: must be"),
            std::string::npos)
      << bad.out;
  EXPECT_EQ(Read("memory/summary.md"), summary);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
