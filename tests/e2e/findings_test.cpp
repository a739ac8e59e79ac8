// Issue 25, "wrong or silent answers": each finding of the hostile probe as a
// black-box test of the real binary. Each failed before its fix: a value
// rewritten, a proposal queued but counted nowhere, a bad number accepted, a
// store passed whose writers refuse it, a folder linted as a record, two
// repositories sharing one memory, a permission denial reported as absence,
// an expected condition answered as an internal error.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kRepo = "https://example.org/acme/findings";
constexpr const char* kKey = "example.org_acme_findings";

class FindingsTest : public ::testing::Test {
 protected:
  RunOptions Opts(std::string input = {}) const {
    return IsolatedOptions(t_.path(), "stores", std::move(input));
  }
  RunResult Run(std::vector<std::string> args, std::string input = {}) const {
    return Lore(args, Opts(std::move(input)));
  }
  std::string Rel(const std::string& file) const {
    return "stores/" + std::string(kKey) + "/" + file;
  }
  std::string Path(const std::string& file) const { return t_ / Rel(file); }
  std::string Store() const { return t_ / ("stores/" + std::string(kKey)); }
  void Ensure() { ASSERT_EQ(Run({"ensure", kRepo}).exit_code, 0); }
  RunResult Propose(std::vector<std::string> extra) const {
    std::vector<std::string> args = {"propose",    kRepo,    "--type",       "convention",
                                     "--subject",  "Use X",  "--insight",    "Because Y",
                                     "--evidence", "Seen Z", "--confidence", "0.9"};
    args.insert(args.end(), extra.begin(), extra.end());
    return Run(args);
  }
  std::string ReadOr(const std::string& rel) const {
    return stdfs::exists(t_ / rel) ? t_.Read(rel) : std::string();
  }
  static size_t Lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

  // Exit 1, one line on stderr naming `what`, with a repair.
  static void ExpectOneLineRefusal(const RunResult& r, const std::string& what) {
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_EQ(Lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; "), std::string::npos) << r.err;
  }

  TempDir t_;
};

// 1. lore init keeps the person's numbers as written.
TEST_F(FindingsTest, InitKeepsEveryNumberAsWritten) {
  stdfs::create_directories(t_ / "project/.claude");
  const std::string settings =
      "{\n  \"big\": 12345678901234567890123,\n  \"zero\": -0,\n  \"exp\": 1E5,\n"
      "  \"frac\": 1.50,\n  \"list\": [-0.0, 2e-3, 7],\n  \"s\": \"-0 1E5\"\n}\n";
  t_.Write("project/.claude/settings.json", settings);
  RunOptions o = Opts();
  stdfs::create_directories(t_ / "bin");
  stdfs::create_symlink(LoreBinary(), t_ / "bin/lore");
  o.env["PATH"] = (t_ / "bin") + ":/usr/bin:/bin";
  o.cwd = t_ / "project";
  auto r = Lore({"init", "claude-code", "--project", t_ / "project"}, o);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string after = t_.Read("project/.claude/settings.json");
  for (const char* kept :
       {"\"big\": 12345678901234567890123,", "\"zero\": -0,", "\"exp\": 1E5,", "\"frac\": 1.50,",
        "    -0.0,\n    2e-3,\n    7\n", "\"s\": \"-0 1E5\""}) {
    EXPECT_NE(after.find(kept), std::string::npos) << kept << "\n" << after;
  }
  EXPECT_NE(after.find("lore hook session-start"), std::string::npos) << after;
  // A second run changes nothing.
  auto again = Lore({"init", "claude-code", "--project", t_ / "project"}, o);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(t_.Read("project/.claude/settings.json"), after);
}

// 2. A wave id too long to name its summary file is refused before anything
// is written; one at the limit is queued and counted.
TEST_F(FindingsTest, OverLongWaveIdIsRefusedBeforeAnythingIsWritten) {
  Ensure();
  auto r = Propose({"--wave", std::string(129, 'w')});
  EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("wave_id must be at most 128 characters"), std::string::npos) << r.out;
  EXPECT_EQ(ReadOr(Rel("proposals.jsonl")), "");
  auto ok = Propose({"--wave", std::string(128, 'w')});
  ASSERT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_EQ(Lines(t_.Read(Rel("proposals.jsonl"))), 1u);
  const std::string summary = "proposals-summary-" + std::string(128, 'w') + ".json";
  EXPECT_NE(ReadOr(Rel(summary)).find("\"queued\": 1,"), std::string::npos) << ReadOr(Rel(summary));
}

