// The tool table of lore's MCP server: names, descriptions, input schemas.
#include "lore/mcp/lore_server.h"

#include "lore/app/propose.h"
#include "lore/version.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {
namespace {

Json Str(const char* description, size_t max_length) {
  return Json{{"type", "string"}, {"description", description}, {"maxLength", max_length}};
}

Json Obj(Json properties, std::vector<std::string> required) {
  Json s{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) s["required"] = required;
  s["additionalProperties"] = false;
  return s;
}

Json Limit() {
  return Json{{"type", "integer"},
              {"minimum", 1},
              {"maximum", 20},
              {"description", "At most this many hits (default 20)"}};
}

// One row per tool: what it is (name, title, description, input schema) and
// the function that answers it, together, so that neither can go without the
// other or be matched to the wrong one.
using Handler = Result<Json> (*)(ToolState&, const Json&);
struct Tool {
  ToolSpec spec;
  Handler handler;
};

std::vector<Tool> Tools() {
  const app::ProposalLimits limits = app::ProposalFieldLimits();
  Json types = Json::array();
  for (std::string_view t : app::ProposalTypes()) types.emplace_back(t);
  Json type = Str("The kind of learning", 40);
  type["enum"] = types;
  return {
      {{"search", "Search everything",
        "Search all of the repository's memory by relevance: consolidated memory, knowledge, "
        "approved learnings, the raw review captures and the session logs (scope 'all', the "
        "default), or one of them; 'okf' searches the distilled bundle, which restates memory. "
        "Returns {hits: [...]} shaped as `lore search --json`: scope (with 'all'), slug, kind, "
        "file, line, excerpt.",
        Obj({{"query", Str("What to look for, in plain words", 1000)},
             {"scope",
              Json{{"type", "string"},
                   {"enum", {"all", "memory", "knowledge", "learnings", "raw", "okf", "sessions"}},
                   {"description", "Where to search (default all: every scope but okf)"}}},
             {"limit", Json{{"type", "integer"},
                            {"minimum", 1},
                            {"maximum", 100},
                            {"description", "At most this many hits (default 20)"}}}},
            {"query"})},
       SearchAll},
      {{"memory_search", "Search memory",
        "Search the repository's consolidated memory (summary, decisions, requests) by relevance. "
        "Returns up to 20 hits as {slug, kind, excerpt}; the summary's slug is 'summary'.",
        Obj({{"query", Str("What to look for, in plain words", 1000)}, {"limit", Limit()}},
            {"query"})},
       MemorySearch},
      {{"knowledge_search", "Search knowledge",
        "Search the repository's knowledge pages (rules, policies, how-tos). Returns up to 20 hits "
        "as {slug, kind, description, model_invokation, excerpt}.",
        Obj({{"query", Str("What to look for, in plain words", 1000)},
             {"kind", Str("Only pages of this kind (exact)", 100)},
             {"limit", Limit()}},
            {"query"})},
       KnowledgeSearch},
      {{"memory_read", "Read a memory record",
        "Read one record whole: the summary, a decision, a request, a knowledge page or a "
        "workflow. "
        "Use the slugs that the searches return.",
        Obj({{"kind", Json{{"type", "string"},
                           {"enum", {"summary", "decision", "request", "knowledge", "workflow"}},
                           {"description", "The record's kind"}}},
             {"slug", Str("The record's slug (not needed for the summary)", 64)}},
            {"kind"})},
       MemoryRead},
      {{"open", "Open an item",
        "Read one item whole by its id, as the prompt-time context, the file context and the "
        "searches give it (their `id`): a record's path such as memory/decisions/x.md, or a log "
        "line such as sessions/<session>.jsonl:12. Returns {id, file, line, text}.",
        Obj({{"id", Str("The item's id", 512)}}, {"id"})},
       OpenItemTool},
      {{"propose_learning", "Propose a learning",
        "Queue a candidate learning for a person to review (it is not stored until approved). "
        "Below the confidence floor nothing is queued; each wave has a quota.",
        Obj({{"type", type},
             {"subject",
              Str("One line naming the learning (at most 100 characters)", limits.subject_max)},
             {"insight", Str("What was learned, on one line", limits.insight_max)},
             {"evidence", Str("What shows it, on one line", limits.evidence_max)},
             {"confidence", Json{{"type", "number"}, {"minimum", 0}, {"maximum", 1}}},
             {"file_paths", Json{{"type", "array"},
                                 {"maxItems", 20},
                                 {"items", Str("A repository-relative path", 256)}}},
             {"wave", Str("The wave (default: $LORE_WAVE of the server, else mcp-<date>)", 64)}},
            {"type", "subject", "insight", "evidence", "confidence"})},
       ProposeLearning},
      {{"capture_review", "Capture a review",
        "Append one review record to the repository's permanent raw.jsonl (as lore append-review "
        "does). Use fields such as ticket, finding, severity, files, lesson.",
        Obj({{"record",
              Json{{"type", "object"}, {"description", "The review record (a JSON object)"}}}},
            {"record"})},
       CaptureReview},
      {{"status", "Memory status",
        "Where the repository's memory lives and what it holds: counts of captures, live (and "
        "expired) learnings, pending proposals, records, staged entries, and the distilled pages.",
        Obj(Json::object(), {})},
       StoreStatus},
  };
}

}  // namespace

Server MakeLoreServer(const store::Store& store, const LoreServerOptions& options) {
  Server server(ServerInfo{
      "lore", "lore memory", kVersion,
      "lore holds this repository's durable memory. Search it (search: everything, with a scope; "
      "memory_search, knowledge_search) "
      "before work that may repeat a past decision or review finding; read the digest resource "
      "lore://okf/index.md for an overview; propose_learning queues a lesson for a person to "
      "review."});
  auto state = std::make_shared<ToolState>(ToolState{store, options, {}});
  for (Tool& tool : Tools()) {
    Handler fn = tool.handler;
    server.AddTool(std::move(tool.spec),
                   [state, fn](const Json& args) { return fn(*state, args); });
  }
  server.SetResources(
      ResourceHandlers{[state]() { return ListStoreResources(*state); },
                       [state](const std::string& uri) { return ReadStoreResource(*state, uri); }});
  return server;
}

}  // namespace lore::mcp
