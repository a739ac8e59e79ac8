#include "consolidate/store_search.h"

#include "lore/json/value.h"
#include "lore/search/search.h"

namespace lore::consolidate {

Result<index::Index*> StoreSearch::Open() {
  if (!index_) {
    LORE_ASSIGN(index::Index idx, index::Index::Open(dir_));
    LORE_TRY(idx.Update());
    index_.emplace(std::move(idx));
  }
  return &*index_;
}

Result<Json> StoreSearch::Run(std::string_view query, index::Scope scope,
                              const std::optional<std::string>& kind) {
  LORE_ASSIGN(index::Index * idx, Open());
  search::SearchOptions opts;
  opts.filter.scope = scope;
  opts.filter.kind = kind;
  LORE_ASSIGN(auto hits, search::Search(*idx, query, opts));
  Json out = Json::array();
  for (const auto& h : hits) out.push_back(search::HitJson(h, false, false));
  return out;
}

Result<Json> StoreSearch::Memory(std::string_view query) {
  return Run(query, index::Scope::kMemory, std::nullopt);
}

Result<Json> StoreSearch::Knowledge(std::string_view query,
                                    const std::optional<std::string>& kind) {
  return Run(query, index::Scope::kKnowledge, kind);
}

}  // namespace lore::consolidate
