// The page's views (include/lore/app/browse.h, docs/serve.md); its changes are curate.cpp.
#include "lore/app/browse.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <set>

#include <fcntl.h>

#include "activity/card.h"
#include "activity/session_log.h"
#include "app/page_parts.h"
#include "doc/frontmatter.h"
#include "lore/app/check.h"
#include "lore/app/counts.h"
#include "lore/app/recall.h"
#include "lore/app/review.h"
#include "lore/app/search.h"
#include "lore/app/status.h"
#include "lore/config/config.h"
#include "lore/consolidate/settings.h"
#include "lore/doc/kind.h"
#include "lore/doc/record.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/hook/session.h"
#include "lore/index/tokenizer.h"
#include "lore/json/reader.h"
#include "lore/learnings/file.h"
#include "lore/learnings/lifecycle.h"
#include "lore/memory/records.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/review.h"
#include "lore/store/layout.h"
#include "lore/sys/random.h"
#include "lore/text/utf8.h"
#include "recall/recall.h"
#include "recall/usage.h"
#include "text/lines.h"

namespace lore::app {
namespace {

constexpr size_t kBatch = 4;
constexpr size_t kTopFiles = 15;

Json UsageOf(const recall::Usage& usage, std::string_view id) {
  Json u = Json::object();
  auto it = usage.items.find(id);
  const recall::ItemUsage none;
  const recall::ItemUsage& i = it == usage.items.end() ? none : it->second;
  u["shown"] = i.shown;
  u["opened"] = i.opened;
  u["last_used"] = i.last_used > 0
                       ? text::UtcSeconds(text::TimePoint(std::chrono::seconds(i.last_used)))
                       : std::string();
  u["pinned"] = i.pinned;
  return u;
}

// The kind a page names.
std::optional<doc::Kind> KindNamed(std::string_view name) { return doc::ParseKind(name); }

// The first "# " heading of a body, else the description, else the slug.
std::string TitleOf(const doc::Record& r, const std::string& slug) {
  for (std::string_view line : text::Lines(r.body)) {
    if (line.size() > 2 && line.substr(0, 2) == "# ") return std::string(line.substr(2));
  }
  if (r.fields.description && !r.fields.description->empty()) return *r.fields.description;
  return slug;
}

Json SourcesJson(const std::optional<std::vector<doc::Source>>& sources) {
  Json out = Json::array();
  if (!sources) return out;
  for (const doc::Source& s : *sources) {
    Json j = Json::object();
    j["session_id"] = s.session_id;
    j["lines"] = Json::array({s.range.from, s.range.to});
    j["id"] = std::string(activity::kSessionsDir) + "/" + activity::SessionFileStem(s.session_id) +
              ".jsonl#" + std::to_string(s.range.from) + "-" + std::to_string(s.range.to);
    out.push_back(std::move(j));
  }
  return out;
}

Json OptString(const std::optional<std::string>& s) { return s ? Json(*s) : Json(nullptr); }

// "2026-W48": the ISO week of an RFC 3339 time, "" when it is not one.
std::string IsoWeek(std::string_view at) {
  auto t = text::ParseIso(at);
  if (!t) return {};
  std::time_t secs = std::chrono::system_clock::to_time_t(*t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%G-W%V", &tm);
  return buf;
}

}  // namespace

// What the views share with the changes (page_parts.h).
namespace page {

recall::Usage ReadUsageOrNone(const store::Store& store) {
  auto u = recall::ReadUsage(store);
  return u ? std::move(*u) : recall::Usage{};
}

bool Editable(doc::Kind k) {
  return k == doc::Kind::kDecision || k == doc::Kind::kRequest || k == doc::Kind::kKnowledge;
}

std::optional<RecordRef> RecordOf(std::string_view id) {
  if (id == store::kSummaryFile) return RecordRef{doc::Kind::kSummary, "summary"};
  for (doc::Kind k : doc::kAllKinds) {
    if (k == doc::Kind::kSummary) continue;
    const std::string dir = std::string(doc::KindDir(k)) + "/";
    if (id.size() > dir.size() + 3 && id.substr(0, dir.size()) == dir &&
        id.substr(id.size() - 3) == ".md") {
      std::string slug(id.substr(dir.size(), id.size() - dir.size() - 3));
      if (slug.find('/') != std::string::npos) return std::nullopt;
      return RecordRef{k, std::move(slug)};
    }
  }
  return std::nullopt;
}

::lore::Status RefuseTeamQueue(const store::Store& store) {
  auto cfg = config::Config::Load(store.config_path());
  if (cfg && cfg->Has("team.url")) {
    return Fail(ErrorCode::kUnavailable,
                "this store shares its proposals with a team ([team] url in config.toml)",
                store.config_path(), 0,
                "review them with 'lore review <repo>', which claims a batch from the team first");
  }
  return {};
}

}  // namespace page

std::string NewPageToken() {
  unsigned char bytes[32];
  sys::RandomBytes(bytes, sizeof bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

bool SameToken(std::string_view given, std::string_view token) {
  if (given.size() != token.size() || token.empty()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < token.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ token[i]);
  return diff == 0;
}

Result<Json> ParseChange(std::string_view body) {
  json::Limits limits;
  limits.max_bytes = size_t{1} << 20;
  limits.max_depth = 16;
  LORE_ASSIGN(Json v,
              json::ParseOrdered(body, limits, {"the request's body", 1, "send one JSON object"}));
  if (!v.is_object()) {
    return Fail(ErrorCode::kInvalidInput, "the body is not a JSON object", "", 0,
                "send one JSON object");
  }
  return v;
}

Result<Json> OverviewJson(const store::Store& store, const std::string& repo,
                          const MarkdownToHtml& markdown) {
  Json out = Json::object();
  out["repo"] = repo;
  out["store"] = store.dir();
  LORE_ASSIGN(std::string briefing, hook::SessionStartContext(store, "startup", repo));
  if (!text::IsValidUtf8(briefing)) briefing = text::ReplaceInvalidUtf8(briefing);
  Json b = Json::object();
  b["chars"] = static_cast<int64_t>(text::CodePointCount(briefing));
  if (markdown) b["html"] = markdown(briefing);
  b["text"] = std::move(briefing);
  out["briefing"] = std::move(b);
  // The learnings the page lists, live or not (its #learnings view).
  LORE_ASSIGN(StoreCounts c, CountStore(store, kCountFolders | kCountQueue | kCountLearnings));
  Json counts = Json::object();
  counts["decisions"] = c.decisions;
  counts["requests"] = c.requests;
  counts["knowledge"] = c.knowledge;
  counts["learnings"] = c.learnings + c.expired_learnings;
  counts["sessions"] = c.sessions;
  counts["pending"] = c.pending;
  out["counts"] = std::move(counts);
  return out;
}

Json CheckJson(const store::Store& store) {
  Checked c = Check(store, false);
  Json out = Json::object();
  out["ok"] = c.problems.empty();
  Json problems = Json::array(), warnings = Json::array();
  for (const Error& e : c.problems) problems.push_back(e.Format());
  for (const Error& e : c.warnings) warnings.push_back(e.Format());
  out["problems"] = std::move(problems);
  out["warnings"] = std::move(warnings);
  return out;
}

Result<Json> WatchJson(const store::Store& store, const Json& check) {
  LORE_ASSIGN(consolidate::Settings settings, consolidate::LoadSettings(store));
  LORE_ASSIGN(StatusView v, Status(store, settings, Recovery::kReadOnly));
  Json out = Json::object();
  out["consolidation"] = StatusJson(v);
  out["check"] = check;
  return out;
}

Result<Json> RecordsJson(const store::Store& store, std::string_view kind_name, int64_t offset,
                         int64_t limit) {
  auto kind = KindNamed(kind_name);
  if (!kind) {
    return Fail(ErrorCode::kInvalidInput, "no such kind of record: " + std::string(kind_name), "",
                0, "ask for decision, request, knowledge, workflow or summary");
  }
  // The files by when they were written, newest first: only the page asked
  // for is read and parsed, however many records the store holds.
  struct Found {
    std::string slug;
    int64_t mtime = 0;
  };
  std::vector<Found> found;
  if (*kind == doc::Kind::kSummary) {
    if (fs::Exists(fs::Join(store.dir(), store::kSummaryFile))) found.push_back({"summary", 0});
  } else {
    LORE_ASSIGN(std::vector<fs::DirEntry> entries,
                fs::ListExisting(store.dir(), doc::KindDir(*kind), fs::ListStat::kFull));
    for (const fs::DirEntry& e : entries) {
      if (e.is_file && e.name.size() > 3 && e.name[0] != '.' &&
          e.name.compare(e.name.size() - 3, 3, ".md") == 0) {
        found.push_back({e.name.substr(0, e.name.size() - 3), e.mtime});
      }
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Found& a, const Found& b) { return a.mtime > b.mtime; });
  const recall::Usage usage = page::ReadUsageOrNone(store);
  Json items = Json::array();
  const size_t first = static_cast<size_t>(std::max<int64_t>(offset, 0));
  const size_t last =
      std::min(found.size(), first + static_cast<size_t>(std::max<int64_t>(limit, 0)));
  for (size_t n = first; n < last; ++n) {
    const std::string& slug = found[n].slug;
    const std::string id = doc::RelPath(*kind, slug);
    Json j = Json::object();
    j["id"] = id;
    j["kind"] = std::string(doc::KindName(*kind));
    j["slug"] = slug;
    auto text = memory::ReadText(store.dir(), *kind, slug);
    if (!text) continue;  // removed meanwhile, or not a regular file
    j["size"] = static_cast<int64_t>(text->size());
    auto rec = doc::ParseRecord(*kind, *text, id);
    if (!rec) {
      j["title"] = slug;
      j["status"] = nullptr;
      j["issues"] = Json::array({rec.error().Format()});
    } else {
      j["title"] = TitleOf(*rec, slug);
      j["status"] = OptString(rec->fields.status);
      j["replaced_by"] = OptString(rec->fields.replaced_by);
      j["created_at"] = OptString(rec->fields.created_at);
      j["updated_at"] = OptString(rec->fields.updated_at);
      j["sources"] = SourcesJson(rec->fields.sources);
      Json issues = Json::array();
      for (const doc::Issue& i : rec->issues) issues.push_back(i.message);
      j["issues"] = std::move(issues);
    }
    j["usage"] = UsageOf(usage, id);
    items.push_back(std::move(j));
  }
  Json out = Json::object();
  out["total"] = static_cast<int64_t>(found.size());
  out["offset"] = static_cast<int64_t>(first);
  out["items"] = std::move(items);
  return out;
}

namespace {

// "sessions/<stem>.jsonl#<from>-<to>": a record's source, the session log's
// events of transcript lines from..to (the log keeps them for good, after
// Claude Code has deleted the transcript).
struct SourceRef {
  std::string stem;
  int64_t from = 0, to = 0;
};
std::optional<SourceRef> SourceOf(std::string_view id) {
  const std::string prefix = std::string(activity::kSessionsDir) + "/";
  const size_t hash = id.find('#');
  if (id.substr(0, prefix.size()) != prefix || hash == std::string_view::npos) return std::nullopt;
  std::string_view file = id.substr(prefix.size(), hash - prefix.size());
  if (file.size() <= 6 || file.substr(file.size() - 6) != ".jsonl") return std::nullopt;
  SourceRef ref;
  ref.stem = std::string(file.substr(0, file.size() - 6));
  // A stem is a plain file name: never a path, never hidden.
  if (ref.stem.empty() || ref.stem[0] == '.' ||
      ref.stem.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
          std::string::npos) {
    return std::nullopt;
  }
  std::string_view range = id.substr(hash + 1);
  const size_t dash = range.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view v, int64_t* out) {
    if (v.empty() || v.size() > 12 || v.find_first_not_of("0123456789") != std::string_view::npos)
      return false;
    *out = std::stoll(std::string(v));
    return true;
  };
  if (!number(range.substr(0, dash), &ref.from) || !number(range.substr(dash + 1), &ref.to) ||
      ref.to < ref.from) {
    return std::nullopt;
  }
  return ref;
}

std::string Valid(std::string s) { return text::IsValidUtf8(s) ? s : text::ReplaceInvalidUtf8(s); }

// One event of a session log as the page shows it: who, then what.
Json TurnJson(const activity::Event& e) {
  Json j = Json::object();
  switch (e.kind) {
    case activity::EventKind::kPersonText:
      j["who"] = "person";
      break;
    case activity::EventKind::kAssistantText:
      j["who"] = "agent";
      break;
    case activity::EventKind::kToolUse:
      j["who"] = "tool call";
      break;
    case activity::EventKind::kToolResult:
      j["who"] = "tool result";
      break;
    case activity::EventKind::kCompaction:
      j["who"] = "compaction";
      break;
    case activity::EventKind::kInterrupt:
      j["who"] = "interrupt";
      break;
  }
  j["line"] = e.line;
  if (!e.at.empty()) j["at"] = e.at;
  if (e.kind == activity::EventKind::kToolUse) {
    j["tool"] = Valid(e.tool_name);
    j["text"] = Valid(e.detail);
    if (!e.note.empty()) j["note"] = Valid(e.note);
  } else {
    j["text"] = Valid(e.text);
  }
  if (e.kind == activity::EventKind::kToolResult) {
    j["status"] = std::string(activity::StatusName(e.status));
    if (e.exit_code) j["exit"] = *e.exit_code;
    if (!e.reason.empty()) j["reason"] = Valid(e.reason);
  }
  return j;
}

// A turn as plain text: "person: ...", "tool call Bash: ...", a tool's
// output quoted with "> ".
std::string ReadableTurn(const Json& t) {
  const std::string who = t["who"].get<std::string>();
  const std::string body = t.contains("text") ? t["text"].get<std::string>() : std::string();
  std::string head = who;
  if (t.contains("tool")) head += " " + t["tool"].get<std::string>();
  if (t.contains("status")) {
    head += " (" + t["status"].get<std::string>() +
            (t.contains("exit") ? ", exit " + std::to_string(t["exit"].get<int64_t>()) : "") + ")";
  }
  if (t.contains("note")) head += " — " + t["note"].get<std::string>();
  std::string out = head + ":";
  if (who == "tool result") {
    if (t.contains("reason")) out += " " + t["reason"].get<std::string>();
    out += "\n";
    for (std::string_view line : text::Lines(body)) out += "> " + std::string(line) + "\n";
  } else {
    out += body.find('\n') == std::string::npos ? " " + body + "\n" : "\n" + body + "\n";
  }
  return out + "\n";
}

Result<Json> SourceJson(const store::Store& store, std::string_view id, const SourceRef& ref) {
  const std::string rel = std::string(activity::kSessionsDir) + "/" + ref.stem + ".jsonl";
  LORE_TRY(fs::OpenBeneath(store.dir(), rel, O_RDONLY).map([](auto) {}));  // no symlink on the way
  LORE_ASSIGN(activity::SessionLog log,
              activity::ReadSessionLog(fs::Join(store.dir(), rel), ref.stem));
  std::string text;
  Json turns = Json::array();
  int64_t first = 0;
  for (const activity::Event& e : log.events) {
    if (e.line < ref.from || e.line > ref.to) continue;
    if (first == 0) first = e.line;
    Json turn = TurnJson(e);
    text += ReadableTurn(turn);
    turns.push_back(std::move(turn));
  }
  Json out = Json::object();
  out["id"] = std::string(id);
  out["file"] = rel;
  out["line"] = first;
  out["text"] = text.empty() ? "(the session log keeps no event of transcript lines " +
                                   std::to_string(ref.from) + "-" + std::to_string(ref.to) + ")"
                             : text;
  out["turns"] = std::move(turns);
  out["editable"] = false;
  out["session_id"] = log.session_id;
  out["usage"] = UsageOf(recall::Usage{}, id);
  return out;
}

}  // namespace

Result<Json> ItemJson(const store::Store& store, std::string_view id,
                      const MarkdownToHtml& markdown) {
  if (auto source = SourceOf(id)) return SourceJson(store, id, *source);
  LORE_ASSIGN(recall::OpenedItem item, recall::Open(store, id));
  Json out = Json::object();
  out["id"] = item.id;
  out["file"] = item.file;
  out["line"] = item.line;
  out["text"] = text::IsValidUtf8(item.text) ? item.text : text::ReplaceInvalidUtf8(item.text);
  // A Markdown file: its frontmatter apart, its body rendered.
  if (markdown && item.line == 0 && item.file.size() > 3 &&
      item.file.compare(item.file.size() - 3, 3, ".md") == 0) {
    // A copy: adding "frontmatter" to `out` may move the string "text" is in.
    const std::string text = out["text"].get<std::string>();
    std::string_view body = text;
    if (text.rfind("---\n", 0) == 0) {
      if (auto split = doc::SplitFrontmatter(text, item.file)) {
        out["frontmatter"] = std::string(split->yaml);
        body = split->body;
      }
    }
    out["html"] = markdown(body);
  }
  auto ref = page::RecordOf(item.id);
  out["editable"] = ref && page::Editable(ref->kind);
  if (ref) {
    out["kind"] = std::string(doc::KindName(ref->kind));
    out["slug"] = ref->slug;
  }
  out["usage"] = UsageOf(page::ReadUsageOrNone(store), item.id);
  return out;
}

Result<Json> LearningsJson(const store::Store& store, text::TimePoint now) {
  LORE_ASSIGN(learnings::FileScan scan,
              learnings::ReadLearnings(fs::Join(store.dir(), store::kLearningsFile)));
  const recall::Usage usage = page::ReadUsageOrNone(store);
  Json items = Json::array();
  for (auto it = scan.lines.rbegin(); it != scan.lines.rend(); ++it) {
    if (!it->object) continue;
    auto line = learnings::ParseLine(scan, *it);
    if (!line) continue;
    const std::string id = "learnings.jsonl:" + std::to_string(it->span.line);
    Json j = Json::object();
    j["id"] = id;
    j["learning_id"] = it->facts.id;
    j["subject"] = it->facts.subject;
    j["type"] = it->facts.type;
    j["text"] =
        line->contains("insight") && (*line)["insight"].is_string() ? (*line)["insight"] : Json("");
    j["confidence"] = it->facts.confidence ? Json(*it->facts.confidence) : Json(nullptr);
    j["occurrences"] = it->facts.occurrences ? Json(*it->facts.occurrences) : Json(nullptr);
    j["live"] = learnings::IsLive(it->facts, now);
    j["expires_at"] =
        it->facts.expires_at ? Json(text::UtcSeconds(*it->facts.expires_at)) : Json(nullptr);
    j["usage"] = UsageOf(usage, id);
    items.push_back(std::move(j));
  }
  Json out = Json::object();
  out["items"] = std::move(items);
  return out;
}

namespace {

struct SessionSeen {
  activity::SessionCard card;
  std::string id;
  int64_t failures = 0;
};

Result<std::vector<SessionSeen>> ReadCards(const store::Store& store) {
  LORE_ASSIGN(std::vector<activity::SessionFile> files, activity::ListSessionLogs(store));
  std::vector<SessionSeen> out;
  for (const activity::SessionFile& f : files) {
    auto log = activity::ReadSessionLog(f.path, f.stem);
    if (!log) continue;  // one unreadable log does not hide the others
    SessionSeen s;
    s.card = activity::ReadCard(*log);
    s.id = std::string(activity::kSessionsDir) + "/" + f.stem +
           ".jsonl:" + std::to_string(std::max<int64_t>(s.card.first_line, 1));
    s.failures = static_cast<int64_t>(activity::Failures(*log).size());
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const SessionSeen& a, const SessionSeen& b) {
    return a.card.started_at > b.card.started_at;
  });
  return out;
}

}  // namespace

namespace {

// Where a session log stands in the timeline: newest first by the time of
// its first line, then by file name; read off the log's ends only.
struct SessionKey {
  std::string started_at, stem, path;
};

bool Before(const SessionKey& a, const SessionKey& b) {
  if (a.started_at != b.started_at) return a.started_at > b.started_at;
  return a.stem < b.stem;
}

// A cursor is "<started_at>~<stem>" of the last row of a page.
std::string CursorOf(const SessionKey& k) { return k.started_at + "~" + k.stem; }

Result<SessionKey> ParseCursor(std::string_view cursor) {
  const size_t tilde = cursor.find('~');
  SessionKey k;
  if (tilde != std::string_view::npos) {
    k.started_at = std::string(cursor.substr(0, tilde));
    k.stem = std::string(cursor.substr(tilde + 1));
  }
  if (tilde == std::string_view::npos || k.stem.empty() || k.stem.size() > 300 ||
      k.stem.find('/') != std::string::npos ||
      (!k.started_at.empty() && !text::ParseIso(k.started_at))) {
    return Fail(ErrorCode::kInvalidInput, "'after' is not a cursor of /api/sessions", "", 0,
                "leave 'after' out for the first page, or pass the 'next' of the last answer");
  }
  return k;
}

}  // namespace

Result<Json> SessionsJson(const store::Store& store, std::string_view after, int64_t limit) {
  if (limit < 1 || limit > kMaxSessionPage) {
    return Fail(ErrorCode::kInvalidInput,
                "'limit' must be a whole number from 1 to " + std::to_string(kMaxSessionPage), "",
                0, "leave 'limit' out for " + std::to_string(kSessionPage) + " sessions a page");
  }
  std::optional<SessionKey> from;
  if (!after.empty()) {
    LORE_ASSIGN(SessionKey k, ParseCursor(after));
    from = std::move(k);
  }
  LORE_ASSIGN(std::vector<activity::SessionFile> files, activity::ListSessionLogs(store));
  std::vector<SessionKey> keys;
  keys.reserve(files.size());
  for (activity::SessionFile& f : files) {
    auto ends = activity::ReadLogEnds(f.path);
    keys.push_back({ends ? ends->started_at : std::string(), std::move(f.stem), std::move(f.path)});
  }
  std::sort(keys.begin(), keys.end(), Before);
  auto first = keys.begin();
  if (from) first = std::upper_bound(keys.begin(), keys.end(), *from, Before);
  const auto last = first + std::min<int64_t>(limit, keys.end() - first);
  Json items = Json::array();
  for (auto k = first; k != last; ++k) {
    auto log = activity::ReadSessionLog(k->path, k->stem);
    activity::SessionLog empty;
    const activity::SessionCard c = activity::ReadCard(log ? *log : empty);
    Json j = Json::object();
    j["id"] = std::string(activity::kSessionsDir) + "/" + k->stem +
              ".jsonl:" + std::to_string(std::max<int64_t>(c.first_line, 1));
    j["session_id"] = c.session_id.empty() ? k->stem : c.session_id;
    j["started_at"] = k->started_at.empty() ? c.started_at : k->started_at;
    j["ended_at"] = c.ended_at;
    j["branch"] = c.branch;
    j["task"] = c.task;
    j["outcome"] = c.closing;
    Json outcomes = Json::array();
    for (const activity::Outcome& o : c.outcomes) {
      outcomes.push_back(o.kind + (o.ok ? "" : " (failed)") + ": " + o.what);
    }
    j["outcomes"] = std::move(outcomes);
    Json edited = Json::array();
    for (const auto& [path, edits] : c.files) edited.push_back(path);
    j["files"] = std::move(edited);
    j["failures"] = log ? static_cast<int64_t>(activity::Failures(*log).size()) : int64_t{0};
    j["unresolved"] = static_cast<int64_t>(c.Unresolved().size());
    items.push_back(std::move(j));
  }
  Json out = Json::object();
  out["total"] = static_cast<int64_t>(keys.size());
  out["next"] = last != keys.end() && last != first ? Json(CursorOf(*(last - 1))) : Json(nullptr);
  out["items"] = std::move(items);
  return out;
}

Result<Json> ActivityJson(const store::Store& store) {
  LORE_ASSIGN(std::vector<SessionSeen> cards, ReadCards(store));
  struct Week {
    int64_t sessions = 0, failures = 0, lessons = 0;
  };
  std::map<std::string, Week> weeks;
  struct File {
    int64_t edits = 0, sessions = 0;
  };
  std::map<std::string, File> files;
  for (const SessionSeen& s : cards) {
    const std::string week = IsoWeek(s.card.started_at);
    if (!week.empty()) {
      weeks[week].sessions += 1;
      weeks[week].failures += s.failures;
    }
    for (const auto& [path, edits] : s.card.files) {
      files[path].edits += edits;
      files[path].sessions += 1;
    }
  }
  // Lessons learned: the learnings promoted, by the week they were made.
  std::vector<std::string> lesson_times;
  if (auto scan = learnings::ReadLearnings(fs::Join(store.dir(), store::kLearningsFile))) {
    for (const learnings::Line& l : scan->lines) {
      if (!l.object) continue;
      auto line = learnings::ParseLine(*scan, l);
      if (!line || !line->contains("created_at") || !(*line)["created_at"].is_string()) continue;
      const std::string at = (*line)["created_at"].get<std::string>();
      const std::string week = IsoWeek(at);
      if (!week.empty()) {
        weeks[week].lessons += 1;
        lesson_times.push_back(at);
      }
    }
  }
  // Weeks without a session or a lesson are drawn too: a gap is part of the
  // picture. At most ten years of weeks, ending with the last one seen.
  std::optional<text::TimePoint> first, last;
  auto seen = [&](const std::string& at) {
    if (auto t = text::ParseIso(at)) {
      if (!first || *t < *first) first = *t;
      if (!last || *t > *last) last = *t;
    }
  };
  for (const SessionSeen& s : cards) seen(s.card.started_at);
  for (const std::string& at : lesson_times) seen(at);
  if (first && last) {
    constexpr auto kWeek = std::chrono::hours(24 * 7);
    const auto from = std::max(*first, *last - kWeek * 520);
    for (auto t = from; t <= *last + kWeek; t += kWeek) {
      std::string week = IsoWeek(text::UtcSeconds(t));
      if (!week.empty() && week <= IsoWeek(text::UtcSeconds(*last))) weeks[week];
    }
  }
  Json w = Json::array();
  for (const auto& [name, week] : weeks) {
    Json j = Json::object();
    j["week"] = name;
    j["sessions"] = week.sessions;
    j["failures"] = week.failures;
    j["lessons"] = week.lessons;
    w.push_back(std::move(j));
  }
  std::vector<std::pair<std::string, File>> ranked(files.begin(), files.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.edits != b.second.edits ? a.second.edits > b.second.edits
                                            : a.second.sessions > b.second.sessions;
  });
  if (ranked.size() > kTopFiles) ranked.resize(kTopFiles);
  Json f = Json::array();
  for (const auto& [path, file] : ranked) {
    Json j = Json::object();
    j["path"] = path;
    j["edits"] = file.edits;
    j["sessions"] = file.sessions;
    f.push_back(std::move(j));
  }
  Json out = Json::object();
  out["weeks"] = std::move(w);
  out["files"] = std::move(f);
  return out;
}

namespace {

// The title a hit shows: the first "# " heading of its text, else its
// description, else its slug with spaces.
std::string HitTitle(const index::Record& r) {
  for (std::string_view line : text::Lines(r.text)) {
    if (line.size() > 2 && line.substr(0, 2) == "# ") return std::string(line.substr(2));
  }
  if (r.description && !r.description->empty()) return *r.description;
  std::string slug = r.slug;
  for (char& c : slug) {
    if (c == '-' || c == '_') c = ' ';
  }
  return slug;
}

std::set<std::string> TokensOf(std::string_view text) {
  std::set<std::string> out;
  for (auto& t : index::Tokenize(text, index::Stemming::kEnglish)) out.insert(std::move(t));
  for (auto& t : index::Tokenize(text, index::Stemming::kOff)) out.insert(std::move(t));
  return out;
}

std::string Listed(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + ("“" + words[i] + "”");
  }
  return out;
}

std::string Share(double part, double total) {
  if (total <= 0) return "";
  const int pct = static_cast<int>(part / total * 100 + 0.5);
  return " (" + std::to_string(pct) + "% of its score)";
}

// The score of a hit in words (browse.h SearchJson): one sentence per part.
Json WhyInWords(const search::Hit& h, const std::vector<std::pair<std::string, double>>& terms) {
  const search::ScoreParts& s = h.score;
  const double total = s.Total();
  const index::Record& r = h.doc.record;
  std::vector<std::pair<double, std::string>> parts;
  // The query's own words: where the hit holds them.
  const std::set<std::string> title = TokensOf(HitTitle(r));
  const std::set<std::string> text = TokensOf(r.text);
  std::vector<std::string> in_title, in_text, missing;
  for (const auto& [token, idf] : terms) {
    if (title.count(token)) {
      in_title.push_back(token);
    } else if (text.count(token)) {
      in_text.push_back(token);
    } else {
      missing.push_back(token);
    }
  }
  if (s.text > 0) {
    std::string line;
    if (!in_title.empty()) line += "Your words " + Listed(in_title) + " are in its title";
    if (!in_text.empty()) {
      line += line.empty() ? "Your words " + Listed(in_text) + " are in its text"
                           : "; " + Listed(in_text) + " in its text";
    }
    if (line.empty()) line = "It holds your words";
    if (!missing.empty()) line += "; it lacks " + Listed(missing);
    if (!terms.empty()) {
      line += " (" + std::to_string(h.query_matched) + " of " + std::to_string(terms.size()) +
              " searched words)";
    }
    if (s.asks < 1) line += "; it asks a question, so its words count a little less";
    if (s.trace < 1) line += "; it is a tool's call or output, so its words count less";
    parts.emplace_back(s.text, line + Share(s.text, total) + ".");
  }
  if (s.expansion > 0) {
    std::vector<std::string> related;
    for (const search::Expansion& e : h.expansions) {
      std::string w = "“" + e.token + "”";
      if (!e.of.empty()) {
        w += e.stage == search::ExpansionStage::kIrregular ? " (a form of “" + e.of + "”)"
                                                           : " (related to “" + e.of + "”)";
      }
      related.push_back(w);
    }
    std::string line = "It holds words related to yours";
    if (!related.empty()) {
      line += ": ";
      for (size_t i = 0; i < related.size(); ++i) line += (i ? ", " : "") + related[i];
    }
    parts.emplace_back(s.expansion, line + Share(s.expansion, total) + ".");
  }
  if (s.context > 0) {
    parts.emplace_back(s.context,
                       "The lines or records next to it match your words, and lend it "
                       "their context" +
                           Share(s.context, total) + ".");
  }
  if (s.session > 0) {
    parts.emplace_back(s.session, "It comes from a session that holds a strong match" +
                                      Share(s.session, total) + ".");
  }
  if (s.author > 0) {
    parts.emplace_back(s.author,
                       "Its author is a name you searched for" + Share(s.author, total) + ".");
  }
  if (s.time > 0) {
    parts.emplace_back(s.time,
                       "You asked when, and it names a time or date" + Share(s.time, total) + ".");
  }
  if (s.curated > 0) {
    parts.emplace_back(s.curated,
                       "It is a learning a person kept in review, which counts "
                       "double" +
                           Share(s.curated, total) + ".");
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  Json out = Json::array();
  for (auto& [score, line] : parts) out.push_back(std::move(line));
  if (out.empty())
    out.push_back("It matched none of your words closely; it is shown as the best there was.");
  return out;
}

}  // namespace

Result<Json> SearchJson(const store::Store& store, const std::string& query,
                        const std::string& scope, bool explain, int limit, text::TimePoint now) {
  search::SearchOptions opts;
  if (scope != "all") {
    opts.filter.scope = index::ParseScope(scope);
    if (!opts.filter.scope) {
      return Fail(ErrorCode::kInvalidInput, "no such scope: " + scope, "", 0,
                  "search all, memory, knowledge, sessions, learnings or another scope of "
                  "'lore search --help'");
    }
  }
  opts.filter.replaced = index::Replaced::kHide;
  opts.filter.live_at =
      std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  opts.limit = std::clamp(limit, 1, 100);
  std::vector<std::pair<std::string, double>> terms;
  if (explain) opts.query_terms = &terms;
  LORE_ASSIGN(Searched found, Search(store, query, opts, Asker::kPerson));
  Json hits = Json::array();
  for (const search::Hit& h : found.hits) {
    Json j = search::HitJson(h, scope == "all", explain);
    if (explain) j["why"] = WhyInWords(h, terms);
    hits.push_back(std::move(j));
  }
  Json warnings = Json::array();
  for (const Error& e : found.warnings) warnings.push_back(e.Format());
  Json out = Json::object();
  out["hits"] = std::move(hits);
  out["warnings"] = std::move(warnings);
  return out;
}

Result<Json> ReviewBatchJson(const store::Store& store) {
  LORE_TRY(page::RefuseTeamQueue(store));
  const proposals::Paths paths = proposals::Paths::InStore(store.dir());
  LORE_ASSIGN(proposals::ReviewSet set, proposals::PrepareReview(paths));
  Json batch = Json::array();
  for (size_t i = 0; i < set.pending.size() && i < kBatch; ++i) {
    const Json& r = set.scan.records[set.pending[i]].record;
    auto str = [&](const char* key) {
      return r.contains(key) && r[key].is_string() ? r[key] : Json("");
    };
    Json j = Json::object();
    j["id"] = set.scan.records[set.pending[i]].id;
    j["subject"] = str("subject");
    j["type"] = str("type");
    j["text"] = str("insight");
    j["why"] = str("evidence");
    j["proposed_at"] = str("created_at");
    j["confidence"] = r.contains("confidence") ? r["confidence"] : Json(nullptr);
    batch.push_back(std::move(j));
  }
  Json out = Json::object();
  out["pending"] = static_cast<int64_t>(set.pending.size());
  out["batch"] = std::move(batch);
  return out;
}

}  // namespace lore::app
