// The reading tools (memory_search, knowledge_search, memory_read) and the
// resources (okf/ pages, the summary).
#include <chrono>

#include "lore/app/memory.h"
#include "lore/app/pages.h"
#include "lore/app/recall.h"
#include "lore/app/search.h"
#include "lore/json/field.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {
namespace {

constexpr std::string_view kOkfPrefix = "lore://okf/";
constexpr std::string_view kSummaryUri = "lore://memory/summary.md";

// Hits as `lore search --json` gives them; every scope ("all") adds each
// hit's scope.
Result<Json> Search(ToolState& s, const Json& args, const std::string& scope, int max_limit = 20) {
  app::SearchRequest request;
  request.scope = scope;
  // Expired learnings are not offered to agents (docs/learnings.md).
  request.include_expired = false;
  request.kind = json::String(args, "kind");
  // The schema bounds the limit; an integral float (5.0) is read without a cast.
  if (auto limit = json::Int(args, "limit", 1, max_limit)) request.limit = static_cast<int>(*limit);
  LORE_ASSIGN(auto opts, app::SearchOptionsFor(request, std::chrono::system_clock::now()));
  LORE_ASSIGN(Json hits,
              s.index.SearchJson(s.store, json::StringOr(args, "query", ""), opts, scope == "all"));
  return Json{{"hits", std::move(hits)}};
}

}  // namespace

Result<Json> MemorySearch(ToolState& s, const Json& args) { return Search(s, args, "memory"); }

// An unknown scope is an error of app::SearchOptionsFor (the schema's enum
// refuses it first; kept for direct callers).
Result<Json> SearchAll(ToolState& s, const Json& args) {
  return Search(s, args, json::StringOr(args, "scope", "all"), 100);
}

Result<Json> KnowledgeSearch(ToolState& s, const Json& args) {
  return Search(s, args, "knowledge");
}

Result<Json> MemoryRead(ToolState& s, const Json& args) {
  const std::string kind_name = json::StringOr(args, "kind", "");
  using Status = app::NamedRecord::Status;
  LORE_ASSIGN(app::NamedRecord r,
              app::ReadNamedRecord(s.store, kind_name, json::StringOr(args, "slug", ""), "mcp",
                                   std::chrono::system_clock::now()));
  if (r.status == Status::kUnknownKind)
    return Fail(ErrorCode::kInvalidInput, "unknown kind", "", 0,
                "use one of summary, decision, request, knowledge, workflow");
  if (r.status == Status::kNoSlug) {
    return Fail(ErrorCode::kInvalidInput, "memory_read needs a slug for a " + kind_name, "", 0,
                "pass the slug a search returned");
  }
  Json out;
  out["kind"] = r.kind;
  out["slug"] = r.slug;
  out["path"] = r.path;
  out["text"] = std::move(r.text);
  return out;
}

Result<Json> OpenItemTool(ToolState& s, const Json& args) {
  LORE_ASSIGN(app::ItemText item, app::OpenItem(s.store, json::StringOr(args, "id", ""), "mcp",
                                                std::chrono::system_clock::now()));
  Json out;
  out["id"] = item.id;
  out["file"] = item.file;
  if (item.line > 0) out["line"] = item.line;
  out["text"] = std::move(item.text);
  return out;
}

Result<std::vector<Resource>> ListStoreResources(const ToolState& s) {
  std::vector<Resource> out;
  LORE_ASSIGN(std::vector<app::Page> pages, app::ListPages(s.store));
  for (auto& p : pages) {
    if (p.summary) {
      out.push_back(Resource{std::string(kSummaryUri), p.rel, "Resident summary",
                             "The consolidated summary of this repository's memory",
                             "text/markdown"});
      continue;
    }
    out.push_back(Resource{std::string(kOkfPrefix) + p.name, p.rel, std::move(p.title),
                           p.name == "index.md" ? "The distilled digest of this repository's memory"
                                                : "A page of the distilled memory bundle",
                           "text/markdown"});
  }
  return out;
}

// The page a URI names; app::ReadPage refuses a name that is not one plain
// file name of okf/.
Result<std::string> ReadStoreResource(const ToolState& s, const std::string& uri) {
  std::string rel;
  if (uri == kSummaryUri) {
    rel = "memory/summary.md";
  } else if (uri.rfind(kOkfPrefix, 0) == 0) {
    rel = "okf/" + uri.substr(kOkfPrefix.size());
  } else {
    return Fail(ErrorCode::kNotFound, "no such resource", uri);
  }
  auto text = app::ReadPage(s.store, rel);
  if (!text && text.error().code == ErrorCode::kNotFound)
    return Fail(ErrorCode::kNotFound, "no such resource", uri);
  return text;
}

}  // namespace lore::mcp
