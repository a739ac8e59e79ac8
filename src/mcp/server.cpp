#include "lore/mcp/server.h"

#include <algorithm>

#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "mcp/schema.h"

namespace lore::mcp {
namespace {

tl::unexpected<RpcError> Rpc(int code, std::string message) {
  return tl::unexpected(RpcError{code, std::move(message)});
}

// An Error from reading resources: an expected condition (any code but
// kInternal) is answered with its one line; -32603 only for a real fault.
tl::unexpected<RpcError> ResourceError(const Error& e) {
  if (e.code == ErrorCode::kInternal) {
    return Rpc(code::kInternalError, "Internal error: " + e.Format());
  }
  return Rpc(code::kResourceUnreadable, e.Format());
}

// Messages are read strictly: a repeated key is a parse error, nesting stops
// at 64 levels (no MCP message lore answers needs more), numbers must fit.
json::Limits MessageLimits() {
  json::Limits l;
  l.max_bytes = kMaxMessageBytes;
  l.max_depth = 64;
  return l;
}

bool ValidId(const Json& id) {
  return id.is_string() || id.is_number_integer() || id.is_number_unsigned();
}

Json ToolError(std::string text) {
  Json r;
  r["content"] = Json::array({Json{{"type", "text"}, {"text", std::move(text)}}});
  r["isError"] = true;
  return r;
}

}  // namespace

const std::vector<std::string_view>& SupportedRevisions() {
  static const std::vector<std::string_view> kRevisions = {"2025-11-25", "2025-06-18", "2025-03-26",
                                                           "2024-11-05"};
  return kRevisions;
}

std::string_view NegotiateRevision(std::string_view requested) {
  for (auto r : SupportedRevisions()) {
    if (r == requested) return r;
  }
  return kLatestRevision;
}

bool AllowsBatches(std::string_view revision) {
  return revision == "2025-03-26" || revision == "2024-11-05";
}

Json ErrorResponse(const Json& id, int code, std::string message) {
  Json r;
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["error"] = Json{{"code", code}, {"message", std::move(message)}};
  return r;
}

void Server::AddTool(ToolSpec spec, ToolHandler handler) {
  tools_.push_back(Tool{std::move(spec), std::move(handler)});
}

std::string Server::HandleLine(std::string_view line) {
  auto parsed = json::ParseOrdered(line, MessageLimits());
  Json reply;
  Json message = parsed ? std::move(*parsed) : Json();
  if (!parsed) {
    reply = ErrorResponse(nullptr, code::kParseError, "Parse error: " + parsed.error().what);
  } else if (message.is_array()) {
    if (!AllowsBatches(revision_)) {
      reply = ErrorResponse(nullptr, code::kInvalidRequest,
                            "Invalid Request: batches are not supported" +
                                (revision_.empty() ? std::string(" before initialize")
                                                   : " in protocol revision " + revision_));
    } else if (message.empty()) {
      reply = ErrorResponse(nullptr, code::kInvalidRequest, "Invalid Request: empty batch");
    } else {
      reply = Json::array();
      for (const auto& m : message) {
        Json r = HandleMessage(m, true);
        if (!r.is_null()) reply.push_back(std::move(r));
      }
      if (reply.empty()) return {};
    }
  } else {
    reply = HandleMessage(message, false);
  }
  if (reply.is_null()) return {};
  return reply.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string Server::TooLarge(std::string_view tail, size_t size) const {
  // The id is usually the last member ("…,"id":7}"): read it from the tail.
  Json id = nullptr;
  size_t at = tail.rfind("\"id\"");
  if (at != std::string_view::npos) {
    std::string_view rest = tail.substr(at + 4);
    size_t colon = rest.find(':');
    if (colon != std::string_view::npos) {
      rest = rest.substr(colon + 1);
      size_t end = rest.find_first_of(",}");
      auto v = json::ParseOrdered(rest.substr(0, end), MessageLimits());
      if (v && ValidId(*v)) id = std::move(*v);
    }
  }
  return ErrorResponse(id, code::kInvalidRequest,
                       "Invalid Request: message of " + std::to_string(size) +
                           " bytes is over the limit of " + std::to_string(kMaxMessageBytes) +
                           " bytes")
      .dump();
}

Json Server::HandleMessage(const Json& m, bool in_batch) {
  if (!m.is_object())
    return ErrorResponse(nullptr, code::kInvalidRequest, "Invalid Request: not an object");
  const bool has_id = m.contains("id");
  Json id = has_id ? m["id"] : Json(nullptr);
  if (has_id && !ValidId(id)) {
    return ErrorResponse(nullptr, code::kInvalidRequest,
                         "Invalid Request: id must be a string or an integer");
  }
  if (!m.contains("method")) {
    if (m.contains("result") || m.contains("error")) return nullptr;  // a response: nothing to say
    return ErrorResponse(id, code::kInvalidRequest, "Invalid Request: no method");
  }
  if (json::StringOr(m, "jsonrpc", "") != "2.0") {
    return ErrorResponse(id, code::kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"");
  }
  if (!m["method"].is_string()) {
    return ErrorResponse(id, code::kInvalidRequest, "Invalid Request: method must be a string");
  }
  const std::string method = m["method"].get<std::string>();
  const Json params = m.contains("params") ? m["params"] : Json::object();
  if (!params.is_object()) {
    return has_id
               ? ErrorResponse(id, code::kInvalidParams, "Invalid params: params must be an object")
               : Json(nullptr);
  }
  if (!has_id) return nullptr;  // notifications (initialized, cancelled, …) need no answer
  if (in_batch && method == "initialize") {
    return ErrorResponse(id, code::kInvalidRequest,
                         "Invalid Request: initialize may not be batched");
  }
  auto result = Dispatch(method, params);
  if (!result) return ErrorResponse(id, result.error().code, result.error().message);
  Json r;
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["result"] = std::move(*result);
  return r;
}

RpcResult Server::Dispatch(const std::string& method, const Json& params) {
  if (method == "initialize") return Initialize(params);
  if (method == "ping") return Json::object();
  if (method == "tools/list") return ListTools();
  if (method == "tools/call") return CallTool(params);
  if (method == "resources/list") return ListResources();
  if (method == "resources/read") return ReadResource(params);
  if (method == "resources/templates/list") return Json{{"resourceTemplates", Json::array()}};
  return Rpc(code::kMethodNotFound, "Method not found: " + method);
}

RpcResult Server::Initialize(const Json& params) {
  if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string()) {
    return Rpc(code::kInvalidParams, "Invalid params: initialize needs protocolVersion (a string)");
  }
  revision_ = std::string(NegotiateRevision(params["protocolVersion"].get<std::string>()));
  Json r;
  r["protocolVersion"] = revision_;
  r["capabilities"] = Json{{"tools", Json{{"listChanged", false}}},
                           {"resources", Json{{"subscribe", false}, {"listChanged", false}}}};
  Json server{{"name", info_.name}, {"version", info_.version}};
  if (revision_ >= "2025-06-18") server["title"] = info_.title;
  r["serverInfo"] = server;
  r["instructions"] = info_.instructions;
  return r;
}

RpcResult Server::ListTools() const {
  Json list = Json::array();
  for (const auto& t : tools_) {
    Json j{{"name", t.spec.name}};
    if (revision_ >= "2025-06-18") j["title"] = t.spec.title;
    j["description"] = t.spec.description;
    j["inputSchema"] = t.spec.input_schema;
    list.push_back(std::move(j));
  }
  return Json{{"tools", std::move(list)}};
}

RpcResult Server::CallTool(const Json& params) {
  if (!params.contains("name") || !params["name"].is_string()) {
    return Rpc(code::kInvalidParams, "Invalid params: tools/call needs name (a string)");
  }
  const std::string name = params["name"].get<std::string>();
  auto tool = std::find_if(tools_.begin(), tools_.end(),
                           [&](const Tool& t) { return t.spec.name == name; });
  if (tool == tools_.end()) return Rpc(code::kInvalidParams, "Unknown tool: " + name);
  Json args = params.contains("arguments") ? params["arguments"] : Json::object();
  if (args.is_null()) args = Json::object();
  if (!args.is_object())
    return Rpc(code::kInvalidParams, "Invalid params: arguments must be an object");
  if (auto problem = CheckSchema(tool->spec.input_schema, args)) {
    std::string msg = "Invalid arguments for tool " + name + ": " + *problem;
    if (revision_ >= "2025-11-25") return ToolError(msg);
    return Rpc(code::kInvalidParams, msg);
  }
  auto out = tool->handler(args);
  if (!out) return ToolError(out.error().Format());
  Json r;
  r["content"] = Json::array(
      {Json{{"type", "text"}, {"text", out->dump(2, ' ', false, Json::error_handler_t::replace)}}});
  if (revision_ >= "2025-06-18" && out->is_object()) r["structuredContent"] = *out;
  r["isError"] = false;
  return r;
}

RpcResult Server::ListResources() const {
  Json list = Json::array();
  if (resources_.list) {
    auto all = resources_.list();
    if (!all) return ResourceError(all.error());
    for (const auto& res : *all) {
      Json j{{"uri", res.uri}, {"name", res.name}};
      if (revision_ >= "2025-06-18" && !res.title.empty()) j["title"] = res.title;
      if (!res.description.empty()) j["description"] = res.description;
      j["mimeType"] = res.mime_type;
      list.push_back(std::move(j));
    }
  }
  return Json{{"resources", std::move(list)}};
}

RpcResult Server::ReadResource(const Json& params) const {
  if (!params.contains("uri") || !params["uri"].is_string()) {
    return Rpc(code::kInvalidParams, "Invalid params: resources/read needs uri (a string)");
  }
  const std::string uri = params["uri"].get<std::string>();
  if (!resources_.read) return Rpc(code::kResourceNotFound, "Resource not found: " + uri);
  auto text = resources_.read(uri);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound)
      return Rpc(code::kResourceNotFound, "Resource not found: " + uri);
    return ResourceError(text.error());
  }
  Json content{{"uri", uri}, {"mimeType", "text/markdown"}, {"text", std::move(*text)}};
  return Json{{"contents", Json::array({std::move(content)})}};
}

}  // namespace lore::mcp
