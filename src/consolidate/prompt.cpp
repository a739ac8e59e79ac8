#include "consolidate/prompt.h"

#include <nlohmann/json.hpp>

#include "doc/slug.h"
#include "lore/doc/kind.h"
#include "lore/json/value.h"
#include "lore/store/layout.h"

namespace lore::consolidate {
namespace {

constexpr const char* kSystem =
    R"(You consolidate a coding agent's recent activity into its long-term memory.

Input: staged entries (extracts of recent sessions, each with an id and a source), the whole of memory/ (the summary, decisions, requests) and the knowledge-candidate report. Knowledge pages are not in this prompt: use knowledge_search to find them.

Principles:
- Never infer or invent sources. You never write sources: name the staged entries a change comes from in entry_ids and lore copies their sources.
- Rewrite without losing information.
- Prefer updating an existing record to adding one; search before creating.
- Keep no per-session state in memory (no "today", "this session", "next step").
- Do not duplicate what docs or trackers already hold.
- An empty result is a fine result: if nothing deserves remembering, call finish.
- Staged attempts are dropped, except for at most one summary line about what did not work.
- Each decision becomes a decision record (memory/decisions/<slug>.md); each request a request record (memory/requests/<slug>.md).
- A discussion becomes a decision or a line of the summary.
- The summary (memory/summary.md) stays around 1-5k tokens: rewrite it rather than let it grow.
- Nothing is deleted: a superseded decision gets status: replaced and replaced_by: <slug of the new one>.
- New knowledge (knowledge/<slug>.md) may be created only from sources listed in the knowledge-candidate report; with an empty report, only decisions, requests, the summary and existing knowledge change.
- memory/workflow/ is written by people only.

Records are Markdown with YAML frontmatter between --- lines. Slugs match ^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$ and name the file.
- decision: status (open|resolved|replaced), replaced_by when replaced.
- request: no keys of its own.
- knowledge: kind, description, model_invokation (false), user_invocable (true).
- summary: no keys of its own.
lore sets created_at, updated_at, sources and last_sources itself. Bodies stay under 8000 characters (the summary under 20000).

Every write is checked by a linter. A refused write is undone with everything else of the same turn, and the error tells you why: fix it and try again. After too many refused writes the run is aborted and nothing is changed. Call finish when you are done.)";

Json EntriesJson(const RunInput& in) {
  Json out = Json::array();
  for (const auto& c : in.entries) {
    Json e = Json::parse(RenderStagedEntry(c.entry));
    Json item = {{"id", c.id}};
    for (auto& [k, v] : e.items()) item[k] = v;
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

Result<Prompt> BuildPrompt(const RunInput& in, Workspace& ws, const CandidateReport& candidates) {
  std::string user = "## Staged entries\n\n" + EntriesJson(in).dump(2) + "\n\n## memory/\n";
  auto budget = static_cast<size_t>(in.settings ? in.settings->llm_prompt_memory_chars : 200000);
  std::vector<std::string> paths;
  LORE_ASSIGN(bool has_summary, ws.Exists(std::string(store::kSummaryFile)));
  if (has_summary) paths.emplace_back(store::kSummaryFile);
  for (doc::Kind kind : {doc::Kind::kDecision, doc::Kind::kRequest}) {
    std::string dir(doc::KindDir(kind));
    LORE_ASSIGN(auto slugs, ws.ListSlugs(dir));
    for (const auto& s : slugs) {
      if (doc::IsValidSlug(s)) paths.push_back(dir + "/" + s + ".md");
    }
  }
  if (paths.empty()) user += "\n(empty)\n";
  size_t used = 0;
  std::vector<std::string> left_out;
  for (const auto& p : paths) {
    LORE_ASSIGN(auto text, ws.Read(p));
    if (!text) continue;
    if (used + text->size() > budget) {
      left_out.push_back(p);
      continue;
    }
    used += text->size();
    user += "\n=== " + p + " ===\n" + *text;
    if (!text->empty() && text->back() != '\n') user += '\n';
  }
  if (!left_out.empty()) {
    user += "\nNot shown for length (memory_read them when needed):\n";
    for (const auto& p : left_out) user += "- " + p + "\n";
  }
  user += "\n## Knowledge-candidate report\n\n" + candidates.json + "\n";
  return Prompt{kSystem, std::move(user)};
}

}  // namespace lore::consolidate
