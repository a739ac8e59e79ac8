#include "lore/consolidate/rules_engine.h"

#include <set>

#include "activity/excerpt.h"
#include "consolidate/bullets.h"
#include "consolidate/paths.h"
#include "consolidate/rules_parts.h"
#include "consolidate/topic.h"
#include "consolidate/workspace_lint.h"
#include "lore/sys/uuid.h"
#include "lore/text/utf8.h"
#include "text/lines.h"

namespace lore::consolidate {
namespace detail {
namespace {

using doc::Kind;

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (const auto& p : parts) {
    if (!out.empty()) out += sep;
    out += OneLine(p);
  }
  return out;
}

// A decision is titled by what was chosen, the options it won over after it:
// "# ninja (over make)", never the list of options alone; each named in its
// first words (the body has them whole).
std::string DecisionBody(const StagedDecision& d) {
  constexpr size_t kChosenTitle = 120, kOverTitle = 60;
  std::string title = activity::Excerpt(OneLine(d.chosen), kChosenTitle), over;
  for (const auto& o : d.options) {
    if (NormalisePhrase(o) != NormalisePhrase(d.chosen))
      over += (over.empty() ? "" : ", ") + activity::Excerpt(OneLine(o), kOverTitle);
  }
  if (!over.empty()) title += " (over " + over + ")";
  std::string body = "# " + title + "\n\nChosen: " + OneLine(d.chosen) + "\n";
  if (!d.options.empty()) body += "Options: " + Join(d.options, "; ") + "\n";
  if (!OneLine(d.rationale).empty()) body += "\n- " + OneLine(d.rationale) + "\n";
  return body;
}

std::optional<std::string> ChosenOf(std::string_view body) {
  for (std::string_view line : text::Lines(body)) {
    if (line.rfind("Chosen: ", 0) == 0) return std::string(line.substr(8));
  }
  return std::nullopt;
}

bool HasLine(std::string_view body, std::string_view line) {
  size_t pos = 0;
  while ((pos = body.find(line, pos)) != std::string_view::npos) {
    bool starts = pos == 0 || body[pos - 1] == '\n';
    size_t end = pos + line.size();
    if (starts && (end == body.size() || body[end] == '\n' || body[end] == '\r')) return true;
    pos = end;
  }
  return false;
}

// Appends a bullet line at the end of `body`.
void AppendBullet(std::string& body, const std::string& line) {
  if (!body.empty() && body.back() != '\n') body += '\n';
  size_t last = body.rfind('\n', body.size() >= 2 ? body.size() - 2 : 0);
  std::string_view prev =
      last == std::string::npos ? std::string_view(body) : std::string_view(body).substr(last + 1);
  if (!body.empty() && prev.rfind("- ", 0) != 0 && prev != "\n") body += '\n';
  body += line + "\n";
}

doc::Record NewDecision(const TimedEntry& e, const StagedDecision& d) {
  doc::Record r = doc::NewRecord(Kind::kDecision, e.time);
  r.fields.created_at = r.fields.updated_at = StampOf(e, d.origin);
  r.fields.status = "resolved";
  r.fields.sources = std::vector<doc::Source>{e.entry.source};
  r.body = DecisionBody(d);
  return r;
}

// A free slug for the record superseding `topic`.
Result<std::string> FreeSuccessor(RulesContext& ctx, const std::string& topic,
                                  const std::string& chosen) {
  std::string base = SuccessorSlug(topic, chosen);
  for (int n = 1; n < 10000; ++n) {
    std::string cand = base;
    if (n > 1) {
      std::string suffix(1, '-');  // "-2" to "-9999"
      suffix += std::to_string(n);
      cand.resize(std::min(cand.size(), 64 - suffix.size()));
      while (!cand.empty() && cand.back() == '-') cand.pop_back();
      cand.append(suffix);
    }
    LORE_ASSIGN(doc::Record * taken, ctx.set.Get(Kind::kDecision, cand));
    if (!taken) return cand;
  }
  return Fail(ErrorCode::kInternal, "no free slug for a superseding decision", "", 0,
              "report this bug");
}

}  // namespace

std::string StampOf(const TimedEntry& e, const ItemOrigin& origin) {
  return origin.at.empty() ? e.stamp : origin.at;
}

void CapBullets(std::string& body, size_t max_bullets, size_t max_chars) {
  auto count = [&] {
    size_t n = 0;
    for (std::string_view line : text::Lines(body))
      if (line.starts_with("- ")) ++n;
    return n;
  };
  size_t bullets = count();
  while (bullets > 0 && (bullets > max_bullets || text::CodePointCount(body) > max_chars)) {
    size_t pos = 0;
    while (pos < body.size() && body.compare(pos, 2, "- ") != 0) {
      size_t nl = body.find('\n', pos);
      pos = nl == std::string::npos ? body.size() : nl + 1;
    }
    if (pos >= body.size()) break;
    size_t nl = body.find('\n', pos);
    body.erase(pos, nl == std::string::npos ? std::string::npos : nl + 1 - pos);
    --bullets;
  }
}

// A body a person filled with their own text (no bullets left to drop) is left as
// it was rather than pushed past the linter's limit, which would fail every run.
void KeepWithinLimit(RulesContext& ctx, std::string& body, const std::string& before,
                     const std::string& rel) {
  if (text::CodePointCount(body) <= kBodyLimit) return;
  body = before;
  ctx.notes.push_back("left the body of " + rel + " as it was: it is full (" +
                      std::to_string(text::CodePointCount(before)) + " characters)");
}

bool AddSource(std::optional<std::vector<doc::Source>>& sources, const doc::Source& s) {
  if (!sources) sources.emplace();
  for (const auto& have : *sources) {
    if (have == s) return false;
  }
  sources->push_back(s);
  return true;
}

Status ApplyDecision(RulesContext& ctx, const TimedEntry& e, const StagedDecision& d) {
  std::string topic = DecisionTopic(d.options, d.chosen);
  LORE_ASSIGN(doc::Record * root, ctx.set.Get(Kind::kDecision, topic));
  if (!root) {
    ctx.set.Create(Kind::kDecision, topic, NewDecision(e, d));
    ctx.notes.push_back("created memory/decisions/" + topic + ".md");
    return Ok();
  }
  // The topic's records, from its first to its current one.
  std::vector<std::pair<std::string, doc::Record*>> chain{{topic, root}};
  std::set<std::string> seen{topic};
  while (chain.back().second->fields.status == "replaced" &&
         chain.back().second->fields.replaced_by) {
    std::string next = *chain.back().second->fields.replaced_by;
    if (!seen.insert(next).second) break;
    LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kDecision, next));
    if (!rec) break;
    chain.emplace_back(next, rec);
  }
  for (const auto& [slug, rec] : chain) {
    auto chosen = ChosenOf(rec->body);
    const auto& src = rec->fields.sources;
    bool has_source = src && std::find(src->begin(), src->end(), e.entry.source) != src->end();
    if (has_source && chosen && SameChoice(*chosen, d.chosen)) return Ok();  // applied before
  }
  auto& [slug, current] = chain.back();
  auto chosen = ChosenOf(current->body);
  if (chosen && !SameChoice(*chosen, d.chosen)) {
    LORE_ASSIGN(std::string next, FreeSuccessor(ctx, topic, d.chosen));
    ctx.set.Create(Kind::kDecision, next, NewDecision(e, d));
    current->fields.status = "replaced";
    current->fields.replaced_by = next;
    current->fields.updated_at =
        std::max(current->fields.updated_at.value_or(""), StampOf(e, d.origin));
    ctx.set.Touch(Kind::kDecision, slug);
    ctx.notes.push_back("superseded memory/decisions/" + slug + ".md by " + next + ".md");
    return Ok();
  }
  const std::string before = current->body;
  bool changed = false;
  if (!chosen) {
    AppendBullet(current->body, "Chosen: " + OneLine(d.chosen));
    changed = true;
  }
  std::string why = OneLine(d.rationale);
  if (!why.empty() && !HasLine(current->body, "- " + why)) {
    AppendBullet(current->body, "- " + why);
    changed = true;
  }
  changed = AddSource(current->fields.sources, e.entry.source) || changed;
  if (current->fields.status != "resolved") {
    current->fields.status = "resolved";
    changed = true;
  }
  if (changed) {
    CapBullets(current->body, kMaxBullets, kBodyLimit - 500);
    KeepWithinLimit(ctx, current->body, before, "memory/decisions/" + slug + ".md");
    current->fields.updated_at =
        std::max(current->fields.updated_at.value_or(""), StampOf(e, d.origin));
    ctx.set.Touch(Kind::kDecision, slug);
    ctx.notes.push_back("updated memory/decisions/" + slug + ".md");
  }
  return Ok();
}

