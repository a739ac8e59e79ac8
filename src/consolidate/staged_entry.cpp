#include "lore/consolidate/staged_entry.h"

#include <nlohmann/json.hpp>

#include "lore/json/reader.h"
#include "lore/text/utf8.h"

namespace lore::consolidate {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kRepair =
    "fix that field (see FORMATS.md section 5 for the staged entry) and stage the entry again";

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
    LORE_TRY(rd.Keys(d, at, {"options", "chosen", "rationale"}));
    StagedDecision out;
    LORE_ASSIGN(out.options, rd.Strings(d, at, "options"));
    LORE_ASSIGN(out.chosen, rd.Text(d, at, "chosen", true));
    LORE_ASSIGN(out.rationale, rd.Text(d, at, "rationale", false));
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
    LORE_TRY(rd.Keys(d, at, {"topic", "points"}));
    StagedDiscussion out;
    LORE_ASSIGN(out.topic, rd.Text(d, at, "topic", true));
    LORE_ASSIGN(out.points, rd.Strings(d, at, "points"));
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
    LORE_TRY(rd.Keys(a, at, {"action", "result", "succeeded"}));
    StagedAttempt out;
    LORE_ASSIGN(out.action, rd.Text(a, at, "action", true));
    LORE_ASSIGN(out.result, rd.Text(a, at, "result", false));
    auto s = a.find("succeeded");
    if (s == a.end()) return rd.Bad(at + ".succeeded", "is missing");
    if (!s->is_boolean()) return rd.Bad(at + ".succeeded", "must be true or false");
    out.succeeded = s->get<bool>();
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
    LORE_TRY(rd.Keys(q, at, {"intent", "target", "summary"}));
    StagedRequest out;
    LORE_ASSIGN(out.intent, rd.Text(q, at, "intent", true));
    LORE_ASSIGN(out.summary, rd.Text(q, at, "summary", true));
    auto t = q.find("target");
    if (t != q.end() && !t->is_null()) {
      if (!t->is_string()) return rd.Bad(at + ".target", "must be a string or null");
      if (!t->get<std::string>().empty()) out.target = t->get<std::string>();
    }
    e.requests.push_back(std::move(out));
  }
  return Ok();
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
  LORE_TRY(rd.Keys(root, "", {"source", "decisions", "discussions", "attempts", "requests"}));
  StagedEntry e;
  LORE_ASSIGN(e.source, ReadSource(rd, root));
  LORE_TRY(ReadDecisions(rd, root, e));
  LORE_TRY(ReadDiscussions(rd, root, e));
  LORE_TRY(ReadAttempts(rd, root, e));
  LORE_TRY(ReadRequests(rd, root, e));
  return e;
}

std::string RenderStagedEntry(const StagedEntry& e) {
  Json j = Json::object();
  j["source"] = {{"session_id", e.source.session_id},
                 {"range", Json::array({e.source.range.from, e.source.range.to})}};
  j["decisions"] = Json::array();
  for (const auto& d : e.decisions) {
    j["decisions"].push_back(
        {{"options", d.options}, {"chosen", d.chosen}, {"rationale", d.rationale}});
  }
  j["discussions"] = Json::array();
  for (const auto& d : e.discussions) {
    j["discussions"].push_back({{"topic", d.topic}, {"points", d.points}});
  }
  j["attempts"] = Json::array();
  for (const auto& a : e.attempts) {
    j["attempts"].push_back(
        {{"action", a.action}, {"result", a.result}, {"succeeded", a.succeeded}});
  }
  j["requests"] = Json::array();
  for (const auto& q : e.requests) {
    Json r = {{"intent", q.intent}};
    if (q.target) r["target"] = *q.target;
    r["summary"] = q.summary;
    j["requests"].push_back(std::move(r));
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::strict) + "\n";
}

}  // namespace lore::consolidate
