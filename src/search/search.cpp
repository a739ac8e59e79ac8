#include "lore/search/search.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "lore/search/excerpt.h"
#include "lore/search/query.h"
#include "lore/search/ranking.h"

namespace lore::search {
namespace {

using Json = nlohmann::ordered_json;

struct Term {
  std::string token;
  int64_t df = 0;
  bool name = false;    // some record's author holds it
  double weight = 1.0;  // multiplies its BM25 part
  double idf = 0;
};

// Looks up every query token; drops those found nowhere; keeps the rarest
// kMaxQueryTokens.
Result<std::vector<Term>> LookUp(index::Index& idx, const Query& q, const RankingParams& p) {
  std::vector<Term> terms;
  for (const auto& t : q.tokens) {
    LORE_ASSIGN(index::TermStats st, idx.Stats(t));
    if (st.docs == 0 && st.author_docs == 0) continue;
    terms.push_back(Term{t, st.docs, p.author && st.author_docs > 0});
  }
  static_assert(kMaxQueryTokens <= index::kMaxFindTokens);
  if (terms.size() > kMaxQueryTokens) {
    std::stable_sort(terms.begin(), terms.end(),
                     [](const Term& a, const Term& b) { return a.df < b.df; });
    terms.resize(kMaxQueryTokens);
  }
  bool only_names = std::all_of(terms.begin(), terms.end(), [](const Term& t) { return t.name; });
  for (auto& t : terms) {
    if (t.name && !only_names) t.weight = p.name_text_weight;
  }
  return terms;
}

bool Passes(const index::Doc& d, const index::Filter& f) {
  if (f.scope && d.record.scope != *f.scope) return false;
  if (f.kind && d.record.kind != *f.kind) return false;
  if (f.live_at && d.record.expires && *d.record.expires <= *f.live_at) return false;
  return f.replaced == index::Replaced::kInclude || d.record.status != "replaced";
}

class Ranker {
 public:
  Ranker(index::Index& idx, const SearchOptions& opts) : idx_(idx), opts_(opts), p_(opts.params) {}

  Result<std::vector<Hit>> Run(std::string_view text) {
    Query q = ParseQuery(text, idx_.stemming());
    LORE_ASSIGN(terms_, LookUp(idx_, q, p_));
    std::vector<std::string> tokens;
    std::vector<Term*> searched;
    for (auto& t : terms_) {
      if (t.name) names_.insert(t.token);
      // A name with no text weight is matched on authors only.
      if (t.df > 0 && t.weight > 0) tokens.push_back(t.token), searched.push_back(&t);
    }
    if (tokens.empty()) return std::vector<Hit>{};
    LORE_ASSIGN(index::MatchSet ms, idx_.Find(tokens, opts_.filter));
    for (Term* t : searched) t->idf = Idf(ms.records, t->df);
    LORE_TRY(ScoreText(ms, searched));
    LORE_TRY(Expand());
    LORE_TRY(Sessions());
    LORE_TRY(Boost(q));
    return Finish();
  }

 private:
  // BM25 of every match, in two steps: first with every record taken at the
  // average length (no lookup per match), then exactly, with the lengths of
  // the best few (the length moves a score by less than a factor of 1 + b).
  Status ScoreText(const index::MatchSet& ms, const std::vector<Term*>& searched) {
    auto score = [&](const index::Match& m, int length) {
      double s = 0;
      for (size_t i = 0; i < searched.size(); ++i) {
        s += searched[i]->weight *
             Bm25Term(searched[i]->idf, m.tf[i], length, ms.average_length, p_);
      }
      return s;
    };
    auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    int avg = static_cast<int>(std::lround(ms.average_length));
    std::vector<std::pair<double, size_t>> rough;
    for (size_t i = 0; i < ms.matches.size(); ++i) {
      double s = score(ms.matches[i], avg);
      if (s > 0) rough.emplace_back(s, i);
    }
    size_t keep = static_cast<size_t>(std::max(p_.candidates, opts_.limit));
    size_t exact = std::min(rough.size(), std::max<size_t>(2 * keep, 100));
    std::partial_sort(rough.begin(), rough.begin() + static_cast<long>(exact), rough.end(), better);
    std::vector<std::pair<double, int64_t>> ranked;
    for (size_t k = 0; k < rough.size(); ++k) {
      const index::Match& m = ms.matches[rough[k].second];
      double s = rough[k].first;
      if (k < exact) {
        LORE_ASSIGN(int length, idx_.Length(m.id));
        s = score(m, length);
      }
      text_[m.id] = s;
      if (k < exact) ranked.emplace_back(s, m.id);
    }
    keep = std::min(keep, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(keep), ranked.end(),
                      better);
    ranked.resize(keep);
    for (const auto& [s, id] : ranked) Part(id).text = s;
    top_ = std::move(ranked);
    return Ok();
  }

  ScoreParts& Part(int64_t id) {
    auto [it, fresh] = parts_.try_emplace(id);
    if (fresh) {
      auto t = text_.find(id);
      it->second.text = t == text_.end() ? 0 : t->second;
    }
    return it->second;
  }

  Result<const index::Doc*> DocOf(int64_t id) {
    auto it = docs_.find(id);
    if (it == docs_.end()) {
      LORE_ASSIGN(index::Doc d, idx_.Get(id, /*with_text=*/false));
      it = docs_.emplace(id, std::move(d)).first;
    }
    return &it->second;
  }