Status ApplyRequest(RulesContext& ctx, const TimedEntry& e, const StagedRequest& q) {
  std::string slug = RequestSlug(q.intent, q.target.value_or(""));
  std::string line = "- " + OneLine(q.summary);
  LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kRequest, slug));
  if (!rec) {
    doc::Record r = doc::NewRecord(Kind::kRequest, e.time);
    r.fields.created_at = r.fields.updated_at = StampOf(e, q.origin);
    r.fields.sources = std::vector<doc::Source>{e.entry.source};
    r.body = "# " + OneLine(q.intent) + "\n\n";
    if (q.target && !OneLine(*q.target).empty()) r.body += "Target: " + OneLine(*q.target) + "\n\n";
    r.body += line + "\n";
    ctx.set.Create(Kind::kRequest, slug, std::move(r));
    ctx.notes.push_back("created memory/requests/" + slug + ".md");
    return Ok();
  }
  const std::string before = rec->body;
  bool changed = false;
  if (!HasLine(rec->body, line)) {
    AppendBullet(rec->body, line);
    changed = true;
  }
  changed = AddSource(rec->fields.sources, e.entry.source) || changed;
  if (changed) {
    CapBullets(rec->body, kMaxBullets, kBodyLimit - 500);
    KeepWithinLimit(ctx, rec->body, before, "memory/requests/" + slug + ".md");
    rec->fields.updated_at = std::max(rec->fields.updated_at.value_or(""), StampOf(e, q.origin));
    ctx.set.Touch(Kind::kRequest, slug);
    ctx.notes.push_back("updated memory/requests/" + slug + ".md");
  }
  return Ok();
}

}  // namespace detail

