// The rules engine's briefing (memory/summary.md) and gotchas (knowledge/),
// read from the store's session logs (see rules_engine.h).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>

#include "activity/card.h"
#include "activity/excerpt.h"
#include "consolidate/briefing.h"
#include "consolidate/bullets.h"
#include "consolidate/rules_parts.h"
#include "consolidate/topic.h"
#include "doc/slug.h"
#include "lore/fs/fd.h"
#include "lore/text/utf8.h"
#include "recall/recall.h"
#include "text/lines.h"

namespace lore::consolidate::detail {
namespace {

using doc::Kind;

constexpr size_t kRecentSessions = 6;    // sessions the briefing shows in detail
constexpr size_t kEarlierSessions = 30;  // older ones it may name by their task
constexpr size_t kGotchaSessions = 200;  // latest sessions searched for a recurring failure
constexpr size_t kBriefingDecisions = 10;
constexpr size_t kBriefingGotchas = 8;
constexpr size_t kSeenLines = 10;        // occurrences a gotcha page lists
constexpr size_t kSummaryLimit = 20000;  // the linter's limit for the summary body

struct Dated {
  activity::SessionFile file;
  activity::LogEnds ends;
};

// The store's session logs, newest first (by the session's own last time).
Result<std::vector<Dated>> SessionsByTime(const store::Store& store) {
  LORE_ASSIGN(auto files, activity::ListSessionLogs(store));
  std::vector<Dated> out;
  for (auto& f : files) {
    auto ends = activity::ReadLogEnds(f.path);
    if (!ends) continue;  // unreadable: left out of the briefing, never a failure
    out.push_back({std::move(f), std::move(*ends)});
  }
  std::stable_sort(out.begin(), out.end(), [](const Dated& a, const Dated& b) {
    return a.ends.ended_at != b.ends.ended_at ? a.ends.ended_at > b.ends.ended_at
                                              : a.file.stem > b.file.stem;
  });
  return out;
}

std::optional<activity::SessionLog> ReadLog(const Dated& d) {
  auto log = activity::ReadSessionLog(d.file.path, d.file.stem);
  if (!log) return std::nullopt;
  return std::move(*log);
}

// "Chosen: X" and "Options: a; b" lines of a decision body, and its last bullet.
void ReadDecisionBody(std::string_view body, std::string* chosen, std::string* options,
                      std::string* why) {
  for (std::string_view line : text::Lines(body)) {
    if (line.rfind("Chosen: ", 0) == 0) *chosen = std::string(line.substr(8));
    if (line.rfind("Options: ", 0) == 0) *options = std::string(line.substr(9));
    if (line.rfind("- ", 0) == 0) *why = std::string(line.substr(2));
  }
}

// Which records aged out by use (recall::IsAged: not pinned, neither shown
// nor opened for recall.unused_days): they leave the briefing as they leave
// recall. Nothing ages without a store (no usage log) or with
// recall.unused_days = 0.
class Ageing {
 public:
  static Result<Ageing> Of(const RulesContext& ctx) {
    Ageing a;
    if (!ctx.store) return a;
    LORE_ASSIGN(a.settings_, recall::LoadSettings(*ctx.store));
    if (a.settings_.unused_days <= 0) return a;
    LORE_ASSIGN(a.usage_, recall::ReadUsage(*ctx.store));
    a.now_s_ = std::chrono::duration_cast<std::chrono::seconds>(ctx.now.time_since_epoch()).count();
    a.on_ = true;
    return a;
  }
  // `rel` is the record's path in the store; `changed_at` Workspace::ChangedAt's.
  bool Aged(const std::string& rel, int64_t changed_at) const {
    if (!on_ || changed_at == INT64_MAX) return false;  // written by this run: new
    return recall::IsAged(usage_, rel, changed_at / 1000000000, settings_, now_s_);
  }

