// The rules engine's updates of existing knowledge (see rules_engine.h).
#include <algorithm>

#include "consolidate/bullets.h"
#include "consolidate/rules_parts.h"
#include "consolidate/topic.h"
#include "doc/slug.h"
#include "lore/fs/fd.h"
#include "lore/text/utf8.h"

namespace lore::consolidate::detail {
namespace {

using doc::Kind;

constexpr std::string_view kUpdates = "Updates";
constexpr size_t kKnowledgeLimit = 8000;  // the linter's limit for a body

}  // namespace

namespace {

Status IndexKnowledge(RulesContext& ctx) {
  ctx.knowledge_indexed = true;
  LORE_ASSIGN(auto slugs, ctx.ws.ListSlugs(std::string(doc::KindDir(Kind::kKnowledge))));
  for (const auto& slug : slugs) {
    if (!doc::IsValidSlug(slug)) continue;
    LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kKnowledge, slug));
    if (!rec || !rec->fields.last_sources) continue;
    for (const auto& s : *rec->fields.last_sources) {
      auto& v = ctx.knowledge_by_session[s.session_id];
      if (v.empty() || v.back() != slug) v.push_back(slug);
    }
  }
  return Ok();
}

// Same session, and ranges that overlap or touch.
bool Matches(const doc::Source& a, const doc::Source& b) {
  return a.session_id == b.session_id && a.range.from <= b.range.to + 1 &&
         b.range.from <= a.range.to + 1;
}

std::string UpdateLine(const StagedDecision& d) {
  std::string line = "- Chose " + OneLine(d.chosen);
  std::string others;
  for (const auto& o : d.options) {
    if (NormalisePhrase(o) == NormalisePhrase(d.chosen)) continue;
    others += (others.empty() ? "" : ", ") + OneLine(o);
  }
  if (!others.empty()) line += " over " + others;
  if (!OneLine(d.rationale).empty()) line += ": " + OneLine(d.rationale);
  return Cut(line, 600);
}

}  // namespace

Status ApplyKnowledge(RulesContext& ctx, const TimedEntry& e) {
  if (e.entry.decisions.empty()) return Ok();
  if (!ctx.knowledge_indexed) LORE_TRY(IndexKnowledge(ctx));
  auto it = ctx.knowledge_by_session.find(e.entry.source.session_id);
  if (it == ctx.knowledge_by_session.end()) return Ok();
  for (const auto& slug : it->second) {
    LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kKnowledge, slug));
    bool matched = false, changed = false;
    for (auto& s : *rec->fields.last_sources) {
      if (!Matches(s, e.entry.source)) continue;
      matched = true;
      doc::Range merged{std::min(s.range.from, e.entry.source.range.from),
                        std::max(s.range.to, e.entry.source.range.to)};
      if (!(merged == s.range)) {
        s.range = merged;
        changed = true;
      }
    }
    if (!matched) continue;
    BulletBody body(rec->body);
    bool added = false;
    for (const auto& d : e.entry.decisions) {
      std::string line = UpdateLine(d);
      if (body.Has(kUpdates, line)) continue;
      body.Add(kUpdates, line);
      added = true;
      while (body.Chars() > kKnowledgeLimit && body.DropOldest(kUpdates)) {
      }
    }
    std::string text = body.Render();
    if (added && text::CodePointCount(text) <= kKnowledgeLimit) {
      rec->body = std::move(text);
      changed = true;
    }
    if (changed) {
      rec->fields.updated_at = e.stamp;
      ctx.set.Touch(Kind::kKnowledge, slug);
      ctx.notes.push_back("updated knowledge/" + slug + ".md");
    }
  }
  return Ok();
}

}  // namespace lore::consolidate::detail
