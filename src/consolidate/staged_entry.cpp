#include "lore/consolidate/staged_entry.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/text/time.h"
#include "lore/text/utf8.h"

namespace lore::consolidate {
namespace {

constexpr const char* kRepair =
    "fix that field (see docs/consolidation.md for the staged entry) and stage the entry again";

// Validation state: the file and the JSON path of the value being read.
struct Reader {
  const std::string& file;

  tl::unexpected<Error> Bad(const std::string& field, const std::string& must) const {
    return Fail(ErrorCode::kInvalidInput, "staged entry field " + field + " " + must, file, 0,
                kRepair);
  }

  Status Keys(const Json& obj, const std::string& where,
              std::initializer_list<std::string_view> allowed) const {
    for (const auto& [key, value] : obj.items()) {
      bool ok = false;
      for (auto a : allowed) ok = ok || key == a;
      if (!ok) {
        std::string list;
        for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        return Bad(where.empty() ? key : where + "." + key,
                   "is not a known field (expected one of: " + list + ")");
      }
    }
    return Ok();
  }

  Result<std::string> Text(const Json& obj, const std::string& where, const char* key,
                           bool non_empty) const {
    std::string field = where + "." + key;
    auto it = obj.find(key);
    if (it == obj.end()) return Bad(field, "is missing");
    if (!it->is_string()) return Bad(field, "must be a string");
    std::string s = it->get<std::string>();
    if (non_empty && s.find_first_not_of(" \t\r\n") == std::string::npos) {
      return Bad(field, "must be a non-empty string");
    }
    return s;
  }

  Result<std::vector<std::string>> Strings(const Json& obj, const std::string& where,
                                           const char* key) const {
    std::string field = where + "." + key;
    auto it = obj.find(key);
    if (it == obj.end()) return Bad(field, "is missing");
    if (!it->is_array()) return Bad(field, "must be a list of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& v = (*it)[i];
      if (!v.is_string() ||
          v.get<std::string>().find_first_not_of(" \t\r\n") == std::string::npos) {
        return Bad(field + "[" + std::to_string(i) + "]", "must be a non-empty string");
      }
      out.push_back(v.get<std::string>());
    }
    return out;
  }

  // The list `key` of the entry: absent means empty.
  Result<const Json*> List(const Json& root, const char* key) const {
    auto it = root.find(key);
    if (it == root.end() || it->is_null()) return nullptr;
    if (!it->is_array()) return Bad(key, "must be a list");
    for (size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_object())
        return Bad(std::string(key) + "[" + std::to_string(i) + "]", "must be an object");
    }
    return &*it;
  }

  // An optional string member: absent or null gives "".
  Result<std::string> OptText(const Json& obj, const std::string& where, const char* key) const {
    auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return std::string();
    if (!it->is_string()) return Bad(where + "." + key, "must be a string");
    return it->get<std::string>();
  }

  // An optional RFC 3339 time stamp, normalised to seconds ("" when absent).
  Result<std::string> OptTime(const Json& obj, const std::string& where, const char* key) const {
    LORE_ASSIGN(std::string s, OptText(obj, where, key));
    if (s.empty()) return s;
    auto t = text::ParseIso(s);
    if (!t) return Bad(where.empty() ? key : where + "." + key, "must be an RFC 3339 time");
    return text::UtcSeconds(*t);
  }

  // `lines` ([first, last]) and `at` of an item.
  Result<ItemOrigin> Origin(const Json& obj, const std::string& where) const {
    ItemOrigin o;
    if (auto r = obj.find("lines"); r != obj.end() && !r->is_null()) {
      if (!r->is_array() || r->size() != 2 || !(*r)[0].is_number_unsigned() ||
          !(*r)[1].is_number_unsigned() || (*r)[0].get<uint64_t>() > (*r)[1].get<uint64_t>()) {
        return Bad(where + ".lines", "must be [first, last] with first <= last");
      }
      o.lines = doc::Range{(*r)[0].get<uint64_t>(), (*r)[1].get<uint64_t>()};
    }
    LORE_ASSIGN(o.at, OptTime(obj, where, "at"));
    return o;
  }
};

Result<doc::Source> ReadSource(const Reader& rd, const Json& root) {
  auto it = root.find("source");
  if (it == root.end()) return rd.Bad("source", "is missing");
  if (!it->is_object()) return rd.Bad("source", "must be an object {session_id, range}");
  const Json& s = *it;
  LORE_TRY(rd.Keys(s, "source", {"session_id", "segment_id", "range"}));
  doc::Source out;
  const char* id_key = s.contains("session_id") ? "session_id" : "segment_id";
  LORE_ASSIGN(out.session_id, rd.Text(s, "source", id_key, true));
  if (out.session_id.find_first_of("\r\n") != std::string::npos) {
    return rd.Bad(std::string("source.") + id_key, "must be one line");
  }
  auto r = s.find("range");
  if (r == s.end()) return rd.Bad("source.range", "is missing");
  if (!r->is_array() || r->size() != 2 || !(*r)[0].is_number_unsigned() ||
      !(*r)[1].is_number_unsigned()) {
    return rd.Bad("source.range", "must be [from, to] with two non-negative integers");
  }
  out.range.from = (*r)[0].get<uint64_t>();
  out.range.to = (*r)[1].get<uint64_t>();
  if (out.range.from > out.range.to) return rd.Bad("source.range", "must have from <= to");
  return out;
}

Status ReadDecisions(const Reader& rd, const Json& root, StagedEntry& e) {
  LORE_ASSIGN(const Json* list, rd.List(root, "decisions"));
  if (!list) return Ok();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& d = (*list)[i];
    std::string at = "decisions[" + std::to_string(i) + "]";
    LORE_TRY(rd.Keys(d, at, {"options", "chosen", "rationale", "lines", "at"}));
    StagedDecision out;
    LORE_ASSIGN(out.options, rd.Strings(d, at, "options"));
    LORE_ASSIGN(out.chosen, rd.Text(d, at, "chosen", true));
    LORE_ASSIGN(out.rationale, rd.Text(d, at, "rationale", false));
    LORE_ASSIGN(out.origin, rd.Origin(d, at));
    e.decisions.push_back(std::move(out));
  }
  return Ok();
}