 private:
  bool on_ = false;
  recall::Settings settings_;
  recall::Usage usage_;
  int64_t now_s_ = 0;
};

// The decisions most recently made or changed. Only the newest files are
// parsed (by modification time, this run's changes first): a store of
// thousands of decisions costs a stat each, not a parse each. Among those,
// the order is the records' own updated_at.
Result<std::vector<BriefingInput::Decision>> RecentDecisions(RulesContext& ctx,
                                                             const Ageing& ageing) {
  struct Recent {
    std::string when, slug;
    BriefingInput::Decision d;
  };
  std::vector<Recent> all;
  LORE_ASSIGN(auto names, ctx.ws.ListSlugs(std::string(doc::KindDir(Kind::kDecision))));
  std::vector<std::pair<int64_t, std::string>> newest;
  for (auto& slug : names) {
    if (!doc::IsValidSlug(slug)) continue;
    const std::string rel = doc::RelPath(Kind::kDecision, slug);
    auto at = ctx.ws.ChangedAt(rel);
    if (!at || *at == INT64_MIN) continue;  // the linter reports what cannot be read
    if (ageing.Aged(rel, *at)) continue;
    newest.emplace_back(*at, std::move(slug));
  }
  std::stable_sort(newest.begin(), newest.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [changed_at, slug] : newest) {
    if (all.size() >= 2 * kBriefingDecisions) break;
    auto rec = ctx.set.Get(Kind::kDecision, slug);
    if (!rec || !*rec) continue;  // one the linter reports; never the briefing's failure
    const doc::Record& r = **rec;
    if (r.fields.status.value_or("") == "replaced") continue;
    BriefingInput::Decision d;
    std::string options;
    ReadDecisionBody(r.body, &d.chosen, &options, &d.why);
    if (d.chosen.empty()) continue;
    // The options other than the chosen one.
    size_t pos = 0;
    while (pos <= options.size() && !options.empty()) {
      size_t end = options.find("; ", pos);
      if (end == std::string::npos) end = options.size();
      std::string o = options.substr(pos, end - pos);
      if (!o.empty() && NormalisePhrase(o) != NormalisePhrase(d.chosen))
        d.over += (d.over.empty() ? "" : ", ") + o;
      pos = end + 2;
    }
    std::string when = r.fields.updated_at.value_or(r.fields.created_at.value_or(""));
    d.date = when.substr(0, 10);
    all.push_back({when, slug, std::move(d)});
  }
  // Newest first; a tie (two decisions of one moment) by slug, so that a run
  // that changes nothing writes the same briefing whatever the files' times.
  std::sort(all.begin(), all.end(), [](const Recent& a, const Recent& b) {
    return a.when != b.when ? a.when > b.when : a.slug < b.slug;
  });
  std::vector<BriefingInput::Decision> out;
  for (auto& x : all) {
    if (out.size() >= kBriefingDecisions) break;
    out.push_back(std::move(x.d));
  }
  return out;
}

Result<std::vector<BriefingInput::Gotcha>> Gotchas(RulesContext& ctx, const Ageing& ageing) {
  std::vector<std::pair<std::string, BriefingInput::Gotcha>> all;
  LORE_ASSIGN(auto slugs, ctx.ws.ListSlugs(std::string(doc::KindDir(Kind::kKnowledge))));
  for (const auto& slug : slugs) {
    if (!doc::IsValidSlug(slug)) continue;
    const std::string rel = doc::RelPath(Kind::kKnowledge, slug);
    auto at = ctx.ws.ChangedAt(rel);
    if (!at || ageing.Aged(rel, *at)) continue;
    auto rec = ctx.set.Get(Kind::kKnowledge, slug);
    if (!rec || !*rec) continue;
    const doc::Record& r = **rec;
    if (r.fields.kind.value_or("") != "gotcha" || !r.fields.description) continue;
    all.push_back({r.fields.updated_at.value_or(""), {slug, *r.fields.description}});
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<BriefingInput::Gotcha> out;
  for (auto& [when, g] : all) {
    if (out.size() >= kBriefingGotchas) break;
    out.push_back(std::move(g));
  }
  return out;
}

constexpr std::string_view kDiscussions = "Discussions";
constexpr size_t kOutsideChars = 10000;  // the summary outside the briefing, lore's lines cut first

// Adds the discussion as a line "- **<topic>**: p1; p2", or extends the line
// of the same topic with the points it lacks. True when changed.
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

// The discussions of entries whose session left no log (staged by another
// tool): the briefing cannot show them, so they become lines of a
// Discussions section after it (seed 002: a discussion becomes a decision or
// a summary line), the oldest dropped past kOutsideChars.
bool AddUnloggedDiscussions(const RulesContext& ctx, const std::vector<TimedEntry>& entries,
                            std::string* body) {
  BulletBody bullets(*body);
  bool changed = false;
  for (const auto& e : entries) {
    if (e.entry.discussions.empty()) continue;
    if (ctx.store && fs::Exists(activity::SessionLogPath(*ctx.store, e.entry.source.session_id)))
      continue;
    for (const auto& d : e.entry.discussions) changed = AddDiscussion(bullets, d) || changed;
  }
  if (!changed) return false;
  // What lies outside the briefing stays under kOutsideChars: the oldest
  // discussion lines go first (a person's own text is never cut).
  while (text::CodePointCount(WithBriefing(bullets.Render(), "")) > kOutsideChars &&
         bullets.DropOldest(kDiscussions)) {
  }
  *body = bullets.Render();
  return true;
}

std::string SeenLine(const activity::FailureSeen& f, const std::string& fix) {
  std::string line = "- " + f.at.substr(0, 10) + ", session " + f.session_id.substr(0, 8) +
                     " (lines " + std::to_string(f.first_line) + "-" + std::to_string(f.last_line) +
                     "): `" + Cut(OneLine(f.action), 120) + "`";
  line += fix.empty() ? ": not fixed in that session"
                      : "; then worked: `" + Cut(OneLine(fix), 160) + "`";
  return line;
}

}  // namespace

Status ApplyGotchas(RulesContext& ctx, const std::vector<TimedEntry>& entries) {
  if (!ctx.store) return Ok();
  // The signatures of this run's failures.
  std::map<std::string, const StagedAttempt*> wanted;
  for (const auto& e : entries) {
    for (const auto& a : e.entry.attempts) {
      std::string sig = activity::ErrorSignature(a.result);
      if (!sig.empty() && !wanted.count(sig)) wanted[sig] = &a;
    }
  }
  if (wanted.empty()) return Ok();
  LORE_ASSIGN(auto sessions, SessionsByTime(*ctx.store));
  if (sessions.size() > kGotchaSessions) sessions.resize(kGotchaSessions);
  struct Hit {
    activity::FailureSeen seen;
    std::string fix, cause;
  };
  std::map<std::string, std::vector<Hit>> hits;  // signature -> one per session
  for (const auto& d : sessions) {
    auto log = ReadLog(d);
    if (!log) continue;
    std::vector<activity::FailureSeen> failures = activity::Failures(*log);
    bool any = false;
    for (const auto& f : failures) any = any || wanted.count(f.signature);
    if (!any) continue;
    activity::SessionCard card = activity::ReadCard(*log);
    std::set<std::string> done;
    for (auto& f : failures) {
      if (!wanted.count(f.signature) || !done.insert(f.signature).second) continue;
      Hit h{f, "", ""};
      for (const auto& ep : card.episodes) {
        if (activity::ErrorSignature(ep.error) == f.signature) {
          h.fix = ep.fix;
          h.cause = ep.cause;
          if (ep.fixed()) break;
        }
      }
      hits[f.signature].push_back(std::move(h));
    }
  }
  for (auto& [sig, list] : hits) {
    const std::string slug = GotchaSlug(sig);
    LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kKnowledge, slug));
    if (!rec && list.size() < 2) continue;  // seen in one session only: not yet a gotcha
    // Oldest first.
    std::stable_sort(list.begin(), list.end(),
                     [](const Hit& a, const Hit& b) { return a.seen.at < b.seen.at; });
    const Hit* fixed = nullptr;
    const Hit* caused = nullptr;
    for (const auto& h : list) {
      if (!h.fix.empty()) fixed = &h;
      if (!h.cause.empty()) caused = &h;
    }
    const Hit& last = list.back();
    std::string error = activity::FirstLine(last.seen.error, 300);
    std::string body = "# " + Cut(OneLine(error), 160) + "\n\n`" +
                       Cut(OneLine(last.seen.action), 200) + "` fails with:\n\n> " +
                       Cut(OneLine(last.seen.error), 600) + "\n\n";
    if (caused) body += "Why (the agent's diagnosis): " + Cut(OneLine(caused->cause), 400) + "\n\n";
    body += fixed ? "What worked: `" + Cut(OneLine(fixed->fix), 300) + "`\n\n"
                  : "No session has fixed it yet.\n\n";
    body += "## Seen\n";
    size_t first = list.size() > kSeenLines ? list.size() - kSeenLines : 0;
    std::vector<doc::Source> sources;
    for (size_t i = first; i < list.size(); ++i) {
      body += SeenLine(list[i].seen, list[i].fix) + "\n";
      sources.push_back({list[i].seen.session_id,
                         {static_cast<uint64_t>(list[i].seen.first_line),
                          static_cast<uint64_t>(list[i].seen.last_line)}});
    }
    body = Cut(body, kBodyLimit - 100);
    std::string description =
        "When `" + Cut(OneLine(last.seen.action), 80) + "` fails with \"" +
        Cut(OneLine(error), 160) + "\"" +
        (fixed ? ": " + Cut(OneLine(fixed->fix), 160) + " worked" : std::string(kNotFixedYet));
    const std::string stamp = last.seen.at.empty() ? entries.back().stamp : last.seen.at;
    if (!rec) {
      doc::Record r = doc::NewRecord(Kind::kKnowledge, entries.back().time);
      r.fields.created_at = list.front().seen.at.empty() ? stamp : list.front().seen.at;
      r.fields.updated_at = stamp;
      r.fields.kind = "gotcha";
      r.fields.description = description;
      r.fields.last_sources = sources;
      r.body = std::move(body);
      ctx.set.Create(Kind::kKnowledge, slug, std::move(r));
      ctx.notes.push_back("created knowledge/" + slug + ".md");
      continue;
    }
    if (rec->body == body && rec->fields.description == description) continue;
    rec->body = std::move(body);
    rec->fields.description = description;
    rec->fields.last_sources = sources;
    rec->fields.updated_at = std::max(rec->fields.updated_at.value_or(""), stamp);
    ctx.set.Touch(Kind::kKnowledge, slug);
    ctx.notes.push_back("updated knowledge/" + slug + ".md");
  }
  return Ok();
}

