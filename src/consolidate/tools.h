// The LLM worker's tools over a run's Workspace (issue 6, deliverable 6).
// They live in lore_core, not in lore-llm, so that their rules are tested
// without HTTP and hold whatever drives them.
//
//   memory_read      {path}                                   a record's text
//   memory_write     {path, content, entry_ids}               create or replace
//   memory_edit      {path, old_string, new_string, entry_ids} replace one exact occurrence
//   memory_search    {query}                                  [{slug, kind, excerpt}]
//   knowledge_search {query, kind?}                           [{slug, kind, description,
//   model_invokation, excerpt}] finish           {summary?}                               ends the
//   run
//
// Paths are relative to the store and name records of memory/ and knowledge/
// (consolidate/paths.h): absolute paths, "..", memory/workflow/ and anything
// else are refused. A write is checked in this order, and refused (the tool
// result says why, `rejected` is set, the caller rolls the turn back) when:
// the path is refused; an entry id is not one of the run's; the content sets
// `sources`/`last_sources` to anything but what the record already has (lore
// writes sources); no entry id is named (except for the summary); it would
// create knowledge while no named entry's source is in the candidate report;
// the linter finds an error. Then lore sets created_at/updated_at, adds the
// named entries' sources (decisions, requests) or makes them the
// last_sources (knowledge), and stores the bytes in the workspace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "consolidate/candidates.h"
#include "consolidate/paths.h"
#include "consolidate/store_search.h"
#include "lore/consolidate/engine.h"
#include "lore/consolidate/workspace.h"
#include "lore/json/value.h"

namespace lore::consolidate {

struct ToolOutcome {
  std::string content;    // the tool message for the model: one JSON object or array
  bool rejected = false;  // a refused write (counts as a failure; roll the turn back)
  bool finished = false;  // `finish` was called
};

class ToolBox {
 public:
  ToolBox(const std::string& store_dir, Workspace& ws, const RunInput& in,
          const CandidateReport& candidates)
      : ws_(ws), in_(in), candidates_(candidates), search_(store_dir) {}

  // The tools' OpenAI function schemas: [{"type": "function", "function": {...}}, ...].
  static Json Schemas();

  // Runs tool `name` with `arguments` (a JSON object as text). Bad arguments
  // and unknown tools are errors for the model, not failures.
  ToolOutcome Call(std::string_view name, std::string_view arguments);

  // What the tools did, one line each ("wrote memory/decisions/x.md").
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  ToolOutcome Read(const Json& args);
  ToolOutcome Write(const Json& args);
  ToolOutcome Edit(const Json& args);
  ToolOutcome Search(const Json& args, bool knowledge);
  // The shared end of write and edit: `text` without its private spans and
  // secrets (redact::Clean), the checks above, then the workspace.
  ToolOutcome Store(const StorePath& path, std::string_view text, const Json& args);

  Workspace& ws_;
  const RunInput& in_;
  const CandidateReport& candidates_;
  StoreSearch search_;
  std::vector<std::string> notes_;
};

}  // namespace lore::consolidate
