#include "consolidate/tools.h"

#include "consolidate/tool_result.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::consolidate {
namespace {

Json Function(const char* name, const char* description, Json properties,
              std::vector<std::string> required) {
  return {
      {"type", "function"},
      {"function",
       {{"name", name},
        {"description", description},
        {"parameters",
         {{"type", "object"}, {"properties", std::move(properties)}, {"required", required}}}}}};
}

Json Str(const char* description) { return {{"type", "string"}, {"description", description}}; }

Json EntryIds() {
  return {{"type", "array"},
          {"items", {{"type", "string"}}},
          {"description",
           "ids of the staged entries this change comes from; lore copies their sources into the "
           "record (required except for memory/summary.md)"}};
}

constexpr const char* kPathHelp =
    "relative to the store: memory/summary.md, memory/decisions/<slug>.md, "
    "memory/requests/<slug>.md or knowledge/<slug>.md";

}  // namespace

Json ToolBox::Schemas() {
  return Json::array({
      Function("memory_read", "Read a record's whole text (frontmatter and body).",
               {{"path", Str(kPathHelp)}}, {"path"}),
      Function(
          "memory_write",
          "Create or replace a record with `content` (YAML frontmatter between --- lines, then the "
          "Markdown body). Do not write sources, last_sources, created_at or updated_at: lore sets "
          "them. The linter checks the result; a refused write is undone.",
          {{"path", Str(kPathHelp)},
           {"content", Str("the record's whole new text")},
           {"entry_ids", EntryIds()}},
          {"path", "content", "entry_ids"}),
      Function("memory_edit",
               "Replace exactly one occurrence of `old_string` in a record with `new_string`.",
               {{"path", Str(kPathHelp)},
                {"old_string", Str("text that occurs exactly once in the record")},
                {"new_string", Str("its replacement")},
                {"entry_ids", EntryIds()}},
               {"path", "old_string", "new_string", "entry_ids"}),
      Function("memory_search",
               "Search memory (summary, decisions, requests) as it was when this run started.",
               {{"query", Str("words to look for")}}, {"query"}),
      Function(
          "knowledge_search",
          "Search the knowledge pages (not in your prompt: search before writing knowledge).",
          {{"query", Str("words to look for")}, {"kind", Str("only pages of this knowledge kind")}},
          {"query"}),
      Function("finish", "End the consolidation. An empty result is a fine result.",
               {{"summary", Str("one line on what you changed")}}, {}),
  });
}

ToolOutcome ToolBox::Call(std::string_view name, std::string_view arguments) {
  json::Limits limits;  // a model's tool arguments: outside input
  limits.max_bytes = size_t{1} << 20;
  limits.max_depth = 32;
  auto parsed = json::ParseOrdered(arguments, limits);
  if (!parsed || !parsed->is_object()) {
    return {detail::ErrorJson(parsed ? std::string("the arguments are not a JSON object")
                                     : "the arguments are " + parsed.error().what),
            false, false};
  }
  const Json& args = *parsed;
  if (name == "memory_read") return Read(args);
  if (name == "memory_write") return Write(args);
  if (name == "memory_edit") return Edit(args);
  if (name == "memory_search") return Search(args, false);
  if (name == "knowledge_search") return Search(args, true);
  if (name == "finish") {
    notes_.push_back("finished" + (args.contains("summary") && args["summary"].is_string()
                                       ? ": " + args["summary"].get<std::string>()
                                       : std::string()));
    return {detail::Dump(Json{{"ok", true}}), false, true};
  }
  return {
      detail::ErrorJson("unknown tool '" + std::string(name) +
                        "'; the tools are memory_read, memory_write, memory_edit, memory_search, "
                        "knowledge_search and finish"),
      false, false};
}

ToolOutcome ToolBox::Read(const Json& args) {
  auto path = detail::StringArg(args, "path");
  if (!path) return {detail::ErrorJson("'path' must be a string"), false, false};
  auto sp = ParseStorePath(*path, PathUse::kRead);
  if (!sp) return {detail::ErrorJson(sp.error()), false, false};
  auto text = ws_.Read(sp->rel);
  if (!text) return {detail::ErrorJson(text.error()), false, false};
  if (!*text)
    return {detail::ErrorJson("no such record: " + sp->rel + "; memory_write creates it"), false,
            false};
  return {detail::Dump(Json{{"path", sp->rel}, {"content", **text}}), false, false};
}

ToolOutcome ToolBox::Search(const Json& args, bool knowledge) {
  auto query = detail::StringArg(args, "query");
  if (!query) return {detail::ErrorJson("'query' must be a string"), false, false};
  std::optional<std::string> kind = detail::StringArg(args, "kind");
  auto hits = knowledge ? search_.Knowledge(*query, kind) : search_.Memory(*query);
  if (!hits) return {detail::ErrorJson(hits.error()), false, false};
  return {detail::Dump(*hits), false, false};
}

}  // namespace lore::consolidate
