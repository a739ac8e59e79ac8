#include "lore/app/search.h"

#include <chrono>
#include <future>
#include <optional>

#include "lore/app/recall.h"
#include "lore/fs/fd.h"
#include "recall/usage.h"

namespace lore::app {
namespace {

// The warning of a search answered without writing the index: one line
// naming the index and why it could not be written.
Error CannotWrite(const Error& cause, const std::string& index_path, bool in_memory) {
  std::string what = in_memory ? "the search index cannot be used or written (" + cause.what +
                                     "); answered from a fresh index in memory"
                               : "the search index is out of date and cannot be updated (" +
                                     cause.what + "); answered from it as it is";
  return Error{cause.code, what, index_path, 0,
               cause.repair.empty() ? "make the store writable, or free disk space" : cause.repair};
}

// Searches the store at `dir`. The store's files are looked at on a second
// thread while the index is queried; in the rare case that something changed,
// the index is brought up to date and queried again. A store whose index
// cannot be written (read-only, full) is answered from the index as it is,
// or from one built in memory when there is none, with one warning.
Result<std::vector<search::Hit>> SearchStore(const std::string& dir, const std::string& query,
                                             const search::SearchOptions& opts,
                                             std::vector<Error>* warnings) {
  auto scan = std::async(std::launch::async, [dir] { return index::ScanSources(dir); });
  std::optional<Error> cannot_write;
  bool in_memory = false;
  auto idx = index::Index::Open(dir);
  if (!idx && index::IsWriteFailure(idx.error())) {
    cannot_write = idx.error();
    idx = index::Index::OpenExisting(dir);
    if (!idx) {
      idx = index::Index::OpenInMemory(dir);
      in_memory = true;
    }
  }
  if (!idx) return tl::unexpected(idx.error());
  const std::string index_path = idx->path();
  auto found = search::Search(*idx, query, opts);
  LORE_ASSIGN(std::vector<index::SourceFile> sources, scan.get());
  LORE_ASSIGN(bool current, idx->IsCurrent(sources));
  bool stale = !current || !found;
  if (stale && !cannot_write) {
    auto u = idx->Update();
    if (u) {
      found = search::Search(*idx, query, opts);
      stale = false;
    } else if (index::IsWriteFailure(u.error())) {
      cannot_write = u.error();
    } else {
      return tl::unexpected(u.error());
    }
  }
  if (!found && cannot_write && !in_memory) {  // the index as it is cannot answer: one in memory
    LORE_ASSIGN(index::Index mem, index::Index::OpenInMemory(dir));
    found = search::Search(mem, query, opts);
    in_memory = true;
    stale = false;
  }
  // A read-only index that is current answers in full: nothing to warn about.
  if (found && cannot_write && (stale || in_memory)) {
    warnings->push_back(CannotWrite(*cannot_write, index_path, in_memory));
  }
  return found;
}

}  // namespace

Result<search::SearchOptions> SearchOptionsFor(const SearchRequest& request, text::TimePoint now) {
  search::SearchOptions opts;
  if (request.scope == "all") {
    // The okf/ bundle restates memory's records (its request-types table, the briefing
    // again): "all" gives the records themselves, and `--scope okf` the bundle.
    opts.filter.except = index::Scope::kOkf;
  } else {
    opts.filter.scope = index::ParseScope(request.scope);
    if (!opts.filter.scope) {
      return Fail(ErrorCode::kInvalidInput, "unknown scope \"" + request.scope + "\"", "", 0,
                  "use one of memory, knowledge, learnings, raw, okf, all");
    }
  }
  opts.filter.kind = request.kind;
  opts.filter.replaced =
      request.include_replaced ? index::Replaced::kInclude : index::Replaced::kHide;
  if (!request.include_expired) {
    opts.filter.live_at =
        std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  }
  opts.limit = request.limit;
  if (request.expand != "default") {
    LORE_TRY(search::SetExpansionStages(request.expand, &opts.params));
  }
  return opts;
}

Result<Searched> Search(const store::Store& store, const std::string& query,
                        const search::SearchOptions& options, Asker asker) {
  Searched out;
  if (!fs::Exists(store.dir())) return out;  // a store that does not exist has nothing to find
  LORE_ASSIGN(out.hits, SearchStore(store.dir(), query, options, &out.warnings));
  if (asker == Asker::kPerson) return out;
  std::vector<std::string> ids;
  for (const auto& h : out.hits) ids.push_back(search::ItemId(h.doc.record));
  CountUse(store, ids, /*opened=*/false, "search", std::chrono::system_clock::now());
  return out;
}

Json HitsJson(const std::vector<search::Hit>& hits, bool with_scope, bool explain) {
  Json out = Json::array();
  for (const auto& h : hits) out.push_back(search::HitJson(h, with_scope, explain));
  return out;
}

HitWords WordsOf(const search::Hit& hit) {
  HitWords out;
  out.scope = std::string(index::ScopeName(hit.doc.record.scope));
  for (const auto& e : hit.expansions) out.stages.emplace_back(search::StageName(e.stage));
  return out;
}

Result<Json> KeptIndex::SearchJson(const store::Store& store, const std::string& query,
                                   const search::SearchOptions& options, bool with_scope) {
  Json hits = Json::array();
  if (!fs::Exists(store.dir())) return hits;  // nothing to find, nothing to create
  if (!index_) {
    LORE_ASSIGN(index::Index idx, index::Index::Open(store.dir()));
    index_.emplace(std::move(idx));
  }
  LORE_TRY(index_->Update());
  LORE_ASSIGN(std::vector<search::Hit> found, search::Search(*index_, query, options));
  std::vector<std::string> ids;
  for (const auto& h : found) {
    hits.push_back(search::HitJson(h, with_scope, false));
    ids.push_back(search::ItemId(h.doc.record));
  }
  CountUse(store, ids, /*opened=*/false, "mcp", std::chrono::system_clock::now());
  return hits;
}

Result<Reindexed> Reindex(const store::Store& store) {
  if (!fs::Exists(store.dir())) {
    return Fail(ErrorCode::kNotFound, "no store for this repository", store.dir(), 0,
                "check the repository argument, or capture something first");
  }
  LORE_ASSIGN(index::Index idx, index::Index::Open(store.dir()));
  LORE_ASSIGN(index::UpdateStats stats, idx.Rebuild());
  LORE_TRY(recall::WriteUsageFold(store));
  return Reindexed{idx.path(), stats};
}

}  // namespace lore::app