  // Neighbour context: each top text match lends a share of its score to the
  // records beside it in its session.
  Status Expand() {
    if (!p_.context) return Ok();
    for (const auto& [s, id] : top_) {
      LORE_ASSIGN(const index::Doc* d, DocOf(id));
      if (d->record.session.empty()) continue;
      LORE_ASSIGN(auto near, idx_.Neighbours(*d, p_.context_window));
      for (auto& n : near) {
        Part(n.doc.id).context += ContextShare(n.distance, p_) * s;
        docs_.try_emplace(n.doc.id, std::move(n.doc));
      }
    }
    return Ok();
  }

  // Session: every scored record of a session that holds one of the best
  // text matches gets a share of the best of them (evidence is often spread
  // over a session, and a session about the subject is the place to look).
  Status Sessions() {
    if (!p_.session || p_.session_weight <= 0) return Ok();
    std::unordered_map<std::string, double> best;
    auto key = [](const index::Doc& d) { return d.record.file + '\n' + d.record.session; };
    for (const auto& [s, id] : top_) {
      LORE_ASSIGN(const index::Doc* d, DocOf(id));
      if (d->record.session.empty()) continue;
      double& b = best[key(*d)];
      b = std::max(b, s);
    }
    if (best.empty()) return Ok();
    for (auto& [id, sp] : parts_) {
      LORE_ASSIGN(const index::Doc* d, DocOf(id));
      if (d->record.session.empty()) continue;
      auto it = best.find(key(*d));
      if (it != best.end()) sp.session = SessionShare(it->second, p_);
    }
    return Ok();
  }

  Status Boost(const Query& q) {
    bool when = p_.time && q.asks_when;
    for (auto it = parts_.begin(); it != parts_.end();) {
      LORE_ASSIGN(const index::Doc* d, DocOf(it->first));
      if (!Passes(*d, opts_.filter)) {
        it = parts_.erase(it);
        continue;
      }
      ScoreParts& sp = it->second;
      double base = sp.text + sp.context + sp.session;
      if (!names_.empty() && ByName(*d)) sp.author = p_.author_boost * base;
      if (when && d->time_expressions > 0) sp.time = p_.time_boost * base;
      if (p_.time && q.date && d->record.time && DateMatches(*q.date, *d->record.time)) {
        sp.time += p_.date_boost * base;
      }
      ++it;
    }
    return Ok();
  }

  bool ByName(const index::Doc& d) {
    if (d.record.author.empty()) return false;
    for (const auto& t : index::Tokenize(d.record.author, idx_.stemming())) {
      if (names_.count(t)) return true;
    }
    return false;
  }

  Result<std::vector<Hit>> Finish() {
    std::vector<std::pair<double, int64_t>> order;
    for (const auto& [id, sp] : parts_) order.emplace_back(sp.Total(), id);
    auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    size_t keep = std::min(order.size(), static_cast<size_t>(std::max(opts_.limit, 0)));
    std::partial_sort(order.begin(), order.begin() + static_cast<long>(keep), order.end(), better);
    std::unordered_map<std::string, double> weights;
    for (const auto& t : terms_) weights[t.token] = std::max(t.idf, 0.1);
    std::vector<Hit> hits;
    for (size_t i = 0; i < keep; ++i) {
      Hit h;
      if (opts_.excerpts) {
        LORE_ASSIGN(h.doc, idx_.Get(order[i].second, /*with_text=*/true));
      } else {
        h.doc = docs_.at(order[i].second);
      }
      h.score = parts_.at(order[i].second);
      if (opts_.excerpts) {
        Excerpt e = MakeExcerpt(h.doc.record.text, h.doc.record.line, weights, idx_.stemming());
        bool log = h.doc.record.scope == index::Scope::kRaw ||
                   h.doc.record.scope == index::Scope::kLearnings;
        h.line = log ? h.doc.record.line : e.line;  // a log record is one line of its file
        h.excerpt = std::move(e.text);
      }
      hits.push_back(std::move(h));
    }
    return hits;
  }

  index::Index& idx_;
  const SearchOptions& opts_;
  const RankingParams& p_;
  std::vector<Term> terms_;
  std::unordered_set<std::string> names_;
  std::unordered_map<int64_t, double> text_;
  std::vector<std::pair<double, int64_t>> top_;
  std::unordered_map<int64_t, ScoreParts> parts_;
  std::unordered_map<int64_t, index::Doc> docs_;
};

Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

double Round(double v) { return std::round(v * 10000) / 10000; }

}  // namespace

Result<std::vector<Hit>> Search(index::Index& idx, std::string_view query,
                                const SearchOptions& opts) {
  LORE_ASSIGN(index::Transaction snapshot, idx.Read());
  Ranker r(idx, opts);
  auto hits = r.Run(query);
  if (hits) LORE_TRY(snapshot.Commit());
  return hits;
}

Json HitJson(const Hit& hit, bool with_scope, bool explain) {
  const index::Record& r = hit.doc.record;
  Json j = Json::object();
  bool fixed = r.scope == index::Scope::kMemory || r.scope == index::Scope::kKnowledge;
  if (with_scope || !fixed) j["scope"] = std::string(index::ScopeName(r.scope));
  j["slug"] = r.slug;
  j["kind"] = OrNull(r.kind);
  if (r.scope == index::Scope::kKnowledge) {
    j["description"] = r.description ? Json(*r.description) : Json(nullptr);
    j["model_invokation"] = r.model_invokation ? Json(*r.model_invokation) : Json(nullptr);
  }
  if (!fixed) {
    j["file"] = r.file;
    j["line"] = hit.line;
  }
  j["excerpt"] = hit.excerpt;
  if (explain) {
    j["explain"] = {{"total", Round(hit.score.Total())},   {"text", Round(hit.score.text)},
                    {"context", Round(hit.score.context)}, {"session", Round(hit.score.session)},
                    {"author", Round(hit.score.author)},   {"time", Round(hit.score.time)}};
  }
  return j;
}

}  // namespace lore::search
