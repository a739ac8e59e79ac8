// The handlers of lore's MCP tools and resources. Internal to src/mcp/.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lore/app/search.h"
#include "lore/mcp/lore_server.h"

namespace lore::mcp {

// What the handlers share: the store and the search index, opened on the
// first search and kept (each search brings it up to date first).
struct ToolState {
  store::Store store;
  LoreServerOptions options;
  app::KeptIndex index;
};

// `search`: every scope (or one), hits shaped as `lore search --json`.
Result<Json> SearchAll(ToolState& s, const Json& args);
Result<Json> MemorySearch(ToolState& s, const Json& args);
Result<Json> KnowledgeSearch(ToolState& s, const Json& args);
Result<Json> MemoryRead(ToolState& s, const Json& args);
// `open`: one item whole by the id recall and search give (app::OpenItem).
Result<Json> OpenItemTool(ToolState& s, const Json& args);
Result<Json> ProposeLearning(ToolState& s, const Json& args);
Result<Json> CaptureReview(ToolState& s, const Json& args);
Result<Json> StoreStatus(ToolState& s, const Json& args);

Result<std::vector<Resource>> ListStoreResources(const ToolState& s);
Result<std::string> ReadStoreResource(const ToolState& s, const std::string& uri);

}  // namespace lore::mcp
