#include "lore/index/record.h"

#include <array>
#include <nlohmann/json.hpp>

#include "activity/session_log.h"
#include "doc/frontmatter.h"
#include "lore/doc/facts.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/text/time.h"
#include "lore/text/utf8.h"

namespace lore::index {
namespace {

constexpr std::array<std::string_view, 6> kScopeNames = {"memory", "knowledge", "learnings",
                                                         "raw",    "okf",       "sessions"};

// Keys of a JSON record that are its ranking fields or bookkeeping, not text.
constexpr std::array<std::string_view, 6> kAuthorKeys = {"speaker",           "author", "agent",
                                                         "proposed_by_agent", "user",   "by"};
constexpr std::array<std::string_view, 7> kTimeKeys = {
    "recorded_at", "created_at", "timestamp", "time", "date", "at", "updated_at"};
constexpr std::array<std::string_view, 3> kSessionKeys = {"session_id", "session",
                                                          "source_session"};
constexpr std::array<std::string_view, 3> kPositionKeys = {"position", "turn", "seq"};
constexpr std::array<std::string_view, 11> kBookkeepingKeys = {
    "id",    "kind",        "schema_version", "expires_at", "_provenance", "confidence",
    "scope", "occurrences", "host_class",     "anonymized", "wave_id"};

template <size_t N>
bool InSet(const std::array<std::string_view, N>& set, std::string_view key) {
  for (auto k : set) {
    if (k == key) return true;
  }
  return false;
}

std::optional<int64_t> ToSeconds(std::string_view iso) {
  auto t = text::ParseIso(iso);
  if (!t) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

// Reads the frontmatter fields that search needs (doc::ReadFacts); a
// frontmatter that does not read leaves them unset.
void ReadFrontmatter(std::string_view yaml, const std::string& rel, int64_t yaml_line, Record* r) {
  auto read = doc::ReadFacts(yaml, rel, yaml_line);
  if (!read) return;
  const doc::Facts& f = *read;
  if (r->kind.empty()) r->kind = f.kind;
  if (f.description) r->description = f.description;
  if (r->scope == Scope::kKnowledge) r->model_invokation = f.model_invokation.value_or(false);
  r->status = f.status;
  r->replaced_by = f.replaced_by;
  if (r->author.empty()) r->author = f.author;
  if (!r->time && f.updated) {
    r->time =
        std::chrono::duration_cast<std::chrono::seconds>(f.updated->time_since_epoch()).count();
  }
  if (r->session.empty()) r->session = f.session;
  if (r->scope == Scope::kOkf) {
    std::string extra = f.title;
    for (const auto& tag : f.tags) extra += " " + tag;
    r->words = extra + "\n" + r->words;
  }
}

void CollectStrings(const Json& v, std::string* out) {
  if (v.is_string()) {
    out->append(v.get<std::string>());
    out->push_back('\n');
  } else if (v.is_array() || v.is_object()) {
    for (const auto& e : v) CollectStrings(e, out);
  }
}

std::string Render(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array() &&
      std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_string(); })) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : ", ") + e.get<std::string>();
    return s;
  }
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// One turn of a session log: its text, labelled by who said or did it.
Record FromSessionLine(const std::string& rel, int64_t line_no, std::string_view line) {
  Record r;
  r.scope = Scope::kSessions;
  r.file = rel;
  r.line = line_no;
  r.slug = rel + ":" + std::to_string(line_no);
  activity::LogLine l;
  if (!activity::ParseLogLine(line, &l) || l.is_span) return r;
  const activity::Event& e = l.event;
  std::string_view stem = std::string_view(rel).substr(rel.rfind('/') + 1);
  if (stem.size() > 6) stem.remove_suffix(6);  // ".jsonl"
  r.session = std::string(stem);
  r.position = e.line;
  if (!e.at.empty()) r.time = ToSeconds(e.at);
  switch (e.kind) {
    case activity::EventKind::kPersonText:
      r.kind = "person";
      r.author = "person";
      r.text = "person: " + e.text;
      r.words = e.text;
      break;
    case activity::EventKind::kAssistantText:
      r.kind = "agent";
      r.text = "agent: " + e.text;
      r.words = e.text;
      break;
    case activity::EventKind::kCompaction:
      r.kind = "compaction";
      r.text = "summary of the earlier context: " + e.text;
      r.words = e.text;
      break;
    case activity::EventKind::kToolUse:
      r.kind = "tool";
      r.text = e.tool_name + ": " + e.detail;
      if (!e.note.empty()) r.text += "\n(" + e.note + ")";
      if (!e.text.empty()) r.text += "\nwrote:\n" + e.text;
      if (!e.defines.empty()) r.text += "\ndefines: " + e.defines;
      r.words = e.tool_name + "\n" + e.detail + "\n" + e.note + "\n" + e.text + "\n" + e.defines;
      break;
    case activity::EventKind::kToolResult: {
      r.kind = "result";
      if (e.text.empty() && e.reason.empty() && e.about.empty()) return r;  // nothing to find
      std::string status(activity::StatusName(e.status));
      r.text = "result " + status;
      if (e.exit_code) r.text += " (exit " + std::to_string(*e.exit_code) + ")";
      if (!e.reason.empty()) r.text += ": the person said: " + e.reason;
      if (!e.text.empty()) r.text += ":\n" + e.text;
      // What the README or manifest read says the project is: the file's words, quoted.
      if (!e.about.empty()) r.text += "\nthe file says the project is: \"" + e.about + "\"";
      r.words = status + "\n" + e.reason + "\n" + e.text + "\n" + e.about;
      break;
    }
    case activity::EventKind::kInterrupt:
      return r;
  }
  return r;
}

}  // namespace

