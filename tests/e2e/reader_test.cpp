// Issue 25, the one reader: every file lore reads is a regular file opened
// without blocking, read up to a cap for its kind, never through a symlink
// inside the store. The real binary, each run under timeout(1), so that a
// hang fails the test (exit 137) instead of hanging ctest: a FIFO in each
// place a verb reads, /dev/zero for each file option, an index page over its
// cap, symlinked folders of the store.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::json;

constexpr const char* kKey = "github.com_acme_widgets";
constexpr int kKilled = 128 + 9;  // timeout -s KILL

class ReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    t_.Write("widgets/.git/config",
             "[remote \"origin\"]\n\turl = git@github.com:acme/widgets.git\n");
    t_.Write("session.jsonl", "");
    ASSERT_EQ(Run({"ensure", repo()}).exit_code, 0);
  }
  RunOptions Opts(std::string input = {}) const {
    RunOptions o;
    o.input = std::move(input);
    o.env["HOME"] = t_ / "home";
    o.env["LORE_HOME"] = t_ / "stores";
    o.env["XDG_CONFIG_HOME"] = std::nullopt;
    o.env["LORE_TEST_HOOK"] = std::nullopt;
    o.cwd = repo();
    return o;
  }
  // lore `args` under a 20 s timeout.
  RunResult Run(const std::vector<std::string>& args, std::string input = {}) const {
    return RunWith(args, Opts(std::move(input)));
  }
  static RunResult RunWith(const std::vector<std::string>& args, const RunOptions& o) {
    std::vector<std::string> argv{"/usr/bin/timeout", "-s", "KILL", "20", LoreBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    return lore::testing::Run(argv, o);
  }
  std::string repo() const { return t_ / "widgets"; }
  std::string Store(const std::string& rel = "") const {
    return t_ / (std::string("stores/") + kKey + (rel.empty() ? "" : "/" + rel));
  }
  void Fifo(const std::string& path) const {
    stdfs::remove(path);
    stdfs::create_directories(stdfs::path(path).parent_path());
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0) << path;
  }
  std::string Payload(const std::string& event, const std::string& extra = "") const {
    return R"({"session_id":"s1","transcript_path":")" + t_ / "session.jsonl" + R"(","cwd":")" +
           repo() + R"(","hook_event_name":")" + event + "\"" + extra + "}";
  }
  std::string ProposePayload() const {
    return R"({"session_id":"s1","cwd":")" + repo() +
           R"(","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"lore propose . --type convention --subject S --insight I --evidence E --confidence 0.9"}})";
  }
  // Not killed by the timeout; the error names `file` and says what it is.
  static void ExpectRefused(const RunResult& r, const std::string& file, const std::string& what,
                            int exit_code = 1) {
    EXPECT_NE(r.exit_code, kKilled) << "hung: " << file;
    EXPECT_EQ(r.exit_code, exit_code) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  }
  std::string McpSession(const std::vector<std::pair<std::string, Json>>& calls) const {
    std::string in =
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
        "\n";
    int id = 0;
    for (const auto& [name, args] : calls) {
      in += Json{{"jsonrpc", "2.0"},
                 {"id", ++id},
                 {"method", "tools/call"},
                 {"params", {{"name", name}, {"arguments", args}}}}
                .dump() +
            "\n";
    }
    auto r = Run({"mcp"}, in);  // the store of the working directory
    EXPECT_NE(r.exit_code, kKilled) << "lore mcp hung";
    return r.out;
  }
  // The response to call `id` of an MCP session's output.
  static Json Response(const std::string& out, int id) {
    size_t pos = 0;
    while (pos < out.size()) {
      size_t nl = out.find('\n', pos);
      if (nl == std::string::npos) nl = out.size();
      Json j = Json::parse(out.substr(pos, nl - pos), nullptr, false);
      if (j.is_object() && j.contains("id") && j["id"] == id) return j;
      pos = nl + 1;
    }
    return Json();
  }

  TempDir t_;
};

constexpr const char* kFifo = "not a regular file (a FIFO)";