// 3. The numbers of propose's options are checked: negative, junk, overflow.
TEST_F(FindingsTest, ProposeOptionNumbersAreChecked) {
  Ensure();
  for (const char* bad : {"-1", "abc", "99999999999999999999", "1.5", ""}) {
    SCOPED_TRACE(bad);
    auto r = Propose({"--wave", "W1", "--quota-per-wave", bad});
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.out.find("--quota-per-wave must be a whole number"), std::string::npos) << r.out;
  }
  for (const char* bad : {"-0.1", "x", "2", "nan"}) {
    SCOPED_TRACE(bad);
    auto r = Propose({"--wave", "W1", "--confidence-floor", bad});
    EXPECT_EQ(r.exit_code, 4) << r.out << r.err;
    EXPECT_NE(r.out.find("--confidence-floor must be a number from 0 to 1"), std::string::npos)
        << r.out;
  }
  EXPECT_EQ(ReadOr(Rel("proposals.jsonl")), "");
  // A quota of 0 is one: nothing is queued.
  auto zero = Propose({"--wave", "W1", "--quota-per-wave", "0"});
  EXPECT_EQ(zero.exit_code, 1) << zero.out << zero.err;
  auto one = Propose({"--wave", "W1", "--quota-per-wave", "1", "--confidence-floor", "0.5"});
  EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
}

// 4. lore check fails a store whose consolidation journal every writer refuses.
TEST_F(FindingsTest, CheckFailsAMalformedConsolidationJournal) {
  Ensure();
  ASSERT_EQ(Run({"check", kRepo}).exit_code, 0);
  stdfs::create_directories(Path("staging"));
  t_.Write(Rel("staging/.consolidation.journal"), "{\"run_id\": 3}\n");
  auto r = Run({"check", kRepo});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(
      r.err.find("consolidation journal is malformed: " + Path("staging/.consolidation.journal")),
      std::string::npos)
      << r.err;
  EXPECT_EQ(r.out.find("ok:"), std::string::npos) << r.out;
}

// 5. A file or folder a consolidation removes while check --secrets scans is
// no error: it held nothing by then.
TEST_F(FindingsTest, CheckSecretsIgnoresWhatIsRemovedMeanwhile) {
  Ensure();
  std::atomic<bool> stop{false};
  std::thread remover([&]() {
    for (int n = 0; !stop; ++n) {
      const std::string trash = Path("staging/.trash-" + std::to_string(n % 4));
      std::error_code ec;
      stdfs::create_directories(trash + "/a/b", ec);
      for (int i = 0; i < 20; ++i) std::ofstream(trash + "/a/b/f" + std::to_string(i)) << "x\n";
      stdfs::remove_all(trash, ec);
    }
  });
  int failed = 0;
  std::string last;
  for (int i = 0; i < 40; ++i) {
    auto r = Run({"check", kRepo, "--secrets"});
    if (r.exit_code != 0) {
      ++failed;
      last = r.err;
    }
  }
  stop = true;
  remover.join();
  EXPECT_EQ(failed, 0) << last;
}

// 6. review refuses a malformed config.toml, as propose does, before it changes anything.
TEST_F(FindingsTest, ReviewRefusesAMalformedConfig) {
  Ensure();
  ASSERT_EQ(Propose({"--wave", "W1"}).exit_code, 0);
  const std::string queue = t_.Read(Rel("proposals.jsonl"));
  t_.Write(Rel("config.toml"), "[memory\nx = 1\n");
  auto p = Propose({"--wave", "W2"});
  EXPECT_NE(p.exit_code, 0);
  auto r = Run({"review", kRepo, "--session", "s1", "--approve-all"});
  ExpectOneLineRefusal(r, Path("config.toml"));
  EXPECT_EQ(t_.Read(Rel("proposals.jsonl")), queue);
  EXPECT_EQ(ReadOr(Rel("learnings.jsonl")), "");
  auto b = Run({"review", kRepo, "--batches", "--json"});
  ExpectOneLineRefusal(b, Path("config.toml"));
  // A setting propose refuses is refused too.
  t_.Write(Rel("config.toml"), "[memory.proposals]\nquota_per_wave = -2\n");
  ExpectOneLineRefusal(Run({"review", kRepo, "--session", "s1", "--approve-all"}),
                       "quota_per_wave: must not be negative");
}

// 7. A folder named like a record is no record: lint says so.
TEST_F(FindingsTest, LintReportsAFolderNamedLikeARecord) {
  Ensure();
  stdfs::create_directories(Path("memory/decisions/x.md"));
  auto r = Run({"lint", kRepo});
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("memory/decisions/x.md"), std::string::npos) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("not a regular file"), std::string::npos) << r.out << r.err;
}

