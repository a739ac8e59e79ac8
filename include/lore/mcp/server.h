// A Model Context Protocol server core: JSON-RPC 2.0 messages, one per line
// (the stdio transport), protocol revision negotiation, tools and resources.
// It knows nothing of lore's store: lore's tools are added by
// mcp/lore_tools.h. See docs/agents.md for the behaviour in detail.
//
// Errors follow the MCP specification: a line that is not JSON is -32700
// (id null); a message that is not a valid request -32600; an unknown method
// -32601; bad params (an unknown tool among them) -32602; an unknown resource
// -32002. Tool arguments that break the tool's input schema are a tool
// execution error (a result with isError: true) from revision 2025-11-25 on
// (SEP-1303), and -32602 for older revisions. A tool that fails returns
// isError: true with the error's one-line text.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::mcp {

// Protocol revisions this server speaks, newest first.
inline constexpr std::string_view kLatestRevision = "2025-11-25";
const std::vector<std::string_view>& SupportedRevisions();
// The revision to answer `initialize` with: the requested one when
// supported, else the latest.
std::string_view NegotiateRevision(std::string_view requested);
// True when `revision` allows JSON-RPC batches (2025-03-26 and 2024-11-05;
// 2025-06-18 removed them).
bool AllowsBatches(std::string_view revision);

namespace code {
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kResourceNotFound = -32002;
// A resource lore refuses or cannot read for a reason it knows (a symlinked
// folder, a permission denial, a malformed file): the message is lore's one
// line. -32603 is kept for a fault lore did not expect (ErrorCode::kInternal).
inline constexpr int kResourceUnreadable = -32010;
}  // namespace code

// The largest message read whole; a longer line is answered with -32600.
inline constexpr size_t kMaxMessageBytes = 1 << 20;

struct ToolSpec {
  std::string name;
  std::string title;
  std::string description;
  Json input_schema;  // a JSON Schema object (see mcp/schema.h for what is checked)
};

// Runs a tool on arguments that passed its schema. The Json is the result
// object (sent as structuredContent and as JSON text content); an Error
// becomes a result with isError: true.
using ToolHandler = std::function<Result<Json>(const Json& arguments)>;

struct Resource {
  std::string uri, name, title, description, mime_type;
};

struct ResourceHandlers {
  std::function<Result<std::vector<Resource>>()> list;
  // The text of `uri`; an Error of code kNotFound answers -32002.
  std::function<Result<std::string>(const std::string& uri)> read;
};

struct ServerInfo {
  std::string name, title, version, instructions;
};

// A JSON-RPC error to answer a request with.
struct RpcError {
  int code = code::kInternalError;
  std::string message;
};
using RpcResult = tl::expected<Json, RpcError>;

class Server {
 public:
  explicit Server(ServerInfo info) : info_(std::move(info)) {}

  void AddTool(ToolSpec spec, ToolHandler handler);
  void SetResources(ResourceHandlers handlers) { resources_ = std::move(handlers); }

  // Handles one line (a message, or a batch where the revision allows it)
  // and returns the reply line without its newline, or "" when nothing is
  // to be sent (notifications, responses).
  std::string HandleLine(std::string_view line);

  // The reply to a line longer than kMaxMessageBytes, of which only the last
  // bytes (`tail`) were kept: -32600 with the request's id when it can be
  // read from the tail, else id null.
  std::string TooLarge(std::string_view tail, size_t size) const;

  // The negotiated revision ("" before initialize).
  const std::string& revision() const { return revision_; }

 private:
  struct Tool {
    ToolSpec spec;
    ToolHandler handler;
  };

  // The reply to one message, or a null Json for none.
  Json HandleMessage(const Json& message, bool in_batch);
  RpcResult Dispatch(const std::string& method, const Json& params);
  RpcResult Initialize(const Json& params);
  RpcResult ListTools() const;
  RpcResult CallTool(const Json& params);
  RpcResult ListResources() const;
  RpcResult ReadResource(const Json& params) const;

  ServerInfo info_;
  std::vector<Tool> tools_;
  ResourceHandlers resources_;
  std::string revision_;
};

// JSON-RPC error objects and responses.
Json ErrorResponse(const Json& id, int code, std::string message);

// Reads messages from `in_fd` line by line until end of input, answering each
// on `out_fd`. A line over kMaxMessageBytes is answered with an error and the
// server goes on. Returns an error only when a descriptor fails.
Status Serve(Server& server, int in_fd, int out_fd);

}  // namespace lore::mcp