TEST_F(ReaderTest, AFifoInTheStoreIsRefusedAtOnceByEveryVerb) {
  struct Case {
    std::string rel;
    std::vector<std::string> args;
    int exit_code = 1;
  };
  const std::vector<Case> cases = {
      {"proposals.jsonl",
       {"propose", repo(), "--wave", "w1", "--type", "convention", "--subject", "S", "--insight",
        "I", "--evidence", "E", "--confidence", "0.9"},
       4},  // propose exits 4 on an error (docs/proposals.md)
      {"proposals.jsonl", {"review", repo(), "--session", "s", "--plan", "-"}},
      {"extract/.failed.json", {"status", repo()}, 0},
      {"learnings.jsonl", {"learnings", repo()}},
      {"learnings.jsonl", {"distill", repo()}},
      {"config.toml", {"extract", repo(), "--transcript", t_ / "s1.jsonl"}},
      {"memory/summary.md", {"memory", "read", repo(), "summary"}},
      {"extract/s1.json", {"extract", repo(), "--transcript", t_ / "s1.jsonl"}},
  };
  t_.Write("s1.jsonl",
           R"({"type":"user","sessionId":"s1","message":{"role":"user","content":"hi"}})"
           "\n");
  for (const auto& c : cases) {
    SCOPED_TRACE(c.rel + ": " + c.args[0]);
    Fifo(Store(c.rel));
    ExpectRefused(Run(c.args, "{\"approve\":[]}"), Store(c.rel), kFifo, c.exit_code);
    stdfs::remove(Store(c.rel));
  }
}

TEST_F(ReaderTest, HooksDoNotHangOnAFifoTheyRead) {
  struct Case {
    std::string path;
    std::string hook;
    std::string payload;
    bool named;  // the hook reports the file (else it only must not hang)
  };
  const std::string start = Payload("SessionStart", R"(,"source":"startup")");
  const std::vector<Case> cases = {
      {Store("memory/summary.md"), "session-start", start, true},
      {Store("config.toml"), "session-start", start, false},  // read for the team sync only
      {Store("config.toml"), "stop", Payload("Stop"), true},
      {Store("proposals.jsonl"), "session-end", Payload("SessionEnd"), true},
      {Store("extract/s1.json"), "pre-compact", Payload("PreCompact"), true},
      {Store("events.jsonl"), "pre-tool-use", ProposePayload(), true},
      // Read to find the store: unreadable, no store is guessed (the warning names it).
      {repo() + "/.git/config", "session-start", start, true},
  };
  t_.Write("session.jsonl",
           R"({"type":"user","sessionId":"s1","message":{"role":"user","content":"hi"}})"
           "\n");
  for (const auto& c : cases) {
    SCOPED_TRACE(c.path + ": " + c.hook);
    std::string saved;
    if (c.path == repo() + "/.git/config") saved = t_.Read("widgets/.git/config");
    Fifo(c.path);
    auto r = Run({"hook", c.hook}, c.payload);
    // A hook exits 0 on errors too: the error is a warning naming the file.
    EXPECT_NE(r.exit_code, kKilled) << "hung";
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (c.named) {
      // A warning on stderr, or (a summary that cannot be read costs only the
      // briefing) one line of the context that says why.
      const std::string said = r.err + r.out;
      EXPECT_NE(said.find(c.path), std::string::npos) << said;
      // Opened to append, a FIFO without a reader fails at once (ENXIO).
      EXPECT_NE(said.find("not a regular file"), std::string::npos) << said;
    }
    stdfs::remove(c.path);
    if (!saved.empty()) t_.Write("widgets/.git/config", saved);
  }
}

TEST_F(ReaderTest, ATranscriptThatIsAFifoIsRefused) {
  Fifo(t_ / "fifo.jsonl");
  ExpectRefused(Run({"extract", repo(), "--transcript", t_ / "fifo.jsonl"}), t_ / "fifo.jsonl",
                "the transcript is not a regular file (a FIFO)");
}

TEST_F(ReaderTest, McpAnswersAFifoAsAToolError) {
  Fifo(Store("config.toml"));
  Fifo(Store("memory/summary.md"));
  std::string out =
      McpSession({{"status", Json::object()}, {"memory_read", {{"kind", "summary"}}}});
  for (int id : {1, 2}) {
    Json r = Response(out, id);
    ASSERT_TRUE(r.contains("result")) << out;
    EXPECT_EQ(r["result"]["isError"], true) << r;
    EXPECT_NE(r.dump().find(kFifo), std::string::npos) << r;
  }
}

TEST_F(ReaderTest, DevZeroForAFileOptionIsRefusedAtOnce) {
  ExpectRefused(Run({"review", repo(), "--session", "s", "--plan", "/dev/zero"}), "/dev/zero",
                "not a regular file (a device)");
  ExpectRefused(Run({"memory", "write", repo(), "decision", "zero", "--body-file", "/dev/zero"}),
                "/dev/zero", "not a regular file (a device)");
  EXPECT_FALSE(stdfs::exists(Store("memory/decisions/zero.md")));
}