// 8. Two remotes that map to one key do not share one memory.
TEST_F(FindingsTest, TwoRemotesMappingToOneKeyAreRefused) {
  const std::string a = "https://gitlab.com/foo/bar_baz";
  const std::string b = "https://gitlab.com/foo_bar/baz";
  const std::string dir = t_ / "stores/gitlab.com_foo_bar_baz";
  ASSERT_EQ(Run({"append-review", a}, R"({"x":1})").exit_code, 0);
  char probe[8];
  if (::getxattr(dir.c_str(), "user.lore.remote", probe, sizeof probe) < 0 && errno == ENOTSUP) {
    GTEST_SKIP() << "no extended attributes here: the check needs them";
  }
  const std::string raw = t_.Read("stores/gitlab.com_foo_bar_baz/raw.jsonl");
  for (const char* verb : {"append-review", "ensure", "pointer", "check"}) {
    SCOPED_TRACE(verb);
    auto r = Run({verb, b}, R"({"y":1})");
    ExpectOneLineRefusal(r,
                         "two repositories map to store key gitlab.com_foo_bar_baz: the store "
                         "was made for gitlab.com/foo/bar_baz, not for gitlab.com/foo_bar/baz");
  }
  EXPECT_EQ(t_.Read("stores/gitlab.com_foo_bar_baz/raw.jsonl"), raw);
  // Other spellings of the first remote are the same repository.
  for (const char* same : {"git@gitlab.com:foo/bar_baz.git", "https://gitlab.com/foo/bar_baz/",
                           "ssh://git@gitlab.com/foo/bar_baz.git"}) {
    SCOPED_TRACE(same);
    auto r = Run({"append-review", same}, R"({"z":1})");
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  // A store made before the check records nothing: the first writer's
  // repository adopts it, and the other is refused from then on.
  ASSERT_EQ(::removexattr(dir.c_str(), "user.lore.remote"), 0);
  ASSERT_EQ(Run({"check", b}).exit_code, 0);  // a read adopts nothing
  ASSERT_EQ(Run({"append-review", b}, R"({"w":1})").exit_code, 0);
  ExpectOneLineRefusal(
      Run({"append-review", a}, R"({"v":1})"),
      "the store was made for gitlab.com/foo_bar/baz, not for gitlab.com/foo/bar_baz");
}

// 9. A --set value of two lines is refused as a value of two lines: never
// folded or cut, never blamed on the file.
TEST_F(FindingsTest, MultiLineSetValueIsRefusedAsSuch) {
  const std::string decision =
      "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
      "sources: []\n---\n# Use SQLite\n";
  ASSERT_EQ(Run({"memory", "write", kRepo, "decision", "use-sqlite"}, decision).exit_code, 0);
  const std::string file = Rel("memory/decisions/use-sqlite.md");
  const std::string before = t_.Read(file);
  for (const char* set :
       {"note=first\nsecond", "status=resolved\nx: y", "description=a\r\nb", "tags=[a,\n b]"}) {
    SCOPED_TRACE(set);
    auto r = Run({"memory", "edit", kRepo, "decision", "use-sqlite", "--set", set});
    EXPECT_NE(r.exit_code, 0) << r.out;
    EXPECT_EQ(Lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find("has more than one line"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find(Path("memory/decisions/use-sqlite.md")), std::string::npos) << r.err;
    EXPECT_EQ(t_.Read(file), before);
  }
  auto w = Run({"memory", "write", kRepo, "decision", "two-lines", "--set", "note=a\nb"});
  EXPECT_NE(w.exit_code, 0);
  EXPECT_NE(w.err.find("invalid --set note=a\\nb (the value for 'note' has more than one line)"),
            std::string::npos)
      << w.err;
  EXPECT_FALSE(stdfs::exists(Path("memory/decisions/two-lines.md")));
}

// 10. A summary with a bad byte, or one that cannot be read at all, costs at
// most the briefing: the pointer and the pending count are still given.
TEST_F(FindingsTest, SessionStartKeepsThePointerAndPendingCountWhateverTheSummary) {
  t_.Write("checkout/.git/config", std::string("[remote \"origin\"]\n\turl = ") + kRepo + "\n");
  const std::string checkout = t_ / "checkout";
  Ensure();
  ASSERT_EQ(Propose({"--wave", "W1"}).exit_code, 0);
  RunOptions o = Opts(R"({"session_id":"s1","cwd":")" + checkout +
                      R"(","hook_event_name":"SessionStart","source":"startup"})");
  o.cwd = checkout;
  for (const std::string& summary :
       {std::string("---\nupdated_at: 2026-01-02T03:04:05Z\n---\nUse WAL \xff\xfe mode.\n"),
        std::string("no frontmatter \xff\n")}) {
    SCOPED_TRACE(summary);
    t_.Write(Rel("memory/summary.md"), summary);
    auto r = Lore({"hook", "session-start"}, o);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_FALSE(r.out.empty()) << r.err;
    const std::string ctx =
        Json::parse(r.out)["hookSpecificOutput"]["additionalContext"].get<std::string>();
    EXPECT_NE(ctx.find("with the `search` tool of lore's MCP server"), std::string::npos) << ctx;
    EXPECT_NE(ctx.find("1 proposed learning awaits review"), std::string::npos) << ctx;
    if (summary.rfind("---\nupdated_at: 2026", 0) == 0) {
      EXPECT_NE(ctx.find("Use WAL \xEF\xBF\xBD\xEF\xBF\xBD mode."), std::string::npos) << ctx;
    } else {
      EXPECT_NE(ctx.find("(the briefing is left out: "), std::string::npos) << ctx;
    }
  }
}

