// lore_llm's unit tests (linked against the lore_llm library and libcurl):
// the answers the back ends accept, the budgets, and one real exchange over
// HTTP with a scripted OpenAI-compatible server.
#include "lore/llm/model.h"

#include <gtest/gtest.h>

#include "llm/backends.h"
#include "lore/llm/http.h"
#include "support/fake_openai.h"

namespace lore::llm {
namespace {

constexpr const char* kUrl = "http://127.0.0.1:1/v1/chat/completions";

TEST(LlmCompletion, TheFirstChoiceItsToolCallsAndUsage) {
  auto r = ParseCompletion(R"({"choices":[{"message":{"content":"done","tool_calls":[
      {"id":"c1","type":"function","function":{"name":"write_record","arguments":"{\"slug\":\"a\"}"}}]}}],
      "usage":{"prompt_tokens":30,"completion_tokens":7}})",
                           kUrl);
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->text, "done");
  ASSERT_EQ(r->calls.size(), 1u);
  EXPECT_EQ(r->calls[0].id, "c1");
  EXPECT_EQ(r->calls[0].name, "write_record");
  EXPECT_EQ(r->calls[0].arguments, R"({"slug":"a"})");
  EXPECT_EQ(r->usage.input, 30);
  EXPECT_EQ(r->usage.output, 7);
}

TEST(LlmCompletion, WhatIsNoCompletionNamesTheEndpointAndTheSetting) {
  for (const char* body :
       {"<html>502</html>", R"({"choices":[]})", R"({"choices":[{"message":{"content":3}}]})",
        R"({"choices":[{"message":{"tool_calls":[{"id":"c1"}]}}]})"}) {
    auto r = ParseCompletion(body, kUrl);
    ASSERT_FALSE(r) << body;
    EXPECT_EQ(r.error().code, ErrorCode::kUnavailable);
    EXPECT_EQ(r.error().path, kUrl);
    EXPECT_NE(r.error().repair.find("llm.base_url"), std::string::npos) << r.error().Format();
  }
}

TEST(LlmMessage, TextToolUseAndUsageOfAMessagesAnswer) {
  auto r = ParseMessage(R"({"content":[{"type":"text","text":"ok"},
      {"type":"tool_use","id":"t1","name":"read_record","input":{"slug":"b"}}],
      "stop_reason":"tool_use","usage":{"input_tokens":11,"output_tokens":4}})",
                        "http://127.0.0.1:1/v1/messages");
  ASSERT_TRUE(r) << r.error().Format();
  EXPECT_EQ(r->text, "ok");
  ASSERT_EQ(r->calls.size(), 1u);
  EXPECT_EQ(r->calls[0].name, "read_record");
  EXPECT_EQ(Json::parse(r->calls[0].arguments), Json::parse(R"({"slug":"b"})"));
  EXPECT_EQ(r->usage.total(), 15);
}

TEST(LlmBudget, TheRunsAndTheDaysBudgetsStopARun) {
  ModelSettings s;
  s.config_path = "/store/config.toml";
  Usage used;
  used.input = 90;
  used.output = 20;
  EXPECT_FALSE(BudgetError(s, used)) << "0 is no limit";
  s.max_tokens_per_run = 100;
  auto run = BudgetError(s, used);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->path, "/store/config.toml");
  EXPECT_NE(run->repair.find("llm.max_tokens_per_run"), std::string::npos);
  s.max_tokens_per_run = 0;
  s.max_tokens_per_day = 1000;
  s.day_tokens_before = 880;
  EXPECT_FALSE(BudgetError(s, used)) << "990 of 1000";
  s.day_tokens_before = 890;
  auto day = BudgetError(s, used);
  ASSERT_TRUE(day);
  EXPECT_NE(day->repair.find("llm.max_tokens_per_day"), std::string::npos);
}

// The OpenAI back end over real HTTP (libcurl): a 503 is retried, the key
// is sent as a bearer token, and the answer's usage is added up.
TEST(LlmOpenAi, AskedOverHttpRetryingAServerError) {
  InitHttp();
  testing::FakeOpenAi server({
      {503, R"({"error":"busy"})"},
      {200, R"({"choices":[{"message":{"content":"a summary"}}],
                "usage":{"prompt_tokens":12,"completion_tokens":3}})"},
  });
  ModelSettings s;
  s.provider = "openai";
  s.base_url = server.base_url();
  s.model = "small-model";
  s.api_key = "sk-test";
  s.max_retries = 1;
  s.backoff = std::chrono::milliseconds(1);
  s.timeout = std::chrono::milliseconds(5000);
  auto model = MakeModel(s);
  ASSERT_TRUE(model) << model.error().Format();
  Turn ask;
  ask.text = "Summarise the session.";
  auto reply = (*model)->Complete("You write summaries.", {ask}, {});
  ASSERT_TRUE(reply) << reply.error().Format();
  EXPECT_EQ(reply->text, "a summary");
  EXPECT_EQ((*model)->requests(), 2);
  EXPECT_EQ((*model)->used().total(), 15);
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].path, "/v1/chat/completions");
  EXPECT_EQ(requests[1].headers["authorization"], "Bearer sk-test");
  const auto body = requests[1].json();
  EXPECT_EQ(body["model"], "small-model");
  EXPECT_EQ(body["messages"][0]["role"], "system");
  EXPECT_EQ(body["messages"][1]["content"], "Summarise the session.");
}

TEST(LlmOpenAi, AnUnreachableEndpointIsUnavailableNamingIt) {
  InitHttp();
  ModelSettings s;
  s.provider = "openai";
  s.base_url = "http://127.0.0.1:1/v1";
  s.max_retries = 0;
  s.connect_timeout = std::chrono::milliseconds(2000);
  auto model = MakeModel(s);
  ASSERT_TRUE(model) << model.error().Format();
  Turn ask;
  ask.text = "hello";
  auto reply = (*model)->Complete("", {ask}, {});
  ASSERT_FALSE(reply);
  EXPECT_EQ(reply.error().code, ErrorCode::kUnavailable);
  EXPECT_NE(reply.error().Format().find("127.0.0.1:1"), std::string::npos)
      << reply.error().Format();
}

}  // namespace
}  // namespace lore::llm