TEST_F(ReaderTest, AnIndexPageOverItsCapIsAnErrorNamingSizeAndCap) {
  std::string big = "---\n---\n# Index\n\n";
  std::string line = "- the widgets service caches pages, and the cache key ignores the locale\n";
  while (big.size() <= (size_t{5} << 20)) big += line;
  t_.Write(std::string("stores/") + kKey + "/okf/index.md", big);
  auto r = Run({"search", repo(), "widgets"});
  ExpectRefused(r, Store("okf/index.md"),
                "file too large (" + std::to_string(big.size()) +
                    " bytes; the cap for an index page is 4 MiB)");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("; "), std::string::npos) << r.err;  // with its repair
  // A normal index page is read as before (the okf/ bundle is searched when asked for).
  t_.Write(std::string("stores/") + kKey + "/okf/index.md", "---\n---\n# Index\n\n" + line);
  auto ok = Run({"search", repo(), "widgets", "--scope", "okf"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("okf/index.md"), std::string::npos) << ok.out;
}

constexpr const char* kSecret = "the launch codes are in the basement";
constexpr const char* kSymlinkRefused = "refusing to follow a symlink inside the store";

class SymlinkedFolderTest : public ReaderTest, public ::testing::WithParamInterface<std::string> {
 protected:
  // The folder `rel` of the store replaced by a symlink to a folder outside
  // it holding a decision, a knowledge page and a summary with kSecret.
  void LinkOut(const std::string& rel) {
    const std::string body =
        std::string("---\nupdated_at: 2026-01-02T03:04:05Z\n---\n") + kSecret + "\n";
    t_.Write("outside/decisions/launch.md", body);
    t_.Write("outside/launch.md", body);
    t_.Write("outside/summary.md", body);
    stdfs::remove_all(Store(rel));
    stdfs::create_directories(stdfs::path(Store(rel)).parent_path());
    // A briefing, so that the session-start hook goes on to count the folders.
    if (rel != "memory") t_.Write(std::string("stores/") + kKey + "/memory/summary.md", body);
    const std::string target =
        rel == "memory/decisions" ? t_ / "outside/decisions" : t_ / "outside";
    ASSERT_EQ(::symlink(target.c_str(), Store(rel).c_str()), 0);
  }
};

TEST_P(SymlinkedFolderTest, IsNeverFollowed) {
  const std::string rel = GetParam();
  LinkOut(rel);
  const std::string link = Store(rel);
  // search
  auto s = Run({"search", repo(), "launch", "basement"});
  ExpectRefused(s, link, kSymlinkRefused);
  EXPECT_EQ(s.out.find(kSecret), std::string::npos) << s.out;
  // memory read
  const bool knowledge = rel == "knowledge";
  auto m = Run({"memory", "read", repo(), knowledge ? "knowledge" : "decision", "launch"});
  ExpectRefused(m, link, kSymlinkRefused);
  EXPECT_EQ(m.out.find(kSecret), std::string::npos) << m.out;
  if (rel == "memory") {
    auto sum = Run({"memory", "read", repo(), "summary"});
    ExpectRefused(sum, link, kSymlinkRefused);
    EXPECT_EQ(sum.out.find(kSecret), std::string::npos) << sum.out;
  }
  // MCP: a tool error (isError) with the one-line message, not -32603.
  std::string out = McpSession(
      {{"memory_read", {{"kind", knowledge ? "knowledge" : "decision"}, {"slug", "launch"}}},
       {"search", {{"query", "launch basement"}}}});
  for (int id : {1, 2}) {
    Json r = Response(out, id);
    ASSERT_TRUE(r.contains("result")) << out;
    EXPECT_EQ(r["result"]["isError"], true) << r;
    EXPECT_NE(r.dump().find(kSymlinkRefused), std::string::npos) << r;
  }
  EXPECT_EQ(out.find(kSecret), std::string::npos) << out;
  // lint: the symlink is its finding (on stdout, as every finding), nothing from outside linted.
  auto l = Run({"lint", repo()});
  const std::string linted = l.out + l.err;
  EXPECT_NE(l.exit_code, 0) << linted;
  EXPECT_NE(linted.find("symlink"), std::string::npos) << linted;
  EXPECT_EQ(linted.find(kSecret), std::string::npos) << linted;
  // The session-start hook: exit 0, one warning, nothing from outside.
  auto h = Run({"hook", "session-start"}, Payload("SessionStart", R"(,"source":"startup")"));
  ExpectRefused(h, link, kSymlinkRefused, 0);
  EXPECT_EQ(h.out.find(kSecret), std::string::npos) << h.out;
}

INSTANTIATE_TEST_SUITE_P(Folders, SymlinkedFolderTest,
                         ::testing::Values("memory", "memory/decisions", "knowledge"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n) c = c == '/' ? '_' : c;
                           return n;
                         });

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
