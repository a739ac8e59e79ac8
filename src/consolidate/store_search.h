// Memory and knowledge search for the LLM worker's tools, over the store's
// search index (index/index.h), brought up to date on first use. The worker
// searches the store as it was when its run started: its own uncommitted
// writes are in its prompt and tool results, not in the index.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/index/index.h"
#include "lore/json/value.h"

namespace lore::consolidate {

class StoreSearch {
 public:
  explicit StoreSearch(std::string store_dir) : dir_(std::move(store_dir)) {}

  // [{slug, kind, excerpt}], best first, at most 20 (the summary's slug is
  // "summary"; workflow and staging are never searched).
  Result<Json> Memory(std::string_view query);
  // [{slug, kind, description, model_invokation, excerpt}], optionally only
  // pages of knowledge kind `kind`.
  Result<Json> Knowledge(std::string_view query, const std::optional<std::string>& kind);

 private:
  Result<index::Index*> Open();
  Result<Json> Run(std::string_view query, index::Scope scope,
                   const std::optional<std::string>& kind);
  std::string dir_;
  std::optional<index::Index> index_;
};

}  // namespace lore::consolidate
