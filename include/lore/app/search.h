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
#include "lore/text/time.h"

namespace lore::app {

// A search as a front end asks for it, in the words of `lore search`'s flags
// and the MCP tools' arguments.
struct SearchRequest {
  std::string scope = "all";        // a scope's name, or "all": every scope
  std::optional<std::string> kind;  // only records of this kind (exact)
  int limit = search::kDefaultLimit;
  bool include_replaced = false;   // also records marked replaced
  bool include_expired = false;    // also learnings that expired by `now`
  std::string expand = "default";  // or the expansion stages: "none", "all", a comma list
};
// The options of `request`'s search at `now`; an error for a scope or an
// expansion stage that does not exist.
Result<search::SearchOptions> SearchOptionsFor(const SearchRequest& request, text::TimePoint now);

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

// The hits as `lore search --json` gives them (see search::HitJson).
Json HitsJson(const std::vector<search::Hit>& hits, bool with_scope, bool explain);

// The words `lore search` shows a hit with: its scope's name (as --scope
// takes it) and, for each of Hit::expansions in turn, its stage's (as
// --expand takes it).
struct HitWords {
  std::string scope;
  std::vector<std::string> stages;
};
HitWords WordsOf(const search::Hit& hit);

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
