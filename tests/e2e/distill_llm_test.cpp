// `lore distill --llm`: index.md's body written by a model through lore-llm,
// against the scripted OpenAI-compatible server (docs/distill.md).
#include <gtest/gtest.h>

#include <string>

#include "support/consolidate_fixture.h"
#include "support/fake_openai.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

using Json = nlohmann::json;

class DistillLlmTest : public ConsolidateFixture {
 protected:
  void SetUp() override {
    ConsolidateFixture::SetUp();
    Append("Never log the API key");
  }
  void Append(const std::string& finding) {
    auto r = Lore({"append-review", kRepo},
                  Opts(R"({"ticket":"T-1","severity":"major","finding":")" + finding + "\"}"));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  void Configure(const std::string& base_url, int failures = 3) {
    Write("config.toml",
          "[memory]\nconsolidation_model = \"test-model\"\n\n"
          "[memory.consolidation]\nmax_lint_failures = " +
              std::to_string(failures) + "\n\n[llm]\nbase_url = \"" + base_url +
              "\"\napi_key_env = \"LORE_TEST_LLM_KEY\"\ntimeout_seconds = 5\n"
              "max_retries = 1\nretry_backoff_ms = 10\n");
  }
  RunResult Distill(bool llm = true) {
    RunOptions o = Opts();
    o.env["LORE_TEST_LLM_KEY"] = "secret-key";
    std::vector<std::string> args{"distill", kRepo};
    if (llm) args.push_back("--llm");
    return Lore(args, o);
  }
  // index.md's frontmatter as the deterministic distiller writes it.
  std::string Frontmatter() {
    EXPECT_EQ(Distill(false).exit_code, 0);
    std::string index = Read("okf/index.md");
    return index.substr(0, index.find("\n---\n") + 5);
  }
};

TEST_F(DistillLlmTest, TheModelWritesTheDigestAndLoreKeepsTheFrontmatter) {
  const std::string head = Frontmatter();
  const std::string gotchas = Read("okf/gotchas.md");
  FakeOpenAi server({FakeOpenAi::Text(
      "\n# app memory\n\n- Never log the API key: see [Gotchas](gotchas.md).\n\n")});
  Configure(server.base_url());
  auto r = Distill();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("distilled 1 raw record", 0), 0u) << r.out;
  EXPECT_EQ(Read("okf/index.md"),
            head + "# app memory\n\n- Never log the API key: see [Gotchas](gotchas.md).\n");
  EXPECT_EQ(Read("okf/gotchas.md"), gotchas);  // topic pages stay deterministic
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  Json body = requests[0].json();
  EXPECT_EQ(body["model"], "test-model");
  EXPECT_FALSE(body.contains("tools"));
  EXPECT_EQ(requests[0].headers["authorization"], "Bearer secret-key");
  std::string user = body["messages"][1]["content"].get<std::string>();
  EXPECT_NE(user.find("=== gotchas.md\n"), std::string::npos);
  EXPECT_NE(user.find("Never log the API key"), std::string::npos);
}

TEST_F(DistillLlmTest, ABrokenRuleIsSentBackAndTheFixedDigestLands) {
  const std::string head = Frontmatter();
  std::string too_long = "# app\n";
  for (int i = 0; i < 70; ++i) too_long += "- line " + std::to_string(i) + "\n";
  FakeOpenAi server({FakeOpenAi::Text(too_long),
                     FakeOpenAi::Text("# app\n\nSee [notes](../raw.jsonl).\n"),
                     FakeOpenAi::Text("# app\n\nSee [Gotchas](gotchas.md).\n")});
  Configure(server.base_url());
  auto r = Distill();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Read("okf/index.md"), head + "# app\n\nSee [Gotchas](gotchas.md).\n");
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  Json second = requests[1].json()["messages"];
  EXPECT_NE(
      second.back()["content"].get<std::string>().find("lines with the frontmatter; at most 60"),
      std::string::npos)
      << second.dump();
  Json third = requests[2].json()["messages"];
  EXPECT_NE(third.back()["content"].get<std::string>().find(
                "it links to '../raw.jsonl', which is not a page of the bundle"),
            std::string::npos)
      << third.dump();
}

TEST_F(DistillLlmTest, RepeatedBrokenRulesLeaveTheBundleAsItWas) {
  ASSERT_EQ(Distill(false).exit_code, 0);
  const std::string before = Read("okf/index.md");
  FakeOpenAi server({FakeOpenAi::Text("---\ntitle: mine\n---\n"), FakeOpenAi::Text(""),
                     FakeOpenAi::Text("[x](https://example.com)")});
  Configure(server.base_url(), 3);
  Append("okf-marker");  // a new raw record: a successful run would change index.md
  auto r = Distill();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the model's digest broke the rules 3 times (last: the digest breaks a "
                       "rule: it links to 'https://example.com', which is not a page of the "
                       "bundle): " +
                       Path("okf/index.md") + "; okf/ is unchanged"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(Read("okf/index.md"), before);
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(DistillLlmTest, AnUnreachableEndpointIsAClearErrorAndChangesNothing) {
  ASSERT_EQ(Distill(false).exit_code, 0);
  const std::string before = Read("okf/index.md");
  int port;
  {
    FakeOpenAi gone({});
    port = std::stoi(gone.base_url().substr(17));
  }
  Configure("http://127.0.0.1:" + std::to_string(port) + "/v1");
  Append("unreachable");
  auto r = Distill();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("check llm.base_url in config.toml and that the server is running"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(Read("okf/index.md"), before);
}

TEST_F(DistillLlmTest, NoModelIsAConfigurationError) {
  Write("config.toml", "[llm]\nprovider = \"openai\"\n");
  auto r = Distill();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "lore: memory.consolidation_model is not set: " + Path("config.toml") +
                       "; set memory.consolidation_model to the model's name (or run 'lore "
                       "distill' without --llm)\n")
      << r.err;
  EXPECT_FALSE(Exists("okf/gotchas.md"));
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
