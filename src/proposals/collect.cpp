#include "lore/proposals/collect.h"

#include <algorithm>
#include <cmath>

#include "activity/clean.h"
#include "lore/proposals/present.h"
#include "proposals/summary.h"

namespace lore::proposals {
namespace {

std::string_view CreatedAt(const Json& r) {
  if (!r.contains("created_at") || !r["created_at"].is_string()) return {};
  return r["created_at"].get_ref<const std::string&>();
}

int64_t Num(const Json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return 0;
  double v = j[key].get<double>();
  return std::isfinite(v) ? static_cast<int64_t>(v) : 0;
}

}  // namespace

std::vector<size_t> FifoOrder(const QueueScan& scan) {
  std::vector<size_t> order(scan.records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return CreatedAt(scan.records[a].record) < CreatedAt(scan.records[b].record);
  });
  return order;
}

Result<Collected> Collect(const Paths& paths, std::optional<double> min_confidence) {
  Collected c;
  LORE_ASSIGN(c.scan, ReadQueue(paths.queue));
  c.summaries = ReadSummaries(paths, &c.unreadable);
  for (const auto& [wave, s] : c.summaries) {
    c.stats.queued += Num(s, "queued");
    c.stats.dropped += Num(s, "dropped");
    c.stats.below_floor += Num(s, "below_floor");
    c.stats.fs_error += Num(s, "fs_error");
  }
  c.stats.parse_errors = c.scan.parse_errors();
  for (size_t i : FifoOrder(c.scan)) {
    const Json& r = c.scan.records[i].record;
    if (min_confidence && r.contains("confidence") && r["confidence"].is_number()) {
      double v = r["confidence"].get<double>();
      if (std::isfinite(v) && v < *min_confidence) continue;
    }
    c.order.push_back(i);
  }
  return c;
}

Json ToJson(const Collected& c) {
  Json out = Json::object();
  Json queue = Json::array();
  for (size_t i : c.order) queue.push_back(c.scan.records[i].record);
  out["queue"] = std::move(queue);
  Json stats = Json::object();
  stats["queued"] = c.stats.queued;
  stats["dropped"] = c.stats.dropped;
  stats["below_floor"] = c.stats.below_floor;
  stats["fs_error"] = c.stats.fs_error;
  stats["parse_errors"] = c.stats.parse_errors;
  out["stats"] = std::move(stats);
  Json waves = Json::object();
  for (const auto& [wave, s] : c.summaries) waves[wave] = s;
  out["perWaveSummaries"] = std::move(waves);
  return out;
}

std::string ToText(const Collected& c) {
  const auto& s = c.stats;
  std::string out = std::to_string(c.order.size()) + " proposal" +
                    (c.order.size() == 1 ? "" : "s") + " queued (counters: queued " +
                    std::to_string(s.queued) + ", dropped " + std::to_string(s.dropped) +
                    ", below floor " + std::to_string(s.below_floor) + ", fs errors " +
                    std::to_string(s.fs_error) + "; malformed lines " +
                    std::to_string(s.parse_errors) + ")\n";
  size_t n = 0;
  for (size_t i : c.order) {
    const auto& e = c.scan.records[i];
    const std::string id = activity::ReadableLine(e.id);
    out += "\n" + std::to_string(++n) + ". " + Label(e.record) + "\n   " + Description(e.record) +
           "\n   id " + (id.empty() ? "(none)" : id);
    if (e.record.contains("wave_id") && e.record["wave_id"].is_string()) {
      out += "  wave " + FieldText(e.record, "wave_id");
    }
    if (e.record.contains("created_at") && e.record["created_at"].is_string()) {
      out += "  " + FieldText(e.record, "created_at");
    }
    out += "\n";
  }
  return out;
}

}  // namespace lore::proposals
