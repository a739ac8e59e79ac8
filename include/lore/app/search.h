// `lore search` and `lore reindex` (docs/search.md) as use cases: the store's
// index brought up to date while it answers, or answered as it is (or from
// one built in memory) when it cannot be written.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/index/index.h"
#include "lore/json/value.h"
#include "lore/search/search.h"
#include "lore/store/store.h"

namespace lore::app {

struct Searched {
  std::vector<search::Hit> hits;
  std::vector<Error> warnings;  // the index could not be written (one line)
};
// Who asks: the agent's searches are counted as its use of the hits shown
// (docs/recall.md); a person's on the page are not.
enum class Asker { kAgent, kPerson };
// The hits for `query`; none when the store does not exist.
Result<Searched> Search(const store::Store& store, const std::string& query,
                        const search::SearchOptions& options, Asker asker = Asker::kAgent);

// The MCP server's searches (memory_search, knowledge_search, search): the
// store's index opened on the first and kept open for the server's life,
// brought up to date before each search (the agent may have written since).
class KeptIndex {
 public:
  // The hits as `lore search --json` gives them (each with its scope when
  // `with_scope`), counted as the agent's use of them (via "mcp"); none when
  // the store does not exist.
  Result<Json> SearchJson(const store::Store& store, const std::string& query,
                          const search::SearchOptions& options, bool with_scope);

 private:
  std::optional<index::Index> index_;
};

struct Reindexed {
  std::string index_path;
  index::UpdateStats stats;
};
// Rebuilds the store's index from its files; an error when there is no store.
Result<Reindexed> Reindex(const store::Store& store);

}  // namespace lore::app
