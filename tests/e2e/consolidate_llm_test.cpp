// Black-box tests of the LLM engine: `lore consolidate --engine llm` (which
// replaces itself with lore-llm) against a scripted OpenAI-compatible server
// on a loopback port.
#include <gtest/gtest.h>

#include <regex>

#include "support/consolidate_fixture.h"
#include "support/fake_openai.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;
using Reply = FakeOpenAi::Reply;

constexpr const char* kDecision =
    "---\nstatus: resolved\n---\n# Use SQLite\n\nChosen: SQLite\n\n- one file, no server\n";

class LlmEngineTest : public ConsolidateFixture {
 protected:
  void SetUp() override {
    ConsolidateFixture::SetUp();
    Write("memory/summary.md",
          "---\nupdated_at: 2026-11-01T09:00:00Z\n---\n# Summary\n\nExisting summary line.\n");
    Write("memory/decisions/make-or-ninja.md",
          "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nstatus: "
          "resolved\n"
          "sources:\n  - session_id: s0\n    range: [1, 2]\n---\nChosen: ninja\n\n- old reason\n");
    Write("knowledge/storage.md",
          "---\ncreated_at: 2026-11-01T09:00:00Z\nupdated_at: 2026-11-01T09:00:00Z\nkind: rule\n"
          "description: How records are stored\nmodel_invokation: false\nuser_invocable: true\n"
          "last_sources: []\n---\nKNOWLEDGE-BODY-NOT-IN-PROMPT\n");
    Write("memory/workflow/release.md",
          "---\nupdated_at: 2026-11-01T09:00:00Z\ndescription: Release\nauto_invoke: false\n"
          "user_invocable: true\nrequires: []\n---\n1. Tag.\n");
    id_ = Stage(
        R"({"source":{"session_id":"s1","range":[3,7]},"decisions":[{"options":["SQLite","Postgres"],"chosen":"SQLite","rationale":"one file"}]})");
  }
  void Configure(const std::string& base_url, int failures = 3, int timeout_s = 5) {
    Write("config.toml",
          "[memory]\nconsolidation_model = \"test-model\"\n\n[memory.consolidation]\n"
          "engine = \"llm\"\nmax_lint_failures = " +
              std::to_string(failures) + "\n\n[llm]\nbase_url = \"" + base_url +
              "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = " +
              std::to_string(timeout_s) +
              "\nmax_retries = 1\nretry_backoff_ms = 10\nmax_turns = 12\n");
  }
  RunResult Consolidate() {
    RunOptions o = Opts();
    o.env["LORE_TEST_LLM_KEY"] = "secret-key";
    return Lore({"consolidate", kRepo, "--foreground", "--flush"}, o);
  }
  static Json WriteArgs(const std::string& path, const std::string& content, Json ids) {
    return {{"path", path}, {"content", content}, {"entry_ids", std::move(ids)}};
  }
  // The content of the tool message answering call `n` (1-based) of `request`.
  static std::string ToolResult(const FakeOpenAi::Request& request, int n = 1) {
    Json msgs = request.json()["messages"];
    for (const auto& m : msgs) {
      if (m["role"] == "tool" && m["tool_call_id"] == "call_" + std::to_string(n)) {
        return m["content"].get<std::string>();  // the latest such message wins below
      }
    }
    return "";
  }
  // The tool messages of the last turn in `request`.
  static std::vector<std::string> LastToolResults(const FakeOpenAi::Request& request) {
    std::vector<std::string> out;
    Json msgs = request.json()["messages"];
    for (auto it = msgs.rbegin(); it != msgs.rend() && (*it)["role"] == "tool"; ++it) {
      out.insert(out.begin(), (*it)["content"].get<std::string>());
    }
    return out;
  }

  std::string id_;
};

