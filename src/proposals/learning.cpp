#include "lore/proposals/learning.h"

#include <chrono>

namespace lore::proposals {

Json ToLearning(const Json& record, std::string_view session_id, text::TimePoint now) {
  Json l = record;
  l.erase("proposed_by_agent");
  l["schema_version"] = 1;
  l["source_session"] = std::string(session_id);
  l["scope"] = "local";
  l["occurrences"] = 1;
  const std::string wave = record.contains("wave_id") && record["wave_id"].is_string()
                               ? record["wave_id"].get<std::string>()
                               : "";
  l["_provenance"] = "agent-proposed@" + wave;
  text::TimePoint base = now;
  if (record.contains("created_at") && record["created_at"].is_string()) {
    if (auto t = text::ParseIso(record["created_at"].get<std::string>())) base = *t;
  }
  const std::string type = record.contains("type") && record["type"].is_string()
                               ? record["type"].get<std::string>()
                               : "";
  l["expires_at"] = text::UtcMillis(base + std::chrono::hours(24) * TtlDays(type));
  if (!l.contains("host_class")) l["host_class"] = nullptr;
  if (!l.contains("anonymized")) l["anonymized"] = false;
  return l;
}

Json ToRejected(const Json& record, std::string_view reason, text::TimePoint at) {
  Json r = record;
  r["_rejected_reason"] = std::string(reason);
  r["_rejected_at"] = text::UtcMillis(at);
  return r;
}

bool IsRejectReason(std::string_view reason) {
  return reason == "user-declined" || reason == "overflow-truncate" || reason == "manual-skip";
}

}  // namespace lore::proposals
