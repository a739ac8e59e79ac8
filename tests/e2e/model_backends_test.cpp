// Black-box tests of the model back ends (llm.provider): `anthropic` against
// a scripted Messages API server, and `claude-code` through the real Claude
// Code CLI (npm @anthropic-ai/claude-code, tests/claude/) against the same
// server over loopback; the recursion guard and the token budgets.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "support/claude_cli.h"
#include "support/consolidate_fixture.h"
#include "support/fake_openai.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;
using Server = FakeOpenAi;

constexpr const char* kDecision =
    "---\nstatus: resolved\n---\n# Use SQLite\n\nChosen: SQLite\n\n- one file, no server\n";

class ModelBackendTest : public ConsolidateFixture {
 protected:
  void SetUp() override {
    ConsolidateFixture::SetUp();
    id_ = Stage(
        R"({"source":{"session_id":"s1","range":[3,7]},"decisions":[{"options":["SQLite","Postgres"],"chosen":"SQLite","rationale":"one file"}]})");
  }
  RunResult Consolidate(std::map<std::string, std::optional<std::string>> env = {}) {
    RunOptions o = Opts();
    o.env["ANTHROPIC_API_KEY"] = "test-key";
    for (auto& [k, v] : env) o.env[k] = v;
    return Lore({"consolidate", kRepo, "--foreground", "--flush"}, o);
  }
  Json StatusJson() {
    auto r = Lore({"status", kRepo, "--json"}, Opts());
    return Json::parse(r.out, nullptr, false);
  }
  static Json WriteArgs(const std::string& path, const std::string& content, Json ids) {
    return {{"path", path}, {"content", content}, {"entry_ids", std::move(ids)}};
  }
  // The tool_result blocks of a Messages API request's last user turn.
  static std::vector<Json> LastToolResults(const Server::Request& r) {
    Json msgs = r.json()["messages"];
    std::vector<Json> out;
    if (msgs.empty() || msgs.back()["role"] != "user" || !msgs.back()["content"].is_array())
      return out;
    for (const auto& b : msgs.back()["content"])
      if (b["type"] == "tool_result") out.push_back(b);
    return out;
  }
  static std::string ResultText(const Json& block) {
    if (block["content"].is_string()) return block["content"].get<std::string>();
    std::string s;
    for (const auto& c : block["content"])
      if (c.contains("text")) s += c["text"].get<std::string>();
    return s;
  }

  std::string id_;
};

// --- anthropic ---------------------------------------------------------------

class AnthropicTest : public ModelBackendTest {};

TEST_F(AnthropicTest, ConsolidatesWithNativeToolUseAndCountsTokens) {
  Server server({
      Server::Message(
          "Writing it.",
          {{"memory_write", WriteArgs("memory/decisions/use-sqlite.md", kDecision, {id_})}}, 1000,
          50),
      Server::Message("", {{"finish", {{"summary", "one decision"}}}}, 1200, 10),
  });
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = "
        "\"anthropic\"\nbase_url = \"" +
            server.anthropic_url() + "\"\nmax_retries = 0\n");
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.out << r.err;
  EXPECT_NE(Read("memory/decisions/use-sqlite.md").find("Chosen: SQLite"), std::string::npos);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].path, "/v1/messages");
  EXPECT_EQ(reqs[0].headers["x-api-key"], "test-key");
  EXPECT_EQ(reqs[0].headers["anthropic-version"], "2023-06-01");
  EXPECT_EQ(reqs[0].headers.count("authorization"), 0u);
  Json first = reqs[0].json();
  EXPECT_EQ(first["model"], "claude-sonnet-4-5");  // the provider's default
  EXPECT_TRUE(first["max_tokens"].is_number_integer());
  EXPECT_NE(first["system"].get<std::string>().find("Never infer or invent sources."),
            std::string::npos);
  EXPECT_EQ(first["messages"][0]["role"], "user");
  std::vector<std::string> tools;
  for (const auto& t : first["tools"]) {
    tools.push_back(t["name"].get<std::string>());
    EXPECT_TRUE(t["input_schema"].is_object()) << t;
  }
  EXPECT_EQ(tools, (std::vector<std::string>{"memory_read", "memory_write", "memory_edit",
                                             "memory_search", "knowledge_search", "finish"}));
  // The second request carries the assistant's tool_use and the tool_result.
  Json second = reqs[1].json();
  Json assistant = second["messages"][1];
  EXPECT_EQ(assistant["role"], "assistant");
  EXPECT_EQ(assistant["content"][0]["text"], "Writing it.");
  EXPECT_EQ(assistant["content"][1]["type"], "tool_use");
  EXPECT_EQ(assistant["content"][1]["input"]["path"], "memory/decisions/use-sqlite.md");
  auto results = LastToolResults(reqs[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0]["tool_use_id"], assistant["content"][1]["id"]);
  EXPECT_NE(ResultText(results[0]).find("memory/decisions/use-sqlite.md"), std::string::npos)
      << results[0];
  // 1000 + 50 + 1200 + 10 tokens, in today's record and in status.
  Json st = StatusJson();
  EXPECT_EQ(st["model_usage"]["tokens"], 2260) << st;
  EXPECT_EQ(st["model_usage"]["runs"], 1) << st;
}

