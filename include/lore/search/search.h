// Ranked search over a store's index (docs/search.md).
//
// The score of a record is the sum of six parts (each shown by --explain):
//   text     BM25 of the query's tokens in the record's text
//   expansion BM25 of the query's expansion terms (search/expansion.h), each
//            weighted below the query's own tokens
//   context  a share of the text score of its neighbours in the same session
//   session  a share of the best text match of its session
//   author   a boost when a name in the query is the record's author
//   time     a boost for a record holding a time expression when the query
//            asks when
// The parameters are in search/params.h; docs/search.md has the formula.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "lore/error.h"
#include "lore/index/index.h"
#include "lore/json/value.h"
#include "lore/search/expansion.h"
#include "lore/search/params.h"

namespace lore::search {

inline constexpr int kDefaultLimit = 20;

// Hit::then: at most kThenSteps records after the hit, an agent's words cut to
// kThenAgentBytes, a tool call to kThenCallBytes, what it printed to kThenOutputBytes.
inline constexpr int kThenSteps = 8;
inline constexpr size_t kThenAgentBytes = 160;
inline constexpr size_t kThenCallBytes = 100;
inline constexpr size_t kThenOutputBytes = 120;

struct ScoreParts {
  double text = 0, expansion = 0, context = 0, session = 0, author = 0, time = 0;
  double curated = 0;  // a kept learning's boost (RankingParams::curated_boost)
  // Not a part: the factor text and expansion were weighed by (ask_weight for
  // a record that asks, else 1).
  double asks = 1;
  // Not a part either: trace_weight for a session log's tool call or result,
  // else 1.
  double trace = 1;
  double Total() const { return text + expansion + context + session + author + time + curated; }
};

struct Hit {
  index::Doc doc;
  ScoreParts score;
  // The share of the query's own words' idf weight the record holds (words
  // found nowhere in the index count at the highest idf), and how many of
  // them it holds: how much of the question the record is about.
  double query_share = 0;
  int query_matched = 0;
  int64_t line = 0;     // the excerpt's best line in the file
  std::string excerpt;  // that line with up to 3 lines either side
  // A session log's record: what followed it in its turn, up to the person's
  // next words (SearchOptions::then_bytes), each step shortened, " → " between
  // them. What a tool printed is quoted. Empty for other records.
  std::string then;
  std::vector<Expansion> expansions;  // the query's expansion terms the record holds
};

// One step of Hit::then, on one line: "agent: …", "Bash: make test",
// `result failed "…"` (what a tool printed is always quoted).
std::string ThenStep(const index::Record& r);

struct SearchOptions {
  index::Filter filter;
  int limit = kDefaultLimit;
  RankingParams params;
  bool excerpts = true;  // false: skip building excerpts (benchmarks)
  // At most this many bytes of Hit::then (0: none). An answer usually
  // follows what announced it ("Let me fix the config:" → the edit → its
  // result), and a hit that stops at the announcement leaves it out.
  size_t then_bytes = 500;
  // When set, receives the query's own tokens found in the index with their
  // idf, and how many of its tokens the index holds nowhere.
  std::vector<std::pair<std::string, double>>* query_terms = nullptr;
  int* unseen_tokens = nullptr;
  // When above 0: a query no record could hold `min_share` of (Hit::query_share,
  // with at least two of its words) gives no hits, found without reading a
  // single match. Judged from the words' document counts alone: the best a
  // record can hold is every word found, and that share only grows with the
  // number of records, so the count used (the largest record id) is an upper
  // bound. Exact: it never drops a hit that would have cleared `min_share`.
  double min_share = 0;
  // When set, receives the weight excerpts give each searched term (the
  // query's words and their expansions): with `excerpts` off, a caller that
  // shows a few of the hits makes their excerpts itself (AddExcerpt).
  std::unordered_map<std::string, double>* excerpt_weights = nullptr;
};

// Searches `idx` (which the caller brought up to date) for `query`, best
// first, at most opts.limit hits. Any text is a valid query; one without a
// searchable word gives no hits.
Result<std::vector<Hit>> Search(index::Index& idx, std::string_view query,
                                const SearchOptions& opts);

// Reads the text of `hit`'s record and makes its excerpt and line, as Search
// does with SearchOptions::excerpts (Hit::then aside), from the weights
// SearchOptions::excerpt_weights received.
Status AddExcerpt(index::Index& idx, const std::unordered_map<std::string, double>& weights,
                  Hit* hit);

// The id of the record a hit shows (docs/recall.md): a Markdown record's path
// in the store ("memory/decisions/x.md"), a log line's path and line
// ("sessions/<session>.jsonl:12"). The MCP tool `open` reads an item by it.
std::string ItemId(const index::Record& r);

// The JSON of a hit (each with its item "id" and "size", the bytes of its text): for memory {slug,
// kind, excerpt}; for knowledge {slug, kind, description, model_invokation, excerpt}; for the other
// scopes {scope, slug, kind, file, line, excerpt}. With `with_scope` (a search of every scope)
// memory and knowledge hits also carry "scope" first. With `explain`, an "explain" object {total,
// text, expansion, context, session, author, time, expansions: [{term, stage, of, weight}]} (the
// expansion terms the record holds).
Json HitJson(const Hit& hit, bool with_scope, bool explain);

}  // namespace lore::search
