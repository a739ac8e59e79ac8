#include "search/terms.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "search/ranking.h"

namespace lore::search::internal {
namespace {

// Below this many records, no token is too frequent to expand with.
constexpr double kFrequentFloor = 50;

bool Has(const std::vector<Term>& terms, const std::string& token) {
  return HasToken(terms, token);
}

// Adds one expansion when the index holds it (and not too often).
Status Offer(index::Index& idx, Expansion e, int64_t records, const RankingParams& p,
             std::vector<Term>* terms, std::vector<Expansion>* expansions) {
  if (terms->size() >= kMaxQueryTokens || e.weight <= 0 || Has(*terms, e.token)) return Ok();
  LORE_ASSIGN(index::TermStats st, idx.Stats(e.token));
  if (st.docs == 0 || TooFrequent(st.docs, records, p)) return Ok();
  terms->push_back(
      Term{e.token, st.docs, false, e.weight, 0, static_cast<int>(expansions->size())});
  expansions->push_back(std::move(e));
  return Ok();
}

}  // namespace

bool TooFrequent(int64_t df, int64_t records, const RankingParams& p) {
  double d = static_cast<double>(df);
  return d > kFrequentFloor && d > p.expansion_max_df * static_cast<double>(records);
}

bool HasToken(const std::vector<Term>& terms, const std::string& token) {
  return std::any_of(terms.begin(), terms.end(), [&](const Term& t) { return t.token == token; });
}

Result<std::vector<Term>> LookUp(index::Index& idx, const Query& q, const RankingParams& p,
                                 std::vector<Expansion>* expansions) {
  std::vector<Term> terms;
  std::vector<std::string> words;  // the written word of each kept term
  std::vector<size_t> absent;      // query tokens found nowhere (their synonyms may be)
  for (size_t i = 0; i < q.tokens.size(); ++i) {
    LORE_ASSIGN(index::TermStats st, idx.Stats(q.tokens[i]));
    if (st.docs == 0 && st.author_docs == 0) {
      absent.push_back(i);
      continue;
    }
    terms.push_back(Term{q.tokens[i], st.docs, p.author && st.author_docs > 0});
    words.push_back(i < q.words.size() ? q.words[i] : q.tokens[i]);
  }
  static_assert(kMaxQueryTokens <= index::kMaxFindTokens);
  if (terms.size() > kMaxQueryTokens) {
    std::vector<size_t> order(terms.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return terms[a].df < terms[b].df; });
    order.resize(kMaxQueryTokens);
    std::vector<Term> kept;
    std::vector<std::string> kept_words;
    for (size_t i : order) kept.push_back(terms[i]), kept_words.push_back(words[i]);
    terms = std::move(kept);
    words = std::move(kept_words);
  }
  // A word read as its verb ("bought" -> buy) is named by --explain like an expansion.
  if (idx.stemming() == index::Stemming::kEnglish) {
    for (size_t i = 0; i < terms.size(); ++i) {
      if (index::IrregularVerb(words[i]).empty()) continue;
      terms[i].reading = static_cast<int>(expansions->size());
      expansions->push_back(Expansion{terms[i].token, words[i], ExpansionStage::kIrregular, 1.0});
    }
  }
  bool only_names = std::all_of(terms.begin(), terms.end(), [](const Term& t) { return t.name; });
  for (auto& t : terms) {
    if (t.name && !only_names) t.weight = p.name_text_weight;
  }
  bool wordnet =
      (p.synonyms || p.hypernyms || p.hyponyms) && idx.stemming() != index::Stemming::kOff;
  if (!p.compounds && !wordnet) return terms;
  LORE_ASSIGN(int64_t records, idx.RecordsAtMost());
  if (p.compounds) {
    for (const auto& c : q.compounds) {
      Expansion e{c.token, c.written, ExpansionStage::kCompound, p.compound_weight};
      LORE_TRY(Offer(idx, std::move(e), records, p, &terms, expansions));
    }
  }
  if (!wordnet) return terms;
  std::vector<Related> related;
  for (size_t i = 0; i < words.size(); ++i) {
    related.push_back(terms[i].name ? Related{} : LookUpRelated(terms[i].token));
  }
  for (size_t i : absent) {
    if (related.size() >= kMaxQueryTokens) break;
    related.push_back(LookUpRelated(q.tokens[i]));
    words.push_back(i < q.words.size() ? q.words[i] : q.tokens[i]);
  }
  size_t own = related.size();
  // Round robin over the query's words, so that each gets its first synonyms in.
  auto offer_all = [&](ExpansionStage stage, double weight, size_t max) -> Status {
    for (size_t rank = 0; rank < max; ++rank) {
      for (size_t i = 0; i < own; ++i) {
        const auto& list = stage == ExpansionStage::kSynonym    ? related[i].synonyms
                           : stage == ExpansionStage::kHypernym ? related[i].hypernyms
                                                                : related[i].hyponyms;
        if (rank >= list.size()) continue;
        Expansion e{list[rank], words[i], stage, weight};
        LORE_TRY(Offer(idx, std::move(e), records, p, &terms, expansions));
      }
    }
    return Ok();
  };
  size_t max = static_cast<size_t>(std::max(p.max_synonyms, 0));
  if (p.synonyms) LORE_TRY(offer_all(ExpansionStage::kSynonym, p.synonym_weight, max));
  if (p.hypernyms) LORE_TRY(offer_all(ExpansionStage::kHypernym, p.hypernym_weight, max));
  size_t max_hyponyms = static_cast<size_t>(std::max(p.max_hyponyms, 0));
  if (p.hyponyms) LORE_TRY(offer_all(ExpansionStage::kHyponym, p.hyponym_weight, max_hyponyms));
  return terms;
}

