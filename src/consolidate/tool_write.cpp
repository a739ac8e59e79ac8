// The write tools of the LLM worker: the checks of tools.h, in order.
#include "consolidate/rules_parts.h"
#include "consolidate/tool_result.h"
#include "consolidate/tools.h"
#include "consolidate/workspace_lint.h"
#include "lore/fs/fd.h"
#include "lore/json/value.h"

namespace lore::consolidate {
namespace {

using doc::Kind;

ToolOutcome Refuse(const std::string& what, const std::vector<std::string>& findings = {}) {
  return {detail::ErrorJson(what + "; nothing was written and this turn was rolled back", findings),
          true, false};
}

ToolOutcome Usage(const std::string& what) { return {detail::ErrorJson(what), false, false}; }

std::string Describe(const doc::Source& s) {
  return s.session_id + " [" + std::to_string(s.range.from) + ", " + std::to_string(s.range.to) +
         "]";
}

Json SourcesJson(const std::vector<doc::Source>& sources) {
  Json out = Json::array();
  for (const auto& s : sources)
    out.push_back({{"session_id", s.session_id}, {"range", {s.range.from, s.range.to}}});
  return out;
}

// The model may repeat the sources a record has, but never set others.
bool SetsSources(const doc::Record& mine, const doc::Record* old, std::string_view key) {
  const auto& field = key == "sources" ? mine.fields.sources : mine.fields.last_sources;
  for (const auto& issue : mine.issues) {
    if (issue.field == key) return true;  // an ill-typed sources key is still an attempt
  }
  if (!field || field->empty()) return false;
  const auto* before =
      old ? (key == "sources" ? &old->fields.sources : &old->fields.last_sources) : nullptr;
  return !before || !*before || **before != *field;
}

}  // namespace

ToolOutcome ToolBox::Write(const Json& args) {
  auto path = detail::StringArg(args, "path");
  auto content = detail::StringArg(args, "content");
  if (!path || !content) return Usage("'path' and 'content' must be strings");
  auto sp = ParseStorePath(*path, PathUse::kWrite);
  if (!sp) return Refuse(sp.error().Format());
  return Store(*sp, *content, args);
}

ToolOutcome ToolBox::Edit(const Json& args) {
  auto path = detail::StringArg(args, "path");
  auto old_s = detail::StringArg(args, "old_string");
  auto new_s = detail::StringArg(args, "new_string");
  if (!path || !old_s || !new_s)
    return Usage("'path', 'old_string' and 'new_string' must be strings");
  auto sp = ParseStorePath(*path, PathUse::kWrite);
  if (!sp) return Refuse(sp.error().Format());
  auto text = ws_.Read(sp->rel);
  if (!text) return Usage(text.error().Format());
  if (!*text) return Usage("no such record: " + sp->rel + "; memory_write creates it");
  if (old_s->empty()) return Usage("'old_string' is empty");
  size_t at = (*text)->find(*old_s);
  if (at == std::string::npos) return Usage("'old_string' does not occur in " + sp->rel);
  if ((*text)->find(*old_s, at + 1) != std::string::npos) {
    return Usage("'old_string' occurs more than once in " + sp->rel + "; include more context");
  }
  std::string next = **text;
  next.replace(at, old_s->size(), *new_s);
  return Store(*sp, next, args);
}

ToolOutcome ToolBox::Store(const StorePath& sp, std::string_view model_text, const Json& args) {
  // The entries named: their sources are the only ones lore will write.
  std::vector<doc::Source> named;
  std::vector<std::string> ids;
  if (auto it = args.find("entry_ids"); it != args.end()) {
    if (!it->is_array()) return Usage("'entry_ids' must be a list of staged entry ids");
    for (const auto& id : *it) {
      if (!id.is_string()) return Usage("'entry_ids' must be a list of staged entry ids");
      ids.push_back(id.get<std::string>());
    }
  }
  for (const auto& id : ids) {
    auto e = std::find_if(in_.entries.begin(), in_.entries.end(),
                          [&](const ConsumedEntry& c) { return c.id == id; });
    if (e == in_.entries.end())
      return Refuse("'" + id + "' is not one of this run's staged entries");
    if (std::find(named.begin(), named.end(), e->entry.source) == named.end())
      named.push_back(e->entry.source);
  }
  auto current = ws_.Read(sp.rel);
  if (!current) return Usage(current.error().Format());
  std::string file = fs::Join(ws_.dir(), sp.rel);
  std::optional<doc::Record> old;
  if (*current) {
    if (auto r = doc::ParseRecord(sp.kind, **current, file)) old = std::move(*r);
  }
  auto parsed = doc::ParseRecord(sp.kind, model_text, file);
  if (!parsed) return Refuse("the linter refused the write", {"error: " + parsed.error().Format()});
  doc::Record rec = std::move(*parsed);
  // What the model writes passes the redactor like everything else that
  // enters the store (docs/secrets.md): an echoed secret or private span is
  // gone from every frontmatter key and value and from the body before the
  // record is linted and written.
  const std::string after =
      doc::CleanRecord(rec) ? " (after removing private spans and secrets)" : "";
  for (std::string_view key : {"sources", "last_sources"}) {
    if (SetsSources(rec, old ? &*old : nullptr, key)) {
      return Refuse("'" + std::string(key) +
                    "' is written by lore from the entries named in entry_ids, "
                    "never by the model: leave it out");
    }
  }
  if (sp.kind != Kind::kSummary && named.empty()) {
    return Refuse("name the staged entries this change comes from in entry_ids");
  }
  if (sp.kind == Kind::kKnowledge && !*current) {
    bool listed = std::any_of(named.begin(), named.end(),
                              [&](const doc::Source& s) { return candidates_.Covers(s); });
    if (!listed) {
      std::string which;
      for (const auto& s : named) which += (which.empty() ? "" : ", ") + Describe(s);
      return Refuse(
          candidates_.sources.empty()
              ? "new knowledge may be created only from sources in the knowledge-candidate report, "
                "which is empty: update existing knowledge, decisions, requests or the summary "
                "instead"
              : "new knowledge may be created only from sources in the knowledge-candidate report, "
                "which lists none of " +
                    which);
    }
  }
  // What lore writes itself.
  std::string now = text::UtcSeconds(std::chrono::time_point_cast<std::chrono::seconds>(in_.now));
  rec.fields.updated_at = now;
  if (old && old->fields.created_at) {
    rec.fields.created_at = old->fields.created_at;
  } else if (sp.kind != Kind::kSummary || rec.fields.created_at) {
    rec.fields.created_at = now;
  }
  if (sp.kind == Kind::kDecision || sp.kind == Kind::kRequest) {
    rec.fields.sources =
        old && old->fields.sources ? old->fields.sources : std::vector<doc::Source>{};
    for (const auto& s : named) detail::AddSource(rec.fields.sources, s);
  } else if (sp.kind == Kind::kKnowledge) {
    rec.fields.last_sources = named;
  }
  std::string bytes = doc::RenderRecord(rec);
  auto report = LintInWorkspace(ws_, sp, bytes);
  if (!report) return Usage(report.error().Format());
  std::vector<std::string> findings;
  for (const auto& f : report->findings) findings.push_back(f.Format());
  if (report->HasErrors()) return Refuse("the linter refused the write" + after, findings);
  if (auto s = ws_.Write(sp.rel, bytes); !s) return Usage(s.error().Format());
  notes_.push_back("wrote " + sp.rel);
  Json ok = {{"ok", true}, {"path", sp.rel}};
  if (sp.kind == Kind::kDecision || sp.kind == Kind::kRequest)
    ok["sources"] = SourcesJson(*rec.fields.sources);
  if (sp.kind == Kind::kKnowledge) ok["last_sources"] = SourcesJson(named);
  if (!findings.empty()) ok["warnings"] = findings;
  return {detail::Dump(ok), false, false};
}

}  // namespace lore::consolidate
