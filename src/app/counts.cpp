#include "lore/app/counts.h"

#include <sys/stat.h>

#include <chrono>
#include <string_view>

#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/hook/session.h"
#include "lore/learnings/file.h"
#include "lore/learnings/lifecycle.h"
#include "lore/log/jsonl.h"
#include "lore/store/layout.h"

namespace lore::app {
namespace {

struct Named {
  int64_t n = 0;            // regular files named *<suffix>, not dot files
  int64_t with_prefix = 0;  // of them, those named <prefix>*
};

// One readdir of folder `rel` of the store. A folder not made yet holds
// none; one reached through a symlink is an error (ListExisting).
Result<Named> CountNamed(const store::Store& store, std::string_view rel, std::string_view suffix,
                         std::string_view prefix = {}) {
  LORE_ASSIGN(std::vector<fs::DirEntry> entries, fs::ListExisting(store.dir(), rel));
  Named out;
  for (const fs::DirEntry& e : entries) {
    std::string_view name = e.name;
    if (!e.is_file || name[0] == '.' || name.size() <= suffix.size() || !name.ends_with(suffix))
      continue;
    ++out.n;
    if (!prefix.empty() && name.starts_with(prefix)) ++out.with_prefix;
  }
  return out;
}

// The non-blank lines of raw.jsonl, the record log (0 when there is none).
Result<int64_t> RawRecords(const store::Store& store) {
  auto data = fs::ReadFileBeneath(store.dir(), store::kRawFile, fs::Kind::kLog);
  if (!data && data.error().code == ErrorCode::kNotFound) return 0;
  if (!data) return Fail(data.error());
  log::LineScanner scanner(*data);
  log::Line line;
  int64_t n = 0;
  while (scanner.Next(&line)) n += !log::IsBlank(line.text);
  return n;
}

// The record folders, the knowledge pages and the session logs.
lore::Status CountFolders(const store::Store& store, StoreCounts* c) {
  LORE_ASSIGN(Named decisions, CountNamed(store, "memory/decisions", ".md"));
  LORE_ASSIGN(Named requests, CountNamed(store, "memory/requests", ".md"));
  LORE_ASSIGN(Named knowledge, CountNamed(store, "knowledge", ".md", "gotcha-"));
  LORE_ASSIGN(Named sessions, CountNamed(store, "sessions", ".jsonl"));
  c->decisions = decisions.n;
  c->requests = requests.n;
  c->knowledge = knowledge.n;
  c->gotchas = knowledge.with_prefix;
  c->sessions = sessions.n;
  return Ok();
}

// The learnings, live (what agents are offered, docs/learnings.md) or not;
// a line that is not a JSON object is no learning.
lore::Status CountLearnings(const store::Store& store, StoreCounts* c) {
  LORE_ASSIGN(learnings::FileScan scan, learnings::ReadLearnings(store.learnings_path()));
  const auto now = std::chrono::system_clock::now();
  for (const learnings::Line& line : scan.lines) {
    if (line.object) ++(learnings::IsLive(line.facts, now) ? c->learnings : c->expired_learnings);
  }
  return Ok();
}

// The files of okf/ (one readdir) and whether the summary is one (one lstat).
lore::Status ListPages(const store::Store& store, StoreCounts* c) {
  LORE_ASSIGN(std::vector<fs::DirEntry> entries, fs::ListExisting(store.dir(), "okf"));
  for (const fs::DirEntry& e : entries) {
    if (e.is_file && e.name[0] != '.') c->okf_pages.push_back(e.name);
  }
  struct stat st;
  c->summary = ::lstat(store.Path(store::kSummaryFile).c_str(), &st) == 0 && S_ISREG(st.st_mode);
  return Ok();
}

}  // namespace

Result<StoreCounts> CountStore(const store::Store& store, unsigned parts) {
  StoreCounts c;
  if (!fs::Exists(store.dir())) return c;
  if (parts & kCountFolders) {
    LORE_TRY(CountFolders(store, &c));
  }
  if (parts & kCountQueue) {
    LORE_ASSIGN(c.pending, hook::PendingProposals(store));
  }
  if (parts & kCountLearnings) {
    LORE_TRY(CountLearnings(store, &c));
  }
  if (parts & kCountRaw) {
    LORE_ASSIGN(c.raw_records, RawRecords(store));
  }
  if (parts & kCountPages) {
    LORE_TRY(ListPages(store, &c));
  }
  return c;
}

}  // namespace lore::app