Status ReadDiscussions(const Reader& rd, const Json& root, StagedEntry& e) {
  LORE_ASSIGN(const Json* list, rd.List(root, "discussions"));
  if (!list) return Ok();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& d = (*list)[i];
    std::string at = "discussions[" + std::to_string(i) + "]";
    LORE_TRY(rd.Keys(d, at, {"topic", "points", "lines", "at"}));
    StagedDiscussion out;
    LORE_ASSIGN(out.topic, rd.Text(d, at, "topic", true));
    LORE_ASSIGN(out.points, rd.Strings(d, at, "points"));
    LORE_ASSIGN(out.origin, rd.Origin(d, at));
    e.discussions.push_back(std::move(out));
  }
  return Ok();
}

Status ReadAttempts(const Reader& rd, const Json& root, StagedEntry& e) {
  LORE_ASSIGN(const Json* list, rd.List(root, "attempts"));
  if (!list) return Ok();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& a = (*list)[i];
    std::string at = "attempts[" + std::to_string(i) + "]";
    LORE_TRY(
        rd.Keys(a, at, {"action", "result", "succeeded", "cause", "fix", "files", "lines", "at"}));
    StagedAttempt out;
    LORE_ASSIGN(out.action, rd.Text(a, at, "action", true));
    LORE_ASSIGN(out.result, rd.Text(a, at, "result", false));
    auto s = a.find("succeeded");
    if (s == a.end()) return rd.Bad(at + ".succeeded", "is missing");
    if (!s->is_boolean()) return rd.Bad(at + ".succeeded", "must be true or false");
    out.succeeded = s->get<bool>();
    LORE_ASSIGN(out.cause, rd.OptText(a, at, "cause"));
    LORE_ASSIGN(out.fix, rd.OptText(a, at, "fix"));
    if (a.contains("files") && !a["files"].is_null()) {
      LORE_ASSIGN(out.files, rd.Strings(a, at, "files"));
    }
    LORE_ASSIGN(out.origin, rd.Origin(a, at));
    e.attempts.push_back(std::move(out));
  }
  return Ok();
}

Status ReadRequests(const Reader& rd, const Json& root, StagedEntry& e) {
  LORE_ASSIGN(const Json* list, rd.List(root, "requests"));
  if (!list) return Ok();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& q = (*list)[i];
    std::string at = "requests[" + std::to_string(i) + "]";
    LORE_TRY(rd.Keys(q, at, {"intent", "target", "summary", "lines", "at"}));
    StagedRequest out;
    LORE_ASSIGN(out.intent, rd.Text(q, at, "intent", true));
    LORE_ASSIGN(out.summary, rd.Text(q, at, "summary", true));
    auto t = q.find("target");
    if (t != q.end() && !t->is_null()) {
      if (!t->is_string()) return rd.Bad(at + ".target", "must be a string or null");
      if (!t->get<std::string>().empty()) out.target = t->get<std::string>();
    }
    LORE_ASSIGN(out.origin, rd.Origin(q, at));
    e.requests.push_back(std::move(out));
  }
  return Ok();
}

Status ReadOutcomes(const Reader& rd, const Json& root, StagedEntry& e) {
  LORE_ASSIGN(const Json* list, rd.List(root, "outcomes"));
  if (!list) return Ok();
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& o = (*list)[i];
    std::string at = "outcomes[" + std::to_string(i) + "]";
    LORE_TRY(rd.Keys(o, at, {"kind", "what", "ok", "detail", "lines", "at"}));
    StagedOutcome out;
    LORE_ASSIGN(out.kind, rd.Text(o, at, "kind", true));
    static constexpr std::string_view kKinds[] = {"commit", "push",    "pr",    "test",
                                                  "build",  "install", "remove"};
    if (std::find(std::begin(kKinds), std::end(kKinds), out.kind) == std::end(kKinds)) {
      return rd.Bad(at + ".kind", "must be commit, push, pr, test, build, install or remove");
    }
    LORE_ASSIGN(out.what, rd.Text(o, at, "what", true));
    auto ok = o.find("ok");
    if (ok == o.end() || !ok->is_boolean()) return rd.Bad(at + ".ok", "must be true or false");
    out.ok = ok->get<bool>();
    LORE_ASSIGN(out.detail, rd.OptText(o, at, "detail"));
    LORE_ASSIGN(out.origin, rd.Origin(o, at));
    e.outcomes.push_back(std::move(out));
  }
  return Ok();
}