Status ApplyBriefing(RulesContext& ctx, const std::vector<TimedEntry>& entries) {
  BriefingInput in;
  in.budget = static_cast<size_t>(ctx.settings.summary_max_chars);
  if (ctx.store) {
    in.project = ctx.store->key();
    LORE_ASSIGN(auto sessions, SessionsByTime(*ctx.store));
    in.sessions = static_cast<int64_t>(sessions.size());
    std::string first;
    for (const auto& d : sessions) {
      if (!d.ends.started_at.empty() && (first.empty() || d.ends.started_at < first))
        first = d.ends.started_at;
    }
    in.first_date = first.substr(0, 10);
    for (size_t i = 0; i < sessions.size() && i < kRecentSessions + kEarlierSessions; ++i) {
      auto log = ReadLog(sessions[i]);
      if (!log) continue;
      activity::SessionCard card = activity::ReadCard(*log);
      if (log->spans.empty() && log->events.empty()) continue;
      const std::string date =
          (card.started_at.empty() ? card.ended_at : card.started_at).substr(0, 10);
      for (const auto& rule : card.instructions) {
        // A resumed session holds the lines of the one it resumed: a rule said
        // once is listed once, on the day it was first said.
        auto said = std::find_if(in.instructions.begin(), in.instructions.end(),
                                 [&](const auto& r) { return r.text == rule; });
        if (said != in.instructions.end()) {
          if (!date.empty() && date < said->date) said->date = date;
        } else if (in.instructions.size() < 12) {
          in.instructions.push_back({date, rule});
        }
      }
      if (in.recent.size() < kRecentSessions) {
        in.recent.push_back(std::move(card));
      } else {
        in.earlier.push_back(
            {(card.started_at.empty() ? card.ended_at : card.started_at).substr(0, 10),
             card.session_id, card.task});
      }
    }
  }
  LORE_ASSIGN(Ageing ageing, Ageing::Of(ctx));
  LORE_ASSIGN(in.decisions, RecentDecisions(ctx, ageing));
  LORE_ASSIGN(in.gotchas, Gotchas(ctx, ageing));
  LORE_ASSIGN(doc::Record * rec, ctx.set.Get(Kind::kSummary, doc::kSummarySlug));
  std::string old = rec ? rec->body : std::string();
  const bool discussed = AddUnloggedDiscussions(ctx, entries, &old);
  if (in.recent.empty() && in.decisions.empty() && in.gotchas.empty() && !discussed) return Ok();
  // The person's own text is kept; the briefing shrinks to leave the whole
  // body within the linter's limit, so that no store can wedge on it.
  std::string without = WithBriefing(old, "");
  size_t others = text::CodePointCount(without);
  if (others + 200 >= kSummaryLimit) {
    ctx.notes.push_back(
        "left memory/summary.md as it is: the text outside the briefing fills "
        "the linter's limit");
    return Ok();
  }
  in.budget = std::min(in.budget, kSummaryLimit - others - 100);
  std::string body = WithBriefing(old, RenderBriefing(in));
  if (rec && body == rec->body) return Ok();
  std::string stamp = entries.empty() ? std::string() : entries.back().stamp;
  for (const auto& c : in.recent) {
    if (c.ended_at > stamp) stamp = c.ended_at;
  }
  if (!rec) {
    doc::Record r = doc::NewRecord(Kind::kSummary, entries.front().time);
    r.body = std::move(body);
    if (!stamp.empty()) r.fields.updated_at = stamp;
    ctx.set.Create(Kind::kSummary, doc::kSummarySlug, std::move(r));
  } else {
    rec->body = std::move(body);
    if (!stamp.empty())
      rec->fields.updated_at = std::max(rec->fields.updated_at.value_or(""), stamp);
    ctx.set.Touch(Kind::kSummary, doc::kSummarySlug);
  }
  ctx.notes.push_back("rewrote memory/summary.md (the briefing)");
  return Ok();
}

}  // namespace lore::consolidate::detail
