#include "proposals/summary.h"

#include <stdio.h>

#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/json/field.h"

namespace lore::proposals {
namespace {

// A counter as written (by lore or the original tool); a number that is not
// a count in range (1e300, -1, NaN from a foreign writer) is clamped, never
// cast out of range.
int64_t Field(const Json& j, const char* key) {
  const Json* v = json::Find(j, key);
  if (!v || !v->is_number()) return 0;
  if (auto i = json::AsInt(*v, 0, INT64_MAX)) return *i;
  return v->is_number_float() ? json::ClampToInt(v->get<double>(), 0, INT64_MAX)
                              : (v->is_number_unsigned() ? INT64_MAX : 0);
}

// The counters are diagnostics (the queue line is the truth) and `lore
// propose` is on the hot path: replaced atomically, without waiting for the
// disk.
Status Replace(const std::string& path, const std::string& text) {
  return fs::WriteFileAtomic(path, text, 0600, fs::Durability::kVisibleOnly);
}

bool IsSummaryName(std::string_view name, std::string* wave) {
  if (name.size() <= kSummaryPrefix.size() + kSummarySuffix.size()) return false;
  if (name.substr(0, kSummaryPrefix.size()) != kSummaryPrefix) return false;
  if (name.substr(name.size() - kSummarySuffix.size()) != kSummarySuffix) return false;
  *wave = std::string(name.substr(kSummaryPrefix.size(),
                                  name.size() - kSummaryPrefix.size() - kSummarySuffix.size()));
  return true;
}

std::vector<std::pair<std::string, std::string>> SummaryFiles(const std::string& dir) {
  std::vector<std::pair<std::string, std::string>> out;  // wave, path
  auto entries = fs::ListFolder(dir);
  if (!entries) return out;
  for (const auto& e : *entries) {
    std::string wave;
    if (e.is_file && IsSummaryName(e.name, &wave)) out.emplace_back(wave, fs::Join(dir, e.name));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::string RenderSummary(const Counters& c) {
  return "{\n  \"queued\": " + std::to_string(c.queued) +
         ",\n  \"dropped\": " + std::to_string(c.dropped) +
         ",\n  \"below_floor\": " + std::to_string(c.below_floor) +
         ",\n  \"fs_error\": " + std::to_string(c.fs_error) + "\n}\n";
}

std::optional<Counters> ParseSummary(std::string_view text) {
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return Counters{Field(j, "queued"), Field(j, "dropped"), Field(j, "below_floor"),
                  Field(j, "fs_error")};
}

Result<Counters> Bump(const Paths& paths, std::string_view wave, Counter counter) {
  LORE_ASSIGN(fs::FileLock lock, fs::FileLock::Acquire(paths.summary_lock, fs::LockMode::kExclusive,
                                                       std::chrono::seconds(5)));
  const std::string path = paths.Summary(wave);
  Counters c;
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (text) {
    if (auto parsed = ParseSummary(*text)) {
      c = *parsed;
    } else {
      ::rename(path.c_str(), (path + ".corrupt").c_str());
    }
  } else if (text.error().code != ErrorCode::kNotFound) {
    return tl::unexpected(text.error());
  }
  switch (counter) {
    case Counter::kQueued:
      ++c.queued;
      break;
    case Counter::kDropped:
      ++c.dropped;
      break;
    case Counter::kBelowFloor:
      ++c.below_floor;
      break;
    case Counter::kFsError:
      ++c.fs_error;
      break;
  }
  LORE_TRY(Replace(path, RenderSummary(c)));
  return c;
}

std::map<std::string, Json> ReadSummaries(const Paths& paths,
                                          std::vector<std::string>* unreadable) {
  std::map<std::string, Json> out;
  for (const auto& [wave, path] : SummaryFiles(paths.dir)) {
    auto text = fs::ReadFile(path, fs::Kind::kState);
    Json j = text ? Json::parse(*text, nullptr, false) : Json(Json::value_t::discarded);
    if (j.is_discarded() || !j.is_object()) {
      if (unreadable) unreadable->push_back(path);
      continue;
    }
    out.emplace(wave, std::move(j));
  }
  return out;
}

int64_t RemoveSummaries(const Paths& paths, const std::set<std::string>& keep) {
  auto lock =
      fs::FileLock::Acquire(paths.summary_lock, fs::LockMode::kExclusive, std::chrono::seconds(5));
  int64_t removed = 0;
  for (const auto& [wave, path] : SummaryFiles(paths.dir)) {
    if (keep.count(wave)) continue;
    if (::unlink(path.c_str()) == 0) ++removed;
  }
  return removed;
}

}  // namespace lore::proposals