TEST_F(AnthropicTest, RetriesBusyAnswersThenSaysWhyInOneLine) {
  Server server(
      {Server::Reply{
           529,
           R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
           false,
           {}},
       Server::Reply{
           429,
           R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})",
           false,
           {}},
       Server::Reply{500, "not json", false, {}}});
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = "
        "\"anthropic\"\nbase_url = \"" +
            server.anthropic_url() + "\"\nmax_retries = 2\nretry_backoff_ms = 10\n");
  auto before = Records();
  auto r = Consolidate();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_NE(
      (r.out + r.err).find("the Anthropic endpoint answered HTTP 500: not json (after 3 attempts)"),
      std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 0) << r.out << r.err;
  EXPECT_EQ(Records(), before);  // nothing half-written
  EXPECT_EQ(Staged().size(), 1u);
}

TEST_F(AnthropicTest, AMissingKeyNamesTheVariableAndTheWayWithoutOne) {
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = \"anthropic\"\n");
  RunOptions o = Opts();
  o.env["ANTHROPIC_API_KEY"] = std::nullopt;
  auto r = Lore({"consolidate", kRepo, "--foreground", "--flush"}, o);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find("ANTHROPIC_API_KEY holds no Anthropic API key"), std::string::npos)
      << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("llm.provider = \"claude-code\""), std::string::npos)
      << r.out << r.err;
}

TEST_F(AnthropicTest, ARunPastItsTokenBudgetStopsAndTheDayBudgetStopsTheNext) {
  Server server({
      Server::Message("", {{"memory_search", {{"query", "x"}}}}, 5000, 100),
      Server::Message("", {{"finish", {{"summary", "-"}}}}, 10, 10),
  });
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = "
        "\"anthropic\"\nbase_url = \"" +
            server.anthropic_url() +
            "\"\nmax_retries = 0\nmax_tokens_per_run = 4000\n"
            "max_tokens_per_day = 6000\n");
  auto r = Consolidate();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find("the run used 5100 tokens, over its budget of 4000"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(Staged().size(), 1u);
  EXPECT_EQ(StatusJson()["model_usage"]["tokens"], 5100);
  // The day's budget: 5100 used, 6000 allowed; the next request would pass it.
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = "
        "\"anthropic\"\nbase_url = \"" +
            server.anthropic_url() + "\"\nmax_retries = 0\nmax_tokens_per_day = 5000\n");
  r = Consolidate();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find("today's model runs used 5100 tokens, the daily budget of 5000"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(server.requests().size(), 1u);  // not asked at all
}

// --- the recursion guard -----------------------------------------------------