// `lines` and `at` of an item, when set.
void PutOrigin(const ItemOrigin& o, Json& j) {
  if (o.lines) j["lines"] = Json::array({o.lines->from, o.lines->to});
  if (!o.at.empty()) j["at"] = o.at;
}

}  // namespace

Result<StagedEntry> ParseStagedEntry(std::string_view text, const std::string& path) {
  if (text.size() > kMaxStagedEntryBytes) {
    return Fail(ErrorCode::kInvalidInput,
                "staged entry is larger than " + std::to_string(kMaxStagedEntryBytes) + " bytes",
                path, 0, "split the activity into several entries");
  }
  size_t bad = 0;
  if (!text::IsValidUtf8(text, &bad)) {
    return Fail(ErrorCode::kInvalidInput,
                "staged entry is not valid UTF-8 (byte " + std::to_string(bad) + ")", path, 0,
                "send the entry as UTF-8");
  }
  json::Limits limits;
  limits.max_bytes = kMaxStagedEntryBytes;
  limits.max_depth = 16;  // the schema is three levels deep
  auto parsed = json::ParseOrdered(text, limits);
  if (!parsed) {
    return Fail(ErrorCode::kInvalidInput, "staged entry is " + parsed.error().what, path, 0,
                "send exactly one JSON object");
  }
  const Json& root = *parsed;
  if (!root.is_object()) {
    return Fail(
        ErrorCode::kInvalidInput, "staged entry is not a JSON object", path, 0,
        "send exactly one JSON object {source, decisions, discussions, attempts, requests}");
  }
  Reader rd{path};
  LORE_TRY(rd.Keys(root, "",
                   {"source", "started_at", "ended_at", "decisions", "discussions", "attempts",
                    "requests", "outcomes"}));
  StagedEntry e;
  LORE_ASSIGN(e.source, ReadSource(rd, root));
  LORE_ASSIGN(e.started_at, rd.OptTime(root, "", "started_at"));
  LORE_ASSIGN(e.ended_at, rd.OptTime(root, "", "ended_at"));
  LORE_TRY(ReadDecisions(rd, root, e));
  LORE_TRY(ReadDiscussions(rd, root, e));
  LORE_TRY(ReadAttempts(rd, root, e));
  LORE_TRY(ReadRequests(rd, root, e));
  LORE_TRY(ReadOutcomes(rd, root, e));
  return e;
}

std::string RenderStagedEntry(const StagedEntry& e) {
  Json j = Json::object();
  j["source"] = {{"session_id", e.source.session_id},
                 {"range", Json::array({e.source.range.from, e.source.range.to})}};
  if (!e.started_at.empty()) j["started_at"] = e.started_at;
  if (!e.ended_at.empty()) j["ended_at"] = e.ended_at;
  j["decisions"] = Json::array();
  for (const auto& d : e.decisions) {
    Json x = {{"options", d.options}, {"chosen", d.chosen}, {"rationale", d.rationale}};
    PutOrigin(d.origin, x);
    j["decisions"].push_back(std::move(x));
  }
  j["discussions"] = Json::array();
  for (const auto& d : e.discussions) {
    Json x = {{"topic", d.topic}, {"points", d.points}};
    PutOrigin(d.origin, x);
    j["discussions"].push_back(std::move(x));
  }
  j["attempts"] = Json::array();
  for (const auto& a : e.attempts) {
    Json x = {{"action", a.action}, {"result", a.result}, {"succeeded", a.succeeded}};
    if (!a.cause.empty()) x["cause"] = a.cause;
    if (!a.fix.empty()) x["fix"] = a.fix;
    if (!a.files.empty()) x["files"] = a.files;
    PutOrigin(a.origin, x);
    j["attempts"].push_back(std::move(x));
  }
  j["requests"] = Json::array();
  for (const auto& q : e.requests) {
    Json r = {{"intent", q.intent}};
    if (q.target) r["target"] = *q.target;
    r["summary"] = q.summary;
    PutOrigin(q.origin, r);
    j["requests"].push_back(std::move(r));
  }
  if (!e.outcomes.empty()) {
    j["outcomes"] = Json::array();
    for (const auto& o : e.outcomes) {
      Json x = {{"kind", o.kind}, {"what", o.what}, {"ok", o.ok}};
      if (!o.detail.empty()) x["detail"] = o.detail;
      PutOrigin(o.origin, x);
      j["outcomes"].push_back(std::move(x));
    }
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::strict) + "\n";
}

}  // namespace lore::consolidate
