// The anthropic back end: POST <base_url>/v1/messages with the x-api-key and
// anthropic-version headers, tools as {name, description, input_schema}, not
// streamed (the whole reply within llm.timeout_seconds). Tool results go back
// as a user turn of tool_result blocks, as the API requires.
#include "llm/backends.h"

#include "lore/json/reader.h"
#include "lore/llm/http.h"

namespace lore::llm {
namespace {

constexpr const char* kApiVersion = "2023-06-01";

tl::unexpected<Error> NotAMessage(const std::string& why, const std::string& url) {
  return Fail(ErrorCode::kUnavailable,
              "the Anthropic endpoint's answer is not a message (" + why + ")", url, 0,
              "check llm.base_url in config.toml: it must be the Messages API's base, such as "
              "https://api.anthropic.com");
}

Json Messages(const std::vector<Turn>& turns) {
  Json out = Json::array();
  for (const Turn& t : turns) {
    switch (t.role) {
      case Turn::Role::kUser:
        out.push_back({{"role", "user"}, {"content", t.text}});
        break;
      case Turn::Role::kAssistant: {
        Json content = Json::array();
        if (!t.text.empty()) content.push_back({{"type", "text"}, {"text", t.text}});
        for (const ToolCall& c : t.calls) {
          Json input = json::ParseOrdered(c.arguments, json::Limits{}).value_or(Json::object());
          if (!input.is_object()) input = Json::object();
          content.push_back(
              {{"type", "tool_use"}, {"id", c.id}, {"name", c.name}, {"input", std::move(input)}});
        }
        if (content.empty()) content.push_back({{"type", "text"}, {"text", "(no answer)"}});
        out.push_back({{"role", "assistant"}, {"content", std::move(content)}});
        break;
      }
      case Turn::Role::kTool: {
        Json content = Json::array();
        for (const ToolResult& r : t.results) {
          content.push_back(
              {{"type", "tool_result"}, {"tool_use_id", r.call_id}, {"content", r.content}});
        }
        out.push_back({{"role", "user"}, {"content", std::move(content)}});
        break;
      }
    }
  }
  return out;
}

// The API's own words for an error status: {"type":"error","error":{"type","message"}}.
std::string ApiMessage(std::string_view body) {
  auto j = json::ParseOrdered(body, json::Limits{});
  if (j && j->is_object() && j->contains("error") && (*j)["error"].is_object() &&
      (*j)["error"].contains("message") && (*j)["error"]["message"].is_string()) {
    return Snippet((*j)["error"]["message"].get<std::string>());
  }
  return Snippet(body);
}

}  // namespace

Result<Reply> ParseMessage(std::string_view body, const std::string& url) {
  json::Limits limits;
  limits.max_bytes = kMaxResponseBytes;
  limits.max_depth = 64;
  auto parsed = json::ParseOrdered(body, limits);
  if (!parsed) return NotAMessage(parsed.error().what + ": " + Snippet(body), url);
  const Json& j = *parsed;
  if (!j.is_object() || !j.contains("content") || !j["content"].is_array()) {
    return NotAMessage("no content: " + Snippet(body), url);
  }
  Reply r;
  for (const Json& block : j["content"]) {
    if (!block.is_object() || !block.contains("type") || !block["type"].is_string()) {
      return NotAMessage("a content block has no type", url);
    }
    const std::string type = block["type"].get<std::string>();
    if (type == "text") {
      if (!block.contains("text") || !block["text"].is_string()) {
        return NotAMessage("a text block has no text", url);
      }
      if (!r.text.empty()) r.text += "\n";
      r.text += block["text"].get<std::string>();
    } else if (type == "tool_use") {
      if (!block.contains("id") || !block["id"].is_string() || !block.contains("name") ||
          !block["name"].is_string() || !block.contains("input") || !block["input"].is_object()) {
        return NotAMessage("a tool_use block lacks its id, name or input", url);
      }
      r.calls.push_back({block["id"].get<std::string>(), block["name"].get<std::string>(),
                         block["input"].dump(-1, ' ', false, Json::error_handler_t::replace)});
    }  // thinking and other blocks carry nothing the engines use
  }
  if (j.contains("usage")) {
    const Json& u = j["usage"];
    r.usage.input = TokenCount(u, "input_tokens") + TokenCount(u, "cache_creation_input_tokens") +
                    TokenCount(u, "cache_read_input_tokens");
    r.usage.output = TokenCount(u, "output_tokens");
  }
  return r;
}

std::string AnthropicModel::Where() const {
  std::string base = s_.base_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (base.ends_with("/v1")) base.resize(base.size() - 3);
  return base + "/v1/messages";
}

Result<Reply> AnthropicModel::Ask(const std::string& system, const std::vector<Turn>& turns,
                                  const std::vector<Tool>& tools) {
  Json body = {{"model", s_.model},
               {"max_tokens", s_.max_output_tokens},
               {"system", system},
               {"messages", Messages(turns)}};
  for (const Tool& t : tools) {
    body["tools"].push_back(
        {{"name", t.name}, {"description", t.description}, {"input_schema", t.parameters}});
  }
  HttpRequest req{
      Where(),
      {"Content-Type: application/json", std::string("anthropic-version: ") + kApiVersion},
      body.dump(-1, ' ', false, Json::error_handler_t::replace),
      s_.timeout,
      s_.connect_timeout};
  if (!s_.api_key.empty()) req.headers.push_back("x-api-key: " + s_.api_key);
  const std::string key_env = s_.api_key_env;
  auto explain = [&](long status, std::string_view answer) {
    return Error{
        ErrorCode::kUnavailable,
        "the Anthropic endpoint answered HTTP " + std::to_string(status) + ": " +
            ApiMessage(answer),
        req.url, 0,
        status == 401 || status == 403 ? "check the API key in the environment variable " + key_env
        : status == 404 ? "check llm.base_url and memory.consolidation_model in config.toml"
                        : "retry later (429, 529: the API is busy), or check the status page"};
  };
  LORE_ASSIGN(HttpResponse r, PostRetrying(req, s_.max_retries, s_.backoff, requests_, explain));
  return ParseMessage(r.body, req.url);
}

}  // namespace lore::llm