TEST_F(LlmEngineTest, AModelWritesADecisionAndEditsAnother) {
  FakeOpenAi server({
      FakeOpenAi::Calls(
          {{"memory_search", {{"query", "ninja"}}},
           {"knowledge_search", {{"query", "how records are stored"}}},
           {"memory_write", WriteArgs("memory/decisions/use-sqlite.md", kDecision, {id_})}}),
      FakeOpenAi::Calls({{"memory_edit",
                          {{"path", "memory/decisions/make-or-ninja.md"},
                           {"old_string", "- old reason"},
                           {"new_string", "- old reason\n- still fast"},
                           {"entry_ids", {id_}}}}}),
      FakeOpenAi::Calls({{"finish", {{"summary", "one decision"}}}}),
  });
  Configure(server.base_url());
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(llm): consumed 1 entry, changed 2 files\n"), std::string::npos) << r.out;
  EXPECT_TRUE(Staged().empty());

  std::string written = Read("memory/decisions/use-sqlite.md");
  std::regex shape(
      "---\ncreated_at: (\\S+Z)\nupdated_at: \\1\nstatus: resolved\nsources:\n  - session_id: s1\n"
      "    range: \\[3, 7\\]\n---\n# Use SQLite\n\nChosen: SQLite\n\n- one file, no server\n");
  EXPECT_TRUE(std::regex_match(written, shape)) << written;
  std::string edited = Read("memory/decisions/make-or-ninja.md");
  EXPECT_NE(edited.find("created_at: 2026-11-01T09:00:00Z\n"), std::string::npos) << edited;
  EXPECT_NE(edited.find("sources:\n  - session_id: s0\n    range: [1, 2]\n  - session_id: s1\n    "
                        "range: [3, 7]\n"),
            std::string::npos)
      << edited;
  EXPECT_NE(edited.find("- old reason\n- still fast\n"), std::string::npos);

  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  EXPECT_EQ(reqs[0].method, "POST");
  EXPECT_EQ(reqs[0].path, "/v1/chat/completions");
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer secret-key");
  Json first = reqs[0].json();
  EXPECT_EQ(first["model"], "test-model");
  std::vector<std::string> tools;
  for (const auto& t : first["tools"]) tools.push_back(t["function"]["name"].get<std::string>());
  EXPECT_EQ(tools, (std::vector<std::string>{"memory_read", "memory_write", "memory_edit",
                                             "memory_search", "knowledge_search", "finish"}));
  std::string system = first["messages"][0]["content"].get<std::string>();
  std::string user = first["messages"][1]["content"].get<std::string>();
  EXPECT_NE(system.find("Never infer or invent sources."), std::string::npos);
  EXPECT_NE(user.find("\"id\": \"" + id_ + "\""), std::string::npos) << user;
  EXPECT_NE(user.find("=== memory/summary.md ===\n---\nupdated_at: 2026-11-01T09:00:00Z\n"),
            std::string::npos);
  EXPECT_NE(user.find("=== memory/decisions/make-or-ninja.md ==="), std::string::npos);
  EXPECT_EQ(user.find("KNOWLEDGE-BODY-NOT-IN-PROMPT"),
            std::string::npos);  // knowledge is searched, not injected
  EXPECT_EQ(user.find("memory/workflow"), std::string::npos);
  EXPECT_NE(user.find("## Knowledge-candidate report\n\n[]\n"), std::string::npos);
  // The tool results the model saw.
  auto results = LastToolResults(reqs[1]);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(Json::parse(results[0])[0]["slug"], "make-or-ninja")
      << results[0];  // search shape {slug, kind, excerpt}
  EXPECT_EQ(Json::parse(results[1])[0]["slug"], "storage") << results[1];
  EXPECT_EQ(Json::parse(results[1])[0]["description"], "How records are stored");
  EXPECT_EQ(
      results[2],
      R"({"ok":true,"path":"memory/decisions/use-sqlite.md","sources":[{"session_id":"s1","range":[3,7]}]})");
}

TEST_F(LlmEngineTest, ALintFailureIsReturnedAndTheFixedWriteLands) {
  FakeOpenAi server({
      FakeOpenAi::Calls(
          {{"memory_write", WriteArgs("memory/decisions/use-sqlite.md",
                                      "---\nstatus: maybe\n---\nChosen: SQLite\n", {id_})}}),
      FakeOpenAi::Calls(
          {{"memory_write", WriteArgs("memory/decisions/use-sqlite.md", kDecision, {id_})}}),
      FakeOpenAi::Calls({{"finish", Json::object()}}),
  });
  Configure(server.base_url());
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 3u);
  Json refused = Json::parse(LastToolResults(reqs[1]).at(0));
  EXPECT_EQ(refused["error"],
            "the linter refused the write; nothing was written and this turn was rolled back");
  ASSERT_TRUE(refused["findings"].is_array());
  EXPECT_NE(refused["findings"][0].get<std::string>().find("status"), std::string::npos) << refused;
  EXPECT_EQ(Json::parse(LastToolResults(reqs[2]).at(0))["ok"], true);
  EXPECT_NE(Read("memory/decisions/use-sqlite.md").find("status: resolved\n"), std::string::npos);
}

