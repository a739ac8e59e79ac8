// The status tool: where the store is and what it holds, counted from the
// files (no index needed).
#include <sys/stat.h>

#include <algorithm>
#include <chrono>

#include "lore/app/recall.h"
#include "lore/app/status.h"
#include "lore/consolidate/settings.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/learnings/file.h"
#include "lore/log/jsonl.h"
#include "mcp/lore_tools.h"

namespace lore::mcp {
namespace {

bool IsFile(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Non-blank lines of a JSON Lines file (0 when missing).
Result<int64_t> CountLines(const std::string& path) {
  if (!IsFile(path)) return 0;
  LORE_ASSIGN(std::string data, fs::ReadFile(path, fs::Kind::kLog));
  log::LineScanner scanner(data);
  log::Line line;
  int64_t n = 0;
  while (scanner.Next(&line)) n += !log::IsBlank(line.text);
  return n;
}

// Files of `dir` whose names end in `suffix` (0 when missing).
Result<int64_t> CountFiles(const std::string& dir, std::string_view suffix) {
  if (!fs::Exists(dir)) return 0;
  LORE_ASSIGN(std::vector<fs::TreeEntry> entries, fs::WalkTree(dir));
  return std::count_if(entries.begin(), entries.end(), [&](const fs::TreeEntry& e) {
    return e.type == fs::EntryType::kFile && e.rel.find('/') == std::string::npos &&
           e.rel[0] != '.' && e.rel.size() > suffix.size() &&
           e.rel.compare(e.rel.size() - suffix.size(), suffix.size(), suffix) == 0;
  });
}

// What `lore status --json` reports (app/status.h), read only: no recovery is
// attempted, and what cannot be read of a failed extract is left out.
Result<Json> Consolidation(const store::Store& st) {
  LORE_ASSIGN(consolidate::Settings settings, consolidate::LoadSettings(st));
  LORE_ASSIGN(app::StatusView v, app::Status(st, settings, app::Recovery::kReadOnly));
  return app::StatusJson(v);
}

}  // namespace

Result<Json> StoreStatus(ToolState& s, const Json&) {
  const store::Store& st = s.store;
  Json out;
  out["key"] = st.key();
  out["store"] = st.dir();
  out["digest"] = st.index_path();
  out["exists"] = fs::Exists(st.dir());
  if (!out["exists"].get<bool>()) return out;
  LORE_TRY(st.Check(store::RawCheck::kSkip));
  LORE_ASSIGN(int64_t raw, CountLines(st.raw_path()));
  LORE_ASSIGN(learnings::FileScan scan, learnings::ReadLearnings(st.learnings_path()));
  // What an agent is offered: expired learnings are not (docs/learnings.md).
  const auto now = std::chrono::system_clock::now();
  int64_t live = 0, expired = 0;
  for (const auto& line : scan.lines) {
    if (!line.object) continue;
    ++(learnings::IsLive(line.facts, now) ? live : expired);
  }
  LORE_ASSIGN(int64_t pending, CountLines(st.proposals_path()));
  LORE_ASSIGN(int64_t decisions, CountFiles(st.Path("memory/decisions"), ".md"));
  LORE_ASSIGN(int64_t requests, CountFiles(st.Path("memory/requests"), ".md"));
  LORE_ASSIGN(int64_t knowledge, CountFiles(st.Path("knowledge"), ".md"));
  out["raw_records"] = raw;
  out["learnings"] = live;
  out["expired_learnings"] = expired;
  out["pending_proposals"] = pending;
  out["memory"] = Json{{"summary", IsFile(st.Path("memory/summary.md"))},
                       {"decisions", decisions},
                       {"requests", requests},
                       {"knowledge", knowledge}};
  LORE_ASSIGN(out["consolidation"], Consolidation(st));
  Json pages = Json::array();
  LORE_ASSIGN(std::vector<fs::TreeEntry> okf, fs::WalkTree(st.okf_dir()));
  for (const auto& e : okf) {
    if (e.type == fs::EntryType::kFile && e.rel.find('/') == std::string::npos && e.rel[0] != '.') {
      pages.push_back(e.rel);
    }
  }
  out["okf_pages"] = std::move(pages);
  LORE_ASSIGN(app::UsageStats usage, app::Usage(st));
  out["usage"] = app::UsageJson(usage, 10);
  return out;
}

}  // namespace lore::mcp
