// The scoring formulas of lore search (see search/params.h and docs/search.md).
#pragma once

#include <cstdint>

#include "lore/search/params.h"

namespace lore::search {

// Okapi BM25's inverse document frequency, never negative:
// ln(1 + (n - df + 0.5) / (df + 0.5)).
double Idf(int64_t records, int64_t df);

// One token's BM25 part: idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len)).
double Bm25Term(double idf, int tf, int length, double average_length, const RankingParams& p);

// The share of a matching record's text score given to a record `distance`
// positions after it (negative: before it) in the same session:
// context_weight * (1 ± context_forward) * context_decay^(|distance| - 1),
// log_context_weight in place of context_weight between a session log's records.
double ContextShare(int distance, const RankingParams& p, bool session_log = false);

// The session part of a record whose session's best text match (among the
// best `candidates`, the record itself included) scores `best`:
// session_weight * best (0 when the stage is off).
double SessionShare(double best, const RankingParams& p);

}  // namespace lore::search
