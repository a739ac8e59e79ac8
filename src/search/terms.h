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
#include "search/query.h"

namespace lore::search::internal {

struct Term {
  std::string token;
  int64_t df = 0;
  bool name = false;    // some record's author holds it
  double weight = 1.0;  // multiplies its BM25 part
  double idf = 0;
  int expansion = -1;  // index into the expansions; -1: a token of the query
  int reading = -1;    // a query token read as a verb: its entry in the expansions (explain only)
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

// A token associated with another by co-occurrence in the store.
struct Associate {
  std::string token;
  int64_t docs = 0;  // records holding it
  int shared = 0;    // contexts of the other token holding it
  double pmi = 0;    // ln(P(token | a context of the other) / P(token))
};

// The tokens co-occurring with `token` (a record holding it and the
// cooc_window records either side of it in its session being one context),
// with at least cooc_min_support shared contexts and a positive PMI, best first.
Result<std::vector<Associate>> Associates(index::Index& idx, const std::string& token,
                                          const RankingParams& p);

// Statistics learned during a search, to be kept in the index (key, value).
using Learned = std::vector<std::pair<std::string, std::string>>;

// The key under which the associates of `token` are kept in the index (the
// parameters that shape them included).
std::string CoocKey(const std::string& token, const RankingParams& p);

// Associates() as kept in the index at its current generation (at most 32);
// when they are not, computed, and appended to `fresh` for the caller to
// keep (Index::StoreLearned).
Result<std::vector<Associate>> LearnedAssociates(index::Index& idx, const std::string& token,
                                                 const RankingParams& p, Learned* fresh);

// Co-occurrence expansion: appends the best cooc_terms associates of each of
// the query's own tokens (names excepted) to `terms`; those not yet kept in
// the index to `fresh`.
Status AddCooccurring(index::Index& idx, const RankingParams& p, std::vector<Term>* terms,
                      std::vector<Expansion>* expansions, Learned* fresh);

// True when `terms` holds `token`.
bool HasToken(const std::vector<Term>& terms, const std::string& token);

// A token held by more records than expansion_max_df (and than a floor) is
// not searched as an expansion.
bool TooFrequent(int64_t df, int64_t records, const RankingParams& p);

}  // namespace lore::search::internal