TEST_F(LlmEngineTest, NRefusedWritesAbortTheRunWithNothingChanged) {
  auto before = Records();
  std::string bad =
      "---\nstatus: resolved\n---\n" + std::string(9000, 'x') + "\n";  // body too long
  FakeOpenAi server({
      FakeOpenAi::Calls(
          {{"memory_write", WriteArgs("memory/decisions/good.md", kDecision, {id_})}}),
      FakeOpenAi::Calls({{"memory_write", WriteArgs("memory/decisions/bad.md", bad, {id_})}}),
      FakeOpenAi::Calls({{"memory_write", WriteArgs("memory/decisions/bad.md", bad, {id_})}}),
      FakeOpenAi::Calls({{"memory_write", WriteArgs("memory/decisions/bad.md", bad, {id_})}}),
      FakeOpenAi::Calls({{"finish", Json::object()}}),
  });
  Configure(server.base_url(), 3);
  auto r = Consolidate();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("(llm) failed, nothing changed, 1 entry kept: the LLM run was aborted after "
                       "3 refused writes"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(server.requests().size(), 4u);
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged(), std::vector<std::string>{id_});
  EXPECT_EQ(Status()["last_run"]["outcome"], "failed");
}

TEST_F(LlmEngineTest, ForbiddenWritesAreEachRefused) {
  auto before = Records();
  const std::string knowledge =
      "---\nkind: rule\ndescription: x\nmodel_invokation: false\nuser_invocable: true\n---\nNew "
      "page.\n";
  struct Attempt {
    std::string tool;
    Json args;
    std::string expect;
  };
  std::vector<Attempt> attempts = {
      {"memory_write",
       WriteArgs("memory/decisions/use-sqlite.md",
                 "---\nstatus: resolved\nsources:\n  - session_id: s9\n    range: [1, 1]\n---\nx\n",
                 {id_}),
       "'sources' is written by lore from the entries named in entry_ids, never by the model: "
       "leave it out"},
      {"memory_write", WriteArgs("knowledge/new-page.md", knowledge, {id_}),
       "new knowledge may be created only from sources in the knowledge-candidate report, which is "
       "empty"},
      {"memory_write", WriteArgs("memory/workflow/release.md", "---\n---\nx\n", {id_}),
       "memory/workflow/ is written by people only"},
      {"memory_write", WriteArgs("../outside.md", kDecision, {id_}), "'..' is refused"},
      {"memory_write", WriteArgs("memory/decisions/../../../escape.md", kDecision, {id_}),
       "'..' is refused"},
      {"memory_write", WriteArgs(t_ / "absolute.md", kDecision, {id_}),
       "absolute paths are refused"},
      {"memory_edit",
       {{"path", "/etc/hostname"}, {"old_string", "a"}, {"new_string", "b"}, {"entry_ids", {id_}}},
       "absolute paths are refused"},
      {"memory_write",
       WriteArgs("memory/decisions/use-sqlite.md", kDecision,
                 {"01a22be5-a500-7000-8000-000000000009"}),
       "'01a22be5-a500-7000-8000-000000000009' is not one of this run's staged entries"},
      {"memory_write", WriteArgs("memory/decisions/use-sqlite.md", kDecision, Json::array()),
       "name the staged entries this change comes from in entry_ids"},
  };
  std::vector<Reply> script;
  for (const auto& a : attempts) script.push_back(FakeOpenAi::Calls({{a.tool, a.args}}));
  script.push_back(FakeOpenAi::Calls({{"finish", Json::object()}}));
  FakeOpenAi server(script);
  Configure(server.base_url(), 20);
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("consumed 1 entry, changed 0 files"), std::string::npos) << r.out;
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), attempts.size() + 1);
  for (size_t i = 0; i < attempts.size(); ++i) {
    std::string result = LastToolResults(reqs[i + 1]).at(0);
    EXPECT_NE(result.find(attempts[i].expect), std::string::npos) << i << ": " << result;
    EXPECT_NE(result.find("nothing was written and this turn was rolled back"), std::string::npos)
        << result;
  }
  EXPECT_EQ(Records(), before);
  EXPECT_FALSE(std::filesystem::exists(t_ / "absolute.md"));
  EXPECT_FALSE(std::filesystem::exists(Path("../outside.md")));
  EXPECT_FALSE(std::filesystem::exists(t_ / "home/escape.md"));
}

