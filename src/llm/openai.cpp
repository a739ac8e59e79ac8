// The openai back end: POST <base_url>/chat/completions {model, messages,
// tools, tool_choice}, for OpenAI and every server that speaks its protocol.
#include "llm/backends.h"

#include "lore/json/reader.h"
#include "lore/llm/http.h"

namespace lore::llm {
namespace {

tl::unexpected<Error> NotACompletion(const std::string& why, const std::string& url) {
  return Fail(
      ErrorCode::kUnavailable, "the LLM endpoint's answer is not a chat completion (" + why + ")",
      url, 0,
      "check llm.base_url in config.toml: it must be an OpenAI-compatible API such as .../v1");
}

Json Messages(const std::string& system, const std::vector<Turn>& turns) {
  Json out = Json::array({{{"role", "system"}, {"content", system}}});
  for (const Turn& t : turns) {
    switch (t.role) {
      case Turn::Role::kUser:
        out.push_back({{"role", "user"}, {"content", t.text}});
        break;
      case Turn::Role::kAssistant: {
        Json m = {{"role", "assistant"}, {"content", t.text.empty() ? Json() : Json(t.text)}};
        for (const ToolCall& c : t.calls) {
          m["tool_calls"].push_back({{"id", c.id},
                                     {"type", "function"},
                                     {"function", {{"name", c.name}, {"arguments", c.arguments}}}});
        }
        out.push_back(std::move(m));
        break;
      }
      case Turn::Role::kTool:
        for (const ToolResult& r : t.results) {
          out.push_back({{"role", "tool"}, {"tool_call_id", r.call_id}, {"content", r.content}});
        }
        break;
    }
  }
  return out;
}

}  // namespace

Result<Reply> ParseCompletion(std::string_view body, const std::string& url) {
  json::Limits limits;
  limits.max_bytes = kMaxResponseBytes;
  limits.max_depth = 64;
  auto parsed = json::ParseOrdered(body, limits);
  if (!parsed) return NotACompletion(parsed.error().what + ": " + Snippet(body), url);
  const Json& j = *parsed;
  if (!j.is_object() || !j.contains("choices") || !j["choices"].is_array() ||
      j["choices"].empty()) {
    return NotACompletion("no choices: " + Snippet(body), url);
  }
  const Json& choice = j["choices"][0];
  if (!choice.is_object() || !choice.contains("message") || !choice["message"].is_object()) {
    return NotACompletion("the first choice has no message", url);
  }
  const Json& msg = choice["message"];
  Reply r;
  if (msg.contains("content") && !msg["content"].is_null()) {
    if (!msg["content"].is_string()) {
      return NotACompletion("the message's content is neither text nor null", url);
    }
    r.text = msg["content"].get<std::string>();
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
      r.calls.push_back({call["id"].get<std::string>(), call["function"]["name"].get<std::string>(),
                         call["function"]["arguments"].get<std::string>()});
    }
  }
  if (j.contains("usage")) {
    r.usage.input = TokenCount(j["usage"], "prompt_tokens");
    r.usage.output = TokenCount(j["usage"], "completion_tokens");
  }
  return r;
}

std::string OpenAiModel::Where() const {
  std::string base = s_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/chat/completions";
}

Result<Reply> OpenAiModel::Ask(const std::string& system, const std::vector<Turn>& turns,
                               const std::vector<Tool>& tools) {
  Json body = {{"model", s_.model}, {"messages", Messages(system, turns)}};
  if (!tools.empty()) {
    for (const Tool& t : tools) {
      body["tools"].push_back(
          {{"type", "function"},
           {"function",
            {{"name", t.name}, {"description", t.description}, {"parameters", t.parameters}}}});
    }
    body["tool_choice"] = "auto";
  }
  HttpRequest req{Where(),
                  {"Content-Type: application/json"},
                  body.dump(-1, ' ', false, Json::error_handler_t::replace),
                  s_.timeout,
                  s_.connect_timeout};
  if (!s_.api_key.empty()) req.headers.push_back("Authorization: Bearer " + s_.api_key);
  const std::string key_env = s_.api_key_env;
  auto explain = [&](long status, std::string_view answer) {
    return Error{
        ErrorCode::kUnavailable,
        "the LLM endpoint answered HTTP " + std::to_string(status) + ": " + Snippet(answer),
        req.url, 0,
        status == 401 || status == 403 ? "check the API key in the environment variable " + key_env
        : status == 404 ? "check llm.base_url and memory.consolidation_model in config.toml"
                        : "retry later, or check the server's logs"};
  };
  LORE_ASSIGN(HttpResponse r, PostRetrying(req, s_.max_retries, s_.backoff, requests_, explain));
  return ParseCompletion(r.body, req.url);
}

}  // namespace lore::llm