std::string_view ScopeName(Scope s) { return kScopeNames[static_cast<size_t>(s)]; }

std::optional<Scope> ParseScope(std::string_view name) {
  for (size_t i = 0; i < kScopeNames.size(); ++i) {
    if (kScopeNames[i] == name) return static_cast<Scope>(i);
  }
  return std::nullopt;
}

Record FromMarkdown(Scope scope, const std::string& rel, std::string_view kind,
                    std::string_view content) {
  Record r;
  r.scope = scope;
  r.file = rel;
  r.kind = std::string(kind);
  std::string_view base = std::string_view(rel).substr(rel.rfind('/') + 1);
  if (base.size() > 3 && base.substr(base.size() - 3) == ".md") base.remove_suffix(3);
  r.slug = std::string(base);
  r.text = std::string(content);
  auto split = doc::SplitFrontmatter(content, rel);
  if (!split) {
    r.words = r.text;
  } else {
    r.words = std::string(split->body);
    ReadFrontmatter(split->yaml, rel, split->yaml_line, &r);
    if (r.description) r.words = *r.description + "\n" + r.words;
    if (!r.author.empty()) r.words = r.author + "\n" + r.words;
  }
  return r;
}

Record FromJsonLine(Scope scope, const std::string& rel, int64_t line_no, std::string_view line) {
  if (scope == Scope::kSessions) return FromSessionLine(rel, line_no, line);
  Record r;
  r.scope = scope;
  r.file = rel;
  r.line = line_no;
  r.position = line_no;
  r.slug = rel + ":" + std::to_string(line_no);
  // A line too large or too deep to read as JSON is indexed as its first
  // kMaxIndexedLineBytes of text, so one huge line cannot stall every search.
  static const json::Limits limits = [] {
    json::Limits l = json::ForeignLogLine();
    l.max_bytes = kMaxIndexedLineBytes;
    return l;
  }();
  auto parsed = json::ParseOrdered(line, limits);
  if (!parsed || !parsed->is_object()) {
    r.text = std::string(text::PrefixBytes(line, kMaxIndexedLineBytes));
    r.words = r.text;
    return r;
  }
  const Json& j = *parsed;
  for (const auto& [key, v] : j.items()) {
    if (v.is_null()) continue;
    std::string value = Render(v);
    r.text += key + ": " + value + "\n";
    if (key == "kind" || (key == "type" && scope == Scope::kLearnings)) r.kind = value;
    if (key == "id" && v.is_string() && scope == Scope::kLearnings) r.slug = value;
    if (InSet(kAuthorKeys, key)) {
      if (r.author.empty() && v.is_string()) r.author = value;
    } else if (InSet(kTimeKeys, key)) {
      if (!r.time && v.is_string()) r.time = ToSeconds(value);
    } else if (InSet(kSessionKeys, key)) {
      if (r.session.empty() && (v.is_string() || v.is_number())) r.session = value;
    } else if (InSet(kPositionKeys, key)) {
      if (auto p = json::AsInt(v)) r.position = *p;
    } else if (key == "status") {
      r.status = value;
    } else if (key == "replaced_by") {
      r.replaced_by = value;
    } else if (!InSet(kBookkeepingKeys, key)) {
      CollectStrings(v, &r.words);
    }
  }
  if (!r.text.empty()) r.text.pop_back();
  if (!r.author.empty()) r.words = r.author + "\n" + r.words;  // an author's name is searchable
  if (scope == Scope::kLearnings) {
    // A learning leaves default search when it expires or its confidence
    // falls to 0 (docs/learnings.md): 0 makes it expired at any time.
    if (auto e = json::String(j, "expires_at")) r.expires = ToSeconds(*e);
    if (auto c = json::Number(j, "confidence"); c && *c <= 0) r.expires = 0;
  }
  return r;
}

}  // namespace lore::index
