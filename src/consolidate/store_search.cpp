#include "lore/consolidate/store_search.h"

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

Result<nlohmann::ordered_json> StoreSearch::Run(std::string_view query, index::Scope scope,
                                                const std::optional<std::string>& kind) {
  LORE_ASSIGN(index::Index * idx, Open());
  search::SearchOptions opts;
  opts.filter.scope = scope;
  opts.filter.kind = kind;
  LORE_ASSIGN(auto hits, search::Search(*idx, query, opts));
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& h : hits) {
    auto j = search::HitJson(h, false, false);
    // The slug from the file name (what FORMATS.md section 5 defines it as).
    const std::string& file = h.doc.record.file;
    std::string slug = file.substr(file.rfind('/') + 1);
    if (slug.size() > 3 && slug.compare(slug.size() - 3, 3, ".md") == 0)
      slug.resize(slug.size() - 3);
    j["slug"] = slug;
    out.push_back(std::move(j));
  }
  return out;
}

Result<nlohmann::ordered_json> StoreSearch::Memory(std::string_view query) {
  return Run(query, index::Scope::kMemory, std::nullopt);
}

Result<nlohmann::ordered_json> StoreSearch::Knowledge(std::string_view query,
                                                      const std::optional<std::string>& kind) {
  return Run(query, index::Scope::kKnowledge, kind);
}

}  // namespace lore::consolidate