Result<std::vector<std::string>> RulesEngine::Run(const RunInput& in, Workspace& ws) {
  detail::RulesContext ctx{ws,    detail::RecordSet(ws), *in.settings, in.store, {}, {}, false,
                           in.now};
  std::vector<detail::TimedEntry> timed;
  for (const auto& c : in.entries) {
    std::optional<text::TimePoint> session;
    for (const auto& s : {c.entry.ended_at, c.entry.started_at}) {
      if (!session && !s.empty()) session = text::ParseIso(s);
    }
    text::TimePoint t = session ? *session : sys::UuidV7Time(c.id).value_or(in.now);
    t = std::chrono::time_point_cast<std::chrono::seconds>(t);
    timed.push_back({c.entry, t, text::UtcSeconds(t)});
  }
  for (const auto& e : timed) {
    for (const auto& d : e.entry.decisions) LORE_TRY(detail::ApplyDecision(ctx, e, d));
    for (const auto& q : e.entry.requests) LORE_TRY(detail::ApplyRequest(ctx, e, q));
    LORE_TRY(detail::ApplyKnowledge(ctx, e));
  }
  // The records this run created are listed from the workspace from here on.
  LORE_TRY(ctx.set.Flush());
  LORE_TRY(detail::ApplyGotchas(ctx, timed));
  LORE_TRY(ctx.set.Flush());
  LORE_TRY(detail::ApplyBriefing(ctx, timed));
  LORE_TRY(ctx.set.Flush());
  // What the engine wrote must pass the linter like any other write.
  for (const auto& c : ws.Changes()) {
    LORE_ASSIGN(StorePath path, ParseStorePath(c.rel, PathUse::kCommit));
    LORE_ASSIGN(lint::Report report, LintInWorkspace(ws, path, c.bytes, ViewScope::kReferences));
    if (report.HasErrors()) return tl::unexpected(FirstLintError(report));
  }
  // One note per file, in path order.
  std::sort(ctx.notes.begin(), ctx.notes.end());
  ctx.notes.erase(std::unique(ctx.notes.begin(), ctx.notes.end()), ctx.notes.end());
  return ctx.notes;
}

}  // namespace lore::consolidate
