#include "lore/consolidate/run_state.h"

#include <nlohmann/json.hpp>

#include "fs/atomic_file.h"
#include "lore/consolidate/staging.h"
#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::consolidate {
namespace {

Json ToJson(const RunRecord& r) {
  return Json{{"run_id", r.run_id},
              {"engine", r.engine},
              {"started_at", r.started_at},
              {"finished_at", r.finished_at},
              {"outcome", r.outcome},
              {"consumed_ids", r.consumed_ids},
              {"changed", r.changed},
              {"notes", r.notes},
              {"invalid_ids", r.invalid_ids},
              {"error", r.error.empty() ? Json() : Json(r.error)},
              {"distill_error", r.distill_error.empty() ? Json() : Json(r.distill_error)}};
}

std::string Text(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> List(const Json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

std::string StatePath(const store::Store& store) {
  return fs::Join(store.Path(kStagingDir), kStateName);
}

}  // namespace

// Errors may quote bytes from outside (a server's answer): never throw on them.
std::string RenderRunRecord(const RunRecord& run) {
  return ToJson(run).dump(-1, ' ', false, Json::error_handler_t::replace);
}

Status WriteLastRun(const store::Store& store, const RunRecord& run) {
  Json j = {{"last_run", ToJson(run)}};
  return fs::WriteFileAtomic(StatePath(store),
                             j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
}

Result<std::optional<RunRecord>> ReadLastRun(const store::Store& store) {
  std::string path = StatePath(store);
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return std::optional<RunRecord>();
    return tl::unexpected(text.error());
  }
  auto parsed = json::ParseOrdered(*text, json::Limits{});
  const Json j = parsed ? std::move(*parsed) : Json();
  if (!j.is_object() || !j.contains("last_run") || !j["last_run"].is_object()) {
    return Fail(ErrorCode::kCorrupt, "consolidation state file is malformed", path, 0,
                "remove it; the next consolidation writes it again");
  }
  const Json& r = j["last_run"];
  RunRecord run{Text(r, "run_id"),      Text(r, "engine"),       Text(r, "started_at"),
                Text(r, "finished_at"), Text(r, "outcome"),      List(r, "consumed_ids"),
                List(r, "changed"),     List(r, "notes"),        List(r, "invalid_ids"),
                Text(r, "error"),       Text(r, "distill_error")};
  return std::optional<RunRecord>(std::move(run));
}

Status RecordDistill(const store::Store& store, const std::string& error) {
  LORE_ASSIGN(auto last, ReadLastRun(store));
  if (!last || last->distill_error == error) return Ok();
  last->distill_error = error;
  return WriteLastRun(store, *last);
}

}  // namespace lore::consolidate