Status AddFeedback(index::Index& idx, const std::vector<std::pair<double, int64_t>>& top,
                   const RankingParams& p, std::vector<Term>* terms,
                   std::vector<Expansion>* expansions) {
  size_t docs = std::min(top.size(), static_cast<size_t>(std::max(p.feedback_docs, 0)));
  double total = 0;
  for (size_t i = 0; i < docs; ++i) total += top[i].first;
  if (docs == 0 || total <= 0 || p.feedback_terms <= 0) return Ok();
  std::unordered_map<std::string, double> weight;  // Σ score share · tf / length
  for (size_t i = 0; i < docs; ++i) {
    LORE_ASSIGN(std::vector<std::string> tokens, idx.Tokens(top[i].second));
    if (tokens.empty()) continue;
    double share = top[i].first / total / static_cast<double>(tokens.size());
    for (const auto& t : tokens) {
      bool digits = std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (t.size() >= 3 && !digits && !Has(*terms, t)) weight[t] += share;
    }
  }
  std::vector<std::pair<double, std::string>> ranked;
  for (auto& [t, w] : weight) ranked.emplace_back(w, t);
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  ranked.resize(std::min(ranked.size(), static_cast<size_t>(3 * p.feedback_terms)));
  LORE_ASSIGN(int64_t records, idx.RecordsAtMost());
  std::vector<std::pair<double, Term>> scored;
  for (const auto& [w, t] : ranked) {
    LORE_ASSIGN(index::TermStats st, idx.Stats(t));
    // A token of one record only says nothing about the others.
    if (st.docs < 2 || TooFrequent(st.docs, records, p)) continue;
    scored.emplace_back(w * Idf(records, st.docs), Term{t, st.docs});
  }
  std::sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second.token < b.second.token;
  });
  scored.resize(std::min(scored.size(), static_cast<size_t>(p.feedback_terms)));
  for (auto& [s, t] : scored) {
    if (terms->size() >= kMaxQueryTokens) break;
    t.weight = p.feedback_weight * s / scored.front().first;
    t.expansion = static_cast<int>(expansions->size());
    expansions->push_back(Expansion{t.token, "", ExpansionStage::kFeedback, t.weight});
    terms->push_back(std::move(t));
  }
  return Ok();
}

}  // namespace lore::search::internal
