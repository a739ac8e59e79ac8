// An OpenAI-compatible chat-completions client with tool calling:
// POST <base_url>/chat/completions {model, messages, tools, tool_choice}.
// Network failures, timeouts, HTTP 429 and 5xx are retried with exponential
// back-off; any other answer that is not a chat completion is an error that
// names the endpoint and what to check.
#pragma once

#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::llm {

struct ChatSettings {
  std::string base_url;  // e.g. "https://api.openai.com/v1"
  std::string model;
  std::string api_key;      // empty: no Authorization header
  std::string api_key_env;  // its variable's name, for error messages
  std::chrono::milliseconds timeout{120000};
  std::chrono::milliseconds connect_timeout{10000};
  int max_retries = 3;
  std::chrono::milliseconds backoff{1000};  // first wait; doubled each retry
};

class ChatClient {
 public:
  explicit ChatClient(ChatSettings settings) : s_(std::move(settings)) {}

  // The assistant message of the first choice: an object with "role",
  // "content" (string or null) and, when the model calls tools,
  // "tool_calls": [{"id", "type": "function", "function": {"name", "arguments"}}].
  Result<Json> Complete(const Json& messages,
                                          const Json& tools);

  std::string url() const;
  int requests() const { return requests_; }

 private:
  ChatSettings s_;
  int requests_ = 0;
};

// Checks that `body` is a chat completion and returns its first choice's
// message; the error says what is missing.
Result<Json> ParseCompletion(std::string_view body, const std::string& url);

}  // namespace lore::llm
