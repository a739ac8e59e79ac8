// Black-box tests of `lore extract --engine llm` (lore execs lore-llm)
// against the scripted OpenAI-compatible server: a valid answer, an answer
// fixed on retry, too many bad answers and a server that never answers.
// Whatever fails, nothing is staged and the cursor does not move.
#include <gtest/gtest.h>

#include "support/claude_cli.h"
#include "support/extract_fixture.h"
#include "support/fake_openai.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;
using Reply = FakeOpenAi::Reply;

constexpr const char* kLists =
    R"({"requests":[{"intent":"Add a 30 second leeway","target":"src/middleware/session.ts","summary":"Add a 30 second leeway and a test for it."}],)"
    R"("attempts":[{"action":"npm install --save-dev @types/jsonwebtoken@9","result":"npm ERR! code ERESOLVE","succeeded":false}],)"
    R"("source":{"session_id":"invented","range":[900,901]}})";

class ExtractLlmTest : public ExtractFixture {
 protected:
  void SetUp() override {
    ExtractFixture::SetUp();
    WriteTranscript(Fixture("review.jsonl"));
  }
  void Configure(const std::string& base_url, int failures = 3, int timeout_s = 5) {
    Write("config.toml",
          "[memory]\nextract_model = \"extract-model\"\nconsolidation_model = \"other\"\n\n"
          "[memory.consolidation]\nmax_lint_failures = " +
              std::to_string(failures) + "\n\n[llm]\nbase_url = \"" + base_url +
              "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = " +
              std::to_string(timeout_s) + "\nmax_retries = 0\nretry_backoff_ms = 10\n");
  }
  RunResult ExtractLlm() {
    return Extract({"--engine", "llm"}, false, {{"LORE_TEST_LLM_KEY", "secret-key"}});
  }
  void ExpectNothingStaged(const RunResult& r) {
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(Staged().empty());
    EXPECT_FALSE(Exists("extract/c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003.json"));
  }
};

TEST_F(ExtractLlmTest, AValidAnswerIsStagedWithLoresSource) {
  FakeOpenAi server({FakeOpenAi::Text(kLists)});
  Configure(server.base_url());
  Json line = Line(ExtractLlm());
  EXPECT_EQ(line["status"], "staged");
  Json e = Entry(line["staged_id"]);
  EXPECT_EQ(e["source"]["session_id"], "c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003");
  EXPECT_EQ(e["source"]["range"], Json::array({1, 21}));  // never the model's
  EXPECT_EQ(e["requests"][0]["intent"], "Add a 30 second leeway");
  EXPECT_EQ(e["attempts"][0]["succeeded"], false);
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 1u);
  Json body = reqs[0].json();
  EXPECT_EQ(body["model"], "extract-model");  // memory.extract_model wins
  EXPECT_EQ(reqs[0].headers["authorization"], "Bearer secret-key");
  std::string user = body["messages"][1]["content"].get<std::string>();
  EXPECT_NE(user.find("person: How does the session middleware decide"), std::string::npos) << user;
  EXPECT_NE(user.find("tool Bash: npm install"), std::string::npos);
  EXPECT_EQ(user.find("expired();"), std::string::npos) << "a Grep result's contents";
  EXPECT_EQ(Line(ExtractLlm())["status"], "nothing-new");  // the cursor moved
}

TEST_F(ExtractLlmTest, ASchemaBreakingAnswerIsSentBackAndFixed) {
  FakeOpenAi server({FakeOpenAi::Text(R"({"attempts":[{"action":"npm install","result":"x"}]})"),
                     FakeOpenAi::Text(std::string("```json\n") + kLists + "\n```")});
  Configure(server.base_url());
  Json line = Line(ExtractLlm());
  EXPECT_EQ(line["status"], "staged");
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  Json msgs = reqs[1].json()["messages"];
  std::string refusal = msgs.back()["content"].get<std::string>();
  EXPECT_NE(refusal.find("attempts[0].succeeded"), std::string::npos) << refusal;
}

TEST_F(ExtractLlmTest, TooManyBadAnswersStageNothing) {
  FakeOpenAi server({FakeOpenAi::Text("Sure, here is a summary."), FakeOpenAi::Text("[]"),
                     FakeOpenAi::Text(R"({"requests":[{"intent":""}]})")});
  Configure(server.base_url(), 3);
  auto r = ExtractLlm();
  ExpectNothingStaged(r);
  EXPECT_NE(r.err.find("refused 3 times"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests().size(), 3u);
  // The model's failure is recorded as the rules engine's is: lore status and the
  // next session say memory may be stale, with the session and the reason.
  auto status =
      nlohmann::json::parse(Lore({"status", kRepo, "--json"}, Opts()).out, nullptr, false);
  EXPECT_EQ(status["failed_extract"]["session_id"], "c05e8d21-7f44-4b1a-a3c9-0e6f1d2b3003")
      << status.dump();
  EXPECT_NE(status["failed_extract"]["error"].dump().find("refused 3 times"), std::string::npos);
}

TEST_F(ExtractLlmTest, AHangingServerTimesOutAndStagesNothing) {
  FakeOpenAi server({Reply{200, "", true}});
  Configure(server.base_url(), 3, 1);
  auto started = std::chrono::steady_clock::now();
  auto r = ExtractLlm();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(20));
  ExpectNothingStaged(r);
}

TEST_F(ExtractLlmTest, NoModelConfiguredSaysHowToDoWithout) {
  auto r = ExtractLlm();
  ExpectNothingStaged(r);
  EXPECT_NE(r.err.find("--engine rules"), std::string::npos) << r.err;
}

// Phase 1 through the user's own Claude Code (llm.provider = "claude-code"):
// no key, no tool, the digest on standard input, the answer staged.
TEST_F(ExtractLlmTest, ThroughClaudeCodeWithTheUsersLogin) {
  const std::string claude = ClaudeBinary();
  LORE_REQUIRE_CLAUDE(claude);
  FakeOpenAi server({FakeOpenAi::Message(kLists)});
  Write("config.toml", "[llm]\nprovider = \"claude-code\"\nclaude_command = \"" + claude + "\"\n");
  Json line = Line(Extract({"--engine", "llm"}, false, ClaudeEnv(server.anthropic_url())));
  EXPECT_EQ(line["status"], "staged");
  Json e = Entry(line["staged_id"]);
  EXPECT_EQ(e["source"]["range"], Json::array({1, 21}));
  EXPECT_EQ(e["requests"][0]["intent"], "Add a 30 second leeway");
  auto reqs = server.main_requests();
  ASSERT_EQ(reqs.size(), 1u);
  const std::string body = reqs[0].body;
  EXPECT_NE(body.find("person: How does the session middleware decide"), std::string::npos);
  EXPECT_NE(body.find("tool Bash: npm install"), std::string::npos);
  EXPECT_EQ(body.find("\"name\":\"Bash\""), std::string::npos) << "no built-in tool offered";
  // lore status tells the last extraction and what the model used today.
  Json st = Json::parse(Lore({"status", kRepo, "--json"}, Opts()).out);
  EXPECT_EQ(st["last_extract"]["engine"], "llm") << st;
  EXPECT_EQ(st["last_extract"]["outcome"], "staged") << st;
  EXPECT_GT(st["model_usage"]["tokens"].get<int64_t>(), 0) << st;
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
