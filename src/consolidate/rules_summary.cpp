// The rules engine's summary and knowledge updates (see rules_engine.h).
#include <algorithm>

#include "consolidate/bullets.h"
#include "consolidate/rules_parts.h"
#include "lore/consolidate/topic.h"
#include "lore/doc/slug.h"
#include "lore/fs/fd.h"
#include "lore/text/utf8.h"

namespace lore::consolidate::detail {
namespace {

using doc::Kind;

constexpr std::string_view kDiscussions = "Discussions";
constexpr std::string_view kAttempts = "Attempts";
constexpr std::string_view kUpdates = "Updates";
constexpr size_t kSummaryHardLimit = 20000;  // the linter's limit for the summary body
constexpr size_t kKnowledgeLimit = 8000;     // ... and for any other body
constexpr size_t kAttemptLineMax = 400;

// Adds the discussion as a line "- **<topic>**: p1; p2", or extends the
// line of the same topic with the points it lacks. True when changed.
bool AddDiscussion(BulletBody& body, const StagedDiscussion& d) {
  std::string key = "- **" + OneLine(d.topic) + "**";
  long at = body.Find(kDiscussions, key + ":");
  if (at < 0 && body.Has(kDiscussions, key)) at = body.Find(kDiscussions, key);
  if (at < 0) {
    std::string line = key;
    std::string sep = ": ";
    for (const auto& p : d.points) {
      line += sep + OneLine(p);
      sep = "; ";
    }
    body.Add(kDiscussions, std::move(line));
    return true;
  }
  std::string& line = body.Line(at);
  bool changed = false;
  for (const auto& p : d.points) {
    std::string point = OneLine(p);
    if (line.find(point, key.size()) != std::string::npos) continue;
    line += (line.size() == key.size() ? ": " : "; ") + point;
    changed = true;
  }
  return changed;
}

// The one line the run's failed attempts leave, or "" when none failed.
std::string AttemptLine(const std::vector<TimedEntry>& entries) {
  std::string line;
  for (const auto& e : entries) {
    for (const auto& a : e.entry.attempts) {
      if (a.succeeded) continue;
      std::string item = OneLine(a.action);
      if (!OneLine(a.result).empty()) item += " (" + OneLine(a.result) + ")";
      if (line.find(item) != std::string::npos) continue;
      line += (line.empty() ? "- Tried without success: " : "; ") + item;
    }
  }
  return line.empty() ? line : Cut(line, kAttemptLineMax);
}

Result<doc::Record*> SummaryRecord(RulesContext& ctx, const TimedEntry& first) {
  LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kSummary, doc::kSummarySlug));
  if (rec) return rec;
  doc::Record r = doc::NewRecord(Kind::kSummary, first.time);
  r.body = "# Summary\n";
  return ctx.set.Create(Kind::kSummary, doc::kSummarySlug, std::move(r));
}

}  // namespace

Status ApplySummary(RulesContext& ctx, const std::vector<TimedEntry>& entries) {
  std::string attempts = AttemptLine(entries);
  bool any = !attempts.empty();
  for (const auto& e : entries) any = any || !e.entry.discussions.empty();
  if (!any) return Ok();
  LORE_ASSIGN(doc::Record * rec, SummaryRecord(ctx, entries.front()));
  BulletBody body(rec->body);
  const std::string* changed_at = nullptr;
  for (const auto& e : entries) {
    for (const auto& d : e.entry.discussions) {
      if (AddDiscussion(body, d)) changed_at = &e.stamp;
    }
  }
  if (!attempts.empty() && !body.Has(kAttempts, attempts)) {
    body.Add(kAttempts, attempts);
    changed_at = &entries.back().stamp;
  }
  // Rewrite within the size limit: the oldest attempt lines go first, then
  // the oldest discussion lines. Text lore did not write is never cut.
  auto limit = static_cast<size_t>(ctx.settings.summary_max_chars);
  while (body.Chars() > limit && (body.DropOldest(kAttempts) || body.DropOldest(kDiscussions))) {
  }
  std::string text = body.Render();
  if (text::CodePointCount(text) > kSummaryHardLimit) {
    return Fail(ErrorCode::kInvalidInput,
                "the summary is over " + std::to_string(kSummaryHardLimit) +
                    " characters even without lore's discussion and attempt lines",
                fs::Join(ctx.ws.dir(), "memory/summary.md"), 0,
                "shorten the summary by hand; the staged entries stay for the next consolidation");
  }
  if (!changed_at || text == rec->body) return Ok();
  rec->body = std::move(text);
  rec->fields.updated_at = *changed_at;
  ctx.set.Touch(Kind::kSummary, doc::kSummarySlug);
  ctx.notes.push_back("updated memory/summary.md");
  return Ok();
}

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
