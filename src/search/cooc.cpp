// Co-occurrence expansion: tokens that share contexts with a query token in
// the store's own records more often than chance (pointwise mutual
// information), docs/search.md.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>

#include "search/terms.h"

namespace lore::search::internal {
namespace {

bool Digits(const std::string& t) {
  return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// At most this many associates of a token are kept in the index.
constexpr size_t kKept = 32;

// "token shared docs pmi" lines.
std::string Encode(const std::vector<Associate>& v) {
  std::string out;
  char num[64];
  for (const auto& a : v) {
    std::snprintf(num, sizeof num, " %d %lld %.17g\n", a.shared, static_cast<long long>(a.docs),
                  a.pmi);
    out += a.token + num;
  }
  return out;
}

std::vector<Associate> Decode(std::string_view s) {
  std::vector<Associate> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t end = s.find('\n', pos);
    if (end == std::string_view::npos) end = s.size();
    std::string line(s.substr(pos, end - pos));
    pos = end + 1;
    size_t sp = line.find(' ');
    if (sp == std::string::npos || sp == 0) continue;
    Associate a{line.substr(0, sp)};
    long long docs = 0;
    if (std::sscanf(line.c_str() + sp, " %d %lld %lg", &a.shared, &docs, &a.pmi) != 3) continue;
    a.docs = docs;
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

std::string CoocKey(const std::string& token, const RankingParams& p) {
  char params[96];
  std::snprintf(params, sizeof params, "\tcooc %d %d %d %.6g", p.cooc_window, p.cooc_min_support,
                p.cooc_sample, p.expansion_max_df);
  return token + params;
}

Result<std::vector<Associate>> Associates(index::Index& idx, const std::string& token,
                                          const RankingParams& p) {
  std::vector<Associate> out;
  index::Filter all;
  all.replaced = index::Replaced::kInclude;
  LORE_ASSIGN(index::MatchSet ms, idx.Find({token}, all));
  if (ms.size() < 2 || ms.records <= 0) return out;
  // The contexts: each record holding the token and its neighbours, at most
  // cooc_sample of the token's records (evenly spaced) read.
  size_t n = ms.size();
  size_t sample = std::min(n, static_cast<size_t>(std::max(p.cooc_sample, 1)));
  std::unordered_set<int64_t> contexts;
  for (size_t k = 0; k < sample; ++k) {
    int64_t id = ms.ids[k * n / sample];
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

Result<std::vector<Associate>> LearnedAssociates(index::Index& idx, const std::string& token,
                                                 const RankingParams& p, Learned* fresh) {
  std::string key = CoocKey(token, p);
  LORE_ASSIGN(std::optional<std::string> kept, idx.Learned(key));
  if (kept) return Decode(*kept);
  LORE_ASSIGN(std::vector<Associate> found, Associates(idx, token, p));
  if (found.size() > kKept) found.resize(kKept);
  if (fresh) fresh->emplace_back(std::move(key), Encode(found));
  return found;
}

Status AddCooccurring(index::Index& idx, const RankingParams& p, std::vector<Term>* terms,
                      std::vector<Expansion>* expansions, Learned* fresh) {
  if (!p.cooc || p.cooc_terms <= 0 || p.cooc_weight <= 0) return Ok();
  size_t own = terms->size();
  for (size_t i = 0; i < own; ++i) {
    const Term q = (*terms)[i];
    if (q.expansion >= 0 || q.name || q.weight <= 0 || q.df < 2) continue;
    LORE_ASSIGN(std::vector<Associate> found, LearnedAssociates(idx, q.token, p, fresh));
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
