// Private to the search module: the searched terms of a query, its own
// tokens and its expansions (search/expansion.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lore/error.h"
#include "lore/index/index.h"
#include "lore/search/expansion.h"
#include "lore/search/params.h"
#include "lore/search/query.h"

namespace lore::search::internal {

struct Term {
  std::string token;
  int64_t df = 0;
  bool name = false;    // some record's author holds it
  double weight = 1.0;  // multiplies its BM25 part
  double idf = 0;
  int expansion = -1;  // index into the expansions; -1: a token of the query
};

// Looks up every query token (dropping those found nowhere, keeping the
// rarest kMaxQueryTokens), then the lexical expansions the parameters turn
// on (compounds, synonyms, hypernyms) that the index holds, while there is
// room; each expansion is appended to `expansions`.
Result<std::vector<Term>> LookUp(index::Index& idx, const Query& q, const RankingParams& p,
                                 std::vector<Expansion>* expansions);

// Pseudo-relevance feedback: appends to `terms` the tokens that weigh most
// in the best first-pass matches `top` (score, id; best first).
Status AddFeedback(index::Index& idx, const std::vector<std::pair<double, int64_t>>& top,
                   const RankingParams& p, std::vector<Term>* terms,
                   std::vector<Expansion>* expansions);

}  // namespace lore::search::internal