TEST_F(ModelBackendTest, AHookInsideAModelRunDoesNothing) {
  RunOptions o = Opts(R"({"session_id":"abc","transcript_path":"/nonexistent","cwd":"/tmp",)"
                      R"("hook_event_name":"SessionStart","source":"startup"})");
  o.env["LORE_MODEL_RUN"] = "1";
  for (const char* event : {"session-start", "stop", "session-end", "pre-compact"}) {
    auto r = Lore({"hook", event}, o);
    EXPECT_EQ(r.exit_code, 0) << event;
    EXPECT_EQ(r.out, "") << event;
    EXPECT_EQ(r.err, "") << event;
  }
}

// lore-llm holds extract/.model-run.lock for a whole model run: status says so.
TEST_F(ModelBackendTest, StatusSaysWhenAModelRunHoldsTheStore) {
  EXPECT_EQ(StatusJson()["model_usage"]["running"], false);
  Write("extract/.model-run.lock", "");
  int fd = ::open(Path("extract/.model-run.lock").c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  EXPECT_EQ(StatusJson()["model_usage"]["running"], true);
  auto text = Lore({"status", kRepo}, Opts());
  EXPECT_NE(text.out.find("model run: running"), std::string::npos) << text.out;
  ::close(fd);
  EXPECT_EQ(StatusJson()["model_usage"]["running"], false);
}

// --- claude-code through the real CLI ------------------------------------------

class ClaudeCodeTest : public ModelBackendTest {
 protected:
  void SetUp() override {
    claude_ = ClaudeBinary();
    LORE_REQUIRE_CLAUDE(claude_);
    ModelBackendTest::SetUp();
  }
  void ConfigureClaude(const Server& server, const std::string& extra = "", int timeout_s = 120) {
    Write("config.toml",
          "[memory.consolidation]\nengine = \"llm\"\nmax_lint_failures = 2\n\n"
          "[llm]\nprovider = \"claude-code\"\nclaude_command = \"" +
              claude_ + "\"\nmax_turns = 8\nrun_timeout_seconds = " + std::to_string(timeout_s) +
              "\n" + extra);
    env_ = ClaudeEnv(server.anthropic_url());
  }
  std::string claude_;
  std::map<std::string, std::optional<std::string>> env_;
};

TEST_F(ClaudeCodeTest, ConsolidatesThroughLoresToolsAndFixesARefusedWrite) {
  Server server({
      // A decision without its fields: the linter refuses it, nothing is written.
      Server::Message(
          "", {{"mcp__lore_run__memory_write",
                WriteArgs("memory/decisions/use-sqlite.md", "---\nsources: []\n---\nx\n", {id_})}}),
      Server::Message("", {{"mcp__lore_run__memory_write",
                            WriteArgs("memory/decisions/use-sqlite.md", kDecision, {id_})}}),
      Server::Message("", {{"mcp__lore_run__finish", {{"summary", "one decision"}}}}),
      Server::Message("Done."),
  });
  ConfigureClaude(server);
  auto r = Consolidate(env_);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.out << r.err;
  EXPECT_NE(Read("memory/decisions/use-sqlite.md").find("Chosen: SQLite"), std::string::npos);
  EXPECT_TRUE(Staged().empty());
  auto reqs = server.main_requests();
  ASSERT_GE(reqs.size(), 3u);
  Json first = reqs[0].json();
  // Only lore's run tools are offered: no built-in tool of Claude Code.
  // Offered whole (not behind Claude Code's tool search), and nothing else.
  std::set<std::string> tools;
  for (const auto& t : first["tools"]) tools.insert(t["name"].get<std::string>());
  EXPECT_EQ(tools,
            (std::set<std::string>{"mcp__lore_run__memory_read", "mcp__lore_run__memory_write",
                                   "mcp__lore_run__memory_edit", "mcp__lore_run__memory_search",
                                   "mcp__lore_run__knowledge_search", "mcp__lore_run__finish"}));
  EXPECT_NE(first.dump().find("Never infer or invent sources."), std::string::npos);
  // The refusal reached the model as an error result.
  auto results = LastToolResults(reqs[1]);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].value("is_error", false), true) << results[0];
  Json st = StatusJson();
  EXPECT_GT(st["model_usage"]["tokens"].get<int64_t>(), 0) << st;
}

