#include "lore/llm/chat.h"

#include <thread>

#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/llm/http.h"

namespace lore::llm {
namespace {


std::string Snippet(std::string_view body) {
  std::string s(body.substr(0, 200));
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return body.size() > 200 ? s + "…" : s;
}

tl::unexpected<Error> NotACompletion(const std::string& why, const std::string& url) {
  return Fail(
      ErrorCode::kUnavailable, "the LLM endpoint's answer is not a chat completion (" + why + ")",
      url, 0,
      "check llm.base_url in config.toml: it must be an OpenAI-compatible API such as .../v1");
}

bool Retryable(long status) { return status == 429 || status >= 500; }

}  // namespace

Result<Json> ParseCompletion(std::string_view body, const std::string& url) {
  json::Limits limits;
  limits.max_bytes = kMaxResponseBytes;
  limits.max_depth = 64;
  auto parsed = json::ParseOrdered(body, limits);
  if (!parsed) {
    return NotACompletion(parsed.error().what + ": " + Snippet(body), url);
  }
  const Json& j = *parsed;
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() ||
      j["choices"].empty()) {
    return NotACompletion("no choices: " + Snippet(body), url);
  }
  const Json& choice = j["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object()) {
    return NotACompletion("the first choice has no message", url);
  }
  Json msg = choice["message"];
  if (msg.contains("content") && !msg["content"].is_null() && !msg["content"].is_string()) {
    return NotACompletion("the message's content is neither text nor null", url);
  }
  if (msg.contains("tool_calls") && !msg["tool_calls"].is_null()) {
    if (!msg["tool_calls"].is_array()) return NotACompletion("tool_calls is not a list", url);
    for (const Json& call : msg["tool_calls"]) {
      if (!call.is_object() || !call.contains("id") || !call["id"].is_string() ||
          !call.contains("function") || !call["function"].is_object() ||
          !call["function"].contains("name") || !call["function"]["name"].is_string() ||
          !call["function"].contains("arguments") || !call["function"]["arguments"].is_string()) {
        return NotACompletion("a tool call lacks its id, name or arguments", url);
      }
    }
  }
  Json out = {{"role", "assistant"},
              {"content", msg.contains("content") ? msg["content"] : Json()}};
  if (msg.contains("tool_calls") && msg["tool_calls"].is_array() && !msg["tool_calls"].empty()) {
    out["tool_calls"] = msg["tool_calls"];
  }
  return out;
}

std::string ChatClient::url() const {
  std::string base = s_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

Result<Json> ChatClient::Complete(const Json& messages, const Json& tools) {
  Json body = {{"model", s_.model}, {"messages", messages}};
  if (!tools.empty()) {
    body["tools"] = tools;
    body["tool_choice"] = "auto";
  }
  HttpRequest req{url(),
                  {"Content-Type: application/json"},
                  body.dump(-1, ' ', false, Json::error_handler_t::replace),
                  s_.timeout,
                  s_.connect_timeout};
  if (!s_.api_key.empty()) req.headers.push_back("Authorization: Bearer " + s_.api_key);
  auto wait = s_.backoff;
  Error last;
  int attempts = 0;
  for (int attempt = 0; attempt <= s_.max_retries; ++attempt) {
    if (attempt > 0) {
      std::this_thread::sleep_for(wait);
      wait *= 2;
    }
    ++requests_;
    ++attempts;
    HttpResult r = Post(req);
    if (!r.ok) {
      last = r.error;
      if (r.too_large) break;  // asking again would only read as much again
      continue;
    }
    long status = r.response.status;
    if (status >= 200 && status < 300) return ParseCompletion(r.response.body, req.url);
    last =
        Error{ErrorCode::kUnavailable,
              "the LLM endpoint answered HTTP " + std::to_string(status) + ": " +
                  Snippet(r.response.body),
              req.url, 0,
              status == 401 || status == 403
                  ? "check the API key in the environment variable " + s_.api_key_env
              : status == 404 ? "check llm.base_url and memory.consolidation_model in config.toml"
                              : "retry later, or check the server's logs"};
    if (!Retryable(status)) break;
  }
  if (attempts > 1) last.what += " (after " + std::to_string(attempts) + " attempts)";
  return tl::unexpected(last);
}

}  // namespace lore::llm