TEST_F(LlmEngineTest, KnowledgeIsCreatedFromACandidateSource) {
  Write(
      "reports/knowledge-candidates.json",
      R"({"candidates":[{"source":{"session_id":"s1","range":[1,5]},"reason":"used 12 times"}]})");
  FakeOpenAi server({
      FakeOpenAi::Calls(
          {{"memory_write",
            WriteArgs(
                "knowledge/sqlite-layout.md",
                "---\nkind: rule\ndescription: Where SQLite keeps things\nmodel_invokation: false\n"
                "user_invocable: true\n---\nOne file.\n",
                {id_})}}),
      FakeOpenAi::Calls({{"finish", Json::object()}}),
  });
  Configure(server.base_url());
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::string page = Read("knowledge/sqlite-layout.md");
  EXPECT_NE(page.find("last_sources:\n  - session_id: s1\n    range: [3, 7]\n"), std::string::npos)
      << page;
  std::string user = server.requests()[0].json()["messages"][1]["content"].get<std::string>();
  EXPECT_NE(user.find(R"([{"source":{"session_id":"s1","range":[1,5]},"reason":"used 12 times"}])"),
            std::string::npos);
}

TEST_F(LlmEngineTest, AHangingServerTimesOutAndChangesNothing) {
  auto before = Records();
  FakeOpenAi server({Reply{200, "", true}, Reply{200, "", true}});
  Configure(server.base_url(), 3, 1);
  auto start = std::chrono::steady_clock::now();
  auto r = Consolidate();
  // Two attempts of one second each, far from the hanging server's forever
  // (generous: sanitizers and a busy machine).
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the LLM endpoint did not answer in time ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" (after 2 attempts): " + server.base_url() +
                       "/chat/completions; check that the server is healthy"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_EQ(Records(), before);
  EXPECT_EQ(Staged(), std::vector<std::string>{id_});
}

TEST_F(LlmEngineTest, GarbageIsAClearError) {
  FakeOpenAi server({Reply{200, "this is not json", false}});
  Configure(server.base_url());
  auto r = Consolidate();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(
      r.out.find(
          "the LLM endpoint's answer is not a chat completion (not valid JSON: unexpected 't': "
          "this is not json): " +
          server.base_url() + "/chat/completions; check llm.base_url in config.toml"),
      std::string::npos)
      << r.out;
  FakeOpenAi wrong({Reply{200, R"({"object":"list","data":[]})", false}});
  Configure(wrong.base_url());
  EXPECT_NE(Consolidate().out.find("is not a chat completion (no choices: "), std::string::npos);
  EXPECT_EQ(Staged(), std::vector<std::string>{id_});
}

TEST_F(LlmEngineTest, AnUnreachableEndpointIsAClearError) {
  int port;
  {
    FakeOpenAi gone({});
    port = gone.port();
  }  // closed: nothing listens there now
  Configure("http://127.0.0.1:" + std::to_string(port) + "/v1");
  auto r = Consolidate();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("cannot reach the LLM endpoint ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; check llm.base_url in config.toml and that the server is running"),
            std::string::npos);
  EXPECT_EQ(Staged(), std::vector<std::string>{id_});
}

TEST_F(LlmEngineTest, ServerErrorsAreRetriedWithBackOff) {
  FakeOpenAi server({Reply{503, R"({"error":"overloaded"})", false},
                     FakeOpenAi::Calls({{"finish", Json::object()}})});
  Configure(server.base_url());
  auto r = Consolidate();
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_TRUE(Staged().empty());
}

TEST_F(LlmEngineTest, AMissingModelIsAConfigurationError) {
  // (claude-code, the default provider, lets claude pick its model; openai needs one.)
  Write("config.toml",
        "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = \"openai\"\n");
  auto r = Consolidate();
  EXPECT_EQ(r.exit_code, 1);
  // Refused before any run starts: a setting, not a failed run.
  EXPECT_NE(
      r.err.find("memory.consolidation_model is not set: " + Path("config.toml") +
                 "; set memory.consolidation_model to the model's name (or use --engine rules)"),
      std::string::npos)
      << r.out << r.err;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
