// Co-occurrence expansion: tokens that share contexts with a query token in
// the store's own records more often than chance (pointwise mutual
// information), docs/search.md.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "search/terms.h"

namespace lore::search::internal {
namespace {

bool Digits(const std::string& t) {
  return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

Result<std::vector<Associate>> Associates(index::Index& idx, const std::string& token,
                                          const RankingParams& p) {
  std::vector<Associate> out;
  index::Filter all;
  all.replaced = index::Replaced::kInclude;
  LORE_ASSIGN(index::MatchSet ms, idx.Find({token}, all));
  if (ms.matches.size() < 2 || ms.records <= 0) return out;
  // The contexts: each record holding the token and its neighbours, at most
  // cooc_sample of the token's records (evenly spaced) read.
  size_t n = ms.matches.size();
  size_t sample = std::min(n, static_cast<size_t>(std::max(p.cooc_sample, 1)));
  std::unordered_set<int64_t> contexts;
  for (size_t k = 0; k < sample; ++k) {
    int64_t id = ms.matches[k * n / sample].id;
    contexts.insert(id);
    if (p.cooc_window <= 0) continue;
    LORE_ASSIGN(index::Doc d, idx.Get(id, /*with_text=*/false));
    LORE_ASSIGN(auto near, idx.Neighbours(d, p.cooc_window));
    for (const auto& nb : near) contexts.insert(nb.doc.id);
  }
  std::unordered_map<std::string, int> shared;  // contexts holding each token
  for (int64_t id : contexts) {
    LORE_ASSIGN(std::vector<std::string> tokens, idx.Tokens(id));
    std::sort(tokens.begin(), tokens.end());
    tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
    for (auto& t : tokens) {
      if (t != token && t.size() >= 3 && !Digits(t)) ++shared[t];
    }
  }
  double records = static_cast<double>(ms.records);
  double span = static_cast<double>(contexts.size());
  for (const auto& [t, c] : shared) {
    if (c < p.cooc_min_support) continue;
    LORE_ASSIGN(index::TermStats st, idx.Stats(t));
    if (st.docs <= 0 || TooFrequent(st.docs, ms.records, p)) continue;
    // P(t | a context of the token) / P(t)
    double pmi = std::log(c * records / (span * static_cast<double>(st.docs)));
    if (pmi > 0) out.push_back(Associate{t, st.docs, c, pmi});
  }
  std::sort(out.begin(), out.end(), [](const Associate& a, const Associate& b) {
    if (a.pmi != b.pmi) return a.pmi > b.pmi;
    if (a.shared != b.shared) return a.shared > b.shared;
    return a.token < b.token;
  });
  return out;
}

Status AddCooccurring(index::Index& idx, const RankingParams& p, std::vector<Term>* terms,
                      std::vector<Expansion>* expansions) {
  if (!p.cooc || p.cooc_terms <= 0 || p.cooc_weight <= 0) return Ok();
  size_t own = terms->size();
  for (size_t i = 0; i < own; ++i) {
    const Term q = (*terms)[i];
    if (q.expansion >= 0 || q.name || q.weight <= 0 || q.df < 2) continue;
    LORE_ASSIGN(std::vector<Associate> found, Associates(idx, q.token, p));
    int taken = 0;
    for (const auto& a : found) {
      if (taken >= p.cooc_terms || terms->size() >= kMaxQueryTokens) break;
      if (HasToken(*terms, a.token)) continue;
      double w = p.cooc_weight * a.pmi / found.front().pmi;
      terms->push_back(Term{a.token, a.docs, false, w, 0, static_cast<int>(expansions->size())});
      expansions->push_back(Expansion{a.token, q.token, ExpansionStage::kCooc, w});
      ++taken;
    }
  }
  return Ok();
}

}  // namespace lore::search::internal