// 11. A permission denial is reported as one, wherever a store, a learning
// or a record is looked up: never as "no store" or "no learning".
TEST_F(FindingsTest, PermissionDenialIsNotAbsence) {
  Ensure();
  RunOptions o = Opts();
  if (::geteuid() == 0) {
    o.as_uid = 65534;
    for (auto& e : stdfs::recursive_directory_iterator(t_.path())) {
      (void)::lchown(e.path().c_str(), 65534, 65534);
    }
    (void)::chown(t_.path().c_str(), 65534, 65534);
    RunOptions probe = Opts();
    probe.as_uid = 65534;
    if (Lore({"--version"}, probe).exit_code == 127) GTEST_SKIP() << "binary unreachable as nobody";
  }
  ASSERT_EQ(::chmod((t_ / "stores").c_str(), 0), 0);
  const std::vector<std::vector<std::string>> lookups = {
      {"search", kRepo, "anything"},
      {"lint", kRepo},
      {"learnings", "contradict", kRepo, "abcd1234"},
      {"memory", "read", kRepo, "decision", "use-sqlite"},
      {"proposals", kRepo},
      {"review", kRepo, "--batches", "--json"},
  };
  for (const auto& args : lookups) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    auto r = Lore(args, o);
    // search answers from a fresh index in memory, with the denial as its warning.
    if (args[0] != "search") {
      EXPECT_NE(r.exit_code, 0) << r.out;
    }
    EXPECT_NE(r.err.find("permission denied"), std::string::npos) << r.out << r.err;
    EXPECT_NE(r.err.find("rerun outside the sandbox or with escalated permissions"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.err.find("no store"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("no learning"), std::string::npos) << r.err;
  }
  ::chmod((t_ / "stores").c_str(), 0700);
}

// 12. MCP answers an expected condition with lore's one line, not -32603.
TEST_F(FindingsTest, McpAnswersExpectedConditionsWithTheirMessage) {
  Ensure();
  stdfs::rename(Path("okf"), t_ / "elsewhere");
  stdfs::create_directory_symlink(t_ / "elsewhere", Path("okf"));
  const std::string init =
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})";
  const std::string in =
      init + "\n" + R"({"jsonrpc":"2.0","method":"notifications/initialized"})" + "\n" +
      R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})" + "\n" +
      R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_read","arguments":{"kind":"decision","slug":"none"}}})" +
      "\n";
  auto r = Lore({"mcp", "--repo", kRepo}, Opts(in));
  std::vector<Json> replies;
  for (size_t pos = 0; pos < r.out.size();) {
    size_t nl = r.out.find('\n', pos);
    replies.push_back(Json::parse(r.out.substr(pos, nl - pos)));
    pos = nl + 1;
  }
  ASSERT_EQ(replies.size(), 3u) << r.out << r.err;
  const Json& list = replies[1];
  ASSERT_TRUE(list.contains("error")) << list.dump();
  EXPECT_NE(list["error"]["code"], -32603) << list.dump();
  const std::string msg = list["error"]["message"].get<std::string>();
  EXPECT_NE(msg.find("okf directory is a symlink: " + Path("okf")), std::string::npos) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  const Json& read = replies[2];
  ASSERT_TRUE(read.contains("result")) << read.dump();
  EXPECT_EQ(read["result"]["isError"], true) << read.dump();
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