// The user's own settings (their hooks) and MCP servers are not loaded in a
// model run, and the run leaves no session behind in ~/.claude/projects.
TEST_F(ClaudeCodeTest, TheUsersHooksAndServersStayOutOfTheRun) {
  const std::string marker = t_ / "hook-ran";
  t_.Write(
      "home/.claude/settings.json",
      Json{{"hooks",
            {{"SessionStart",
              {{{"hooks", {{{"type", "command"}, {"command", "touch " + marker}}}}}}},
             {"Stop", {{{"hooks", {{{"type", "command"}, {"command", "touch " + marker}}}}}}}}}}
          .dump());
  t_.Write("home/.claude.json",
           Json{{"mcpServers", {{"theirs", {{"type", "stdio"}, {"command", "/bin/cat"}}}}}}.dump());
  Server server({
      Server::Message("", {{"mcp__lore_run__finish", {{"summary", "-"}}}}),
      Server::Message("Done."),
  });
  ConfigureClaude(server);
  auto r = Consolidate(env_);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_FALSE(std::filesystem::exists(marker));
  auto reqs = server.main_requests();
  ASSERT_GE(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].body.find("mcp__theirs"), std::string::npos);
  std::error_code ec;
  EXPECT_FALSE(std::filesystem::exists(t_ / "home/.claude/projects", ec) &&
               !std::filesystem::is_empty(t_ / "home/.claude/projects", ec));
}

TEST_F(ClaudeCodeTest, TooManyRefusedWritesAbortAndNothingIsKept) {
  const Json bad = WriteArgs("memory/decisions/x.md", "---\nsources: []\n---\nx\n", {id_});
  Server server({
      Server::Message("", {{"mcp__lore_run__memory_write", bad}}),
      Server::Message("", {{"mcp__lore_run__memory_write", bad}}),
      Server::Message("", {{"mcp__lore_run__memory_write", bad}}),
      Server::Message("Done."),
  });
  ConfigureClaude(server);
  auto before = Records();
  auto r = Consolidate(env_);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("aborted after 2 refused writes"), std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged().size(), 1u);
}

TEST_F(ClaudeCodeTest, ABudgetStopKillsTheRun) {
  Server server({
      Server::Message("", {{"mcp__lore_run__memory_search", {{"query", "x"}}}}, 90000, 100),
      Server::Message("", {{"mcp__lore_run__finish", {{"summary", "-"}}}}),
      Server::Message("Done."),
  });
  ConfigureClaude(server, "max_tokens_per_run = 50000\n");
  auto r = Consolidate(env_);
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("over its budget of 50000"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(Staged().size(), 1u);
}

// A model that never answers: claude waits, lore does not wait past
// llm.run_timeout_seconds; the run is killed with everything it started.
TEST_F(ClaudeCodeTest, AHangingModelIsCutAtTheRunTimeout) {
  Server server({FakeOpenAi::Reply{200, "", true}, FakeOpenAi::Reply{200, "", true}});
  ConfigureClaude(server, "", 10);
  auto before = Records();
  const auto start = std::chrono::steady_clock::now();
  auto r = Consolidate(env_);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find("claude did not finish within 10 seconds"), std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged().size(), 1u);
}

TEST_F(ModelBackendTest, AClaudeThatCannotRunIsOneLineNamingTheRepair) {
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = "
        "\"claude-code\"\nclaude_command = \"/nonexistent/claude\"\n");
  auto r = Consolidate();
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE((r.out + r.err).find("cannot run /nonexistent/claude"), std::string::npos)
      << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("llm.claude_command"), std::string::npos) << r.out << r.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
