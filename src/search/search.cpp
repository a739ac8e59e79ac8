#include "lore/search/search.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "activity/excerpt.h"
#include "lore/json/value.h"
#include "search/excerpt.h"
#include "search/query.h"
#include "search/ranking.h"
#include "search/terms.h"

namespace lore::search {
namespace {

using internal::Term;

bool Passes(const index::Doc& d, const index::Filter& f) {
  if (f.scope && d.record.scope != *f.scope) return false;
  if (!f.scope && f.except && d.record.scope == *f.except) return false;
  if (f.kind && d.record.kind != *f.kind) return false;
  if (f.live_at && d.record.expires && *d.record.expires <= *f.live_at) return false;
  return f.replaced == index::Replaced::kInclude || d.record.status != "replaced";
}

// The excerpt and line of a hit whose record's text was read.
void MakeHitExcerpt(const std::unordered_map<std::string, double>& weights,
                    index::Stemming stemming, Hit* h) {
  const index::Record& r = h->doc.record;
  const bool turn = r.scope == index::Scope::kSessions;
  Excerpt e = turn ? MakeTurnExcerpt(r.text, r.line, weights, stemming)
                   : MakeExcerpt(r.text, r.line, weights, stemming);
  bool log = turn || r.scope == index::Scope::kRaw || r.scope == index::Scope::kLearnings;
  h->line = log ? r.line : e.line;  // a log record is one line of its file
  h->excerpt = std::move(e.text);
}

class Ranker {
 public:
  Ranker(index::Index& idx, const SearchOptions& opts) : idx_(idx), opts_(opts), p_(opts.params) {}

  Result<std::vector<Hit>> Run(std::string_view text) {
    Query q = ParseQuery(text, idx_.stemming());
    LORE_ASSIGN(terms_, internal::LookUp(idx_, q, p_, &expansions_));
    for (const auto& tok : q.tokens) {
      bool found = false;
      for (const auto& t : terms_) found = found || (t.expansion < 0 && t.token == tok);
      if (!found) ++unseen_;
    }
    LORE_ASSIGN(bool hopeless, BelowMinShare());
    if (hopeless) {
      if (opts_.unseen_tokens) *opts_.unseen_tokens = unseen_;
      return std::vector<Hit>{};
    }
    LORE_TRY(internal::AddCooccurring(idx_, p_, &terms_, &expansions_, &learned_));
    for (auto& t : terms_) {
      if (t.name) names_.insert(t.token);
    }
    LORE_ASSIGN(bool any, FindAndScore());
    if (!any) return std::vector<Hit>{};
    if (p_.feedback && !top_.empty()) {
      size_t before = terms_.size();
      LORE_TRY(internal::AddFeedback(idx_, top_, p_, &terms_, &expansions_));
      if (terms_.size() > before) {
        text_.clear();
        parts_.clear();
        mask_.clear();
        LORE_TRY(FindAndScore());
      }
    }
    LORE_TRY(AddDated(q));
    LORE_TRY(Expand());
    LORE_TRY(Sessions());
    LORE_TRY(Boost(q));
    return Finish();
  }

 private:
  // Whether no record can hold opts.min_share of the query's own weight with
  // two of its words (see SearchOptions::min_share).
  Result<bool> BelowMinShare() {
    if (opts_.min_share <= 0) return false;
    int own = 0;
    for (const Term& t : terms_) own += t.expansion < 0 && t.df > 0 && t.weight > 0;
    if (own < 2) return true;
    if (unseen_ == 0) return false;  // every word found: one record may hold them all
    LORE_ASSIGN(int64_t n, idx_.RecordsAtMost());
    double held = 0;
    for (const Term& t : terms_) {
      if (t.expansion < 0 && t.df > 0 && t.weight > 0) held += Idf(n, t.df);
    }
    const double whole = held + unseen_ * Idf(n, 0);
    return whole > 0 && held / whole < opts_.min_share;
  }

  // Finds the records holding a searched term and scores their text; false
  // when no term can be searched.
  Result<bool> FindAndScore() {
    std::vector<std::string> tokens;
    std::vector<Term*> searched;
    for (auto& t : terms_) {
      // A name with no text weight is matched on authors only.
      if (t.df > 0 && t.weight > 0) tokens.push_back(t.token), searched.push_back(&t);
    }
    if (tokens.empty()) return false;
    LORE_ASSIGN(index::MatchSet ms, idx_.Find(tokens, opts_.filter));
    for (Term* t : searched) t->idf = Idf(ms.records, t->df);
    records_ = ms.records;
    own_idf_.clear();
    for (Term* t : searched) own_idf_.push_back(t->expansion < 0 ? t->idf : 0.0);
    searched_expansion_.clear();
    for (Term* t : searched) {
      searched_expansion_.push_back(t->expansion >= 0 ? t->expansion : t->reading);
    }
    LORE_TRY(ScoreText(ms, searched));
    return true;
  }

  // BM25 of every match, in two steps: first with every record taken at the
  // average length (no lookup per match), then exactly, with the lengths of
  // the best few (the length moves a score by less than a factor of 1 + b).
  Status ScoreText(const index::MatchSet& ms, const std::vector<Term*>& searched) {
    // The query's own tokens make the text part, expansions the expansion part.
    auto score = [&](const int32_t* tf, int length) {
      std::pair<double, double> s{0, 0};
      for (size_t i = 0; i < searched.size(); ++i) {
        double v =
            searched[i]->weight * Bm25Term(searched[i]->idf, tf[i], length, ms.average_length, p_);
        (searched[i]->expansion < 0 ? s.first : s.second) += v;
      }
      return s;
    };
    auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    int avg = static_cast<int>(std::lround(ms.average_length));
    std::vector<std::pair<double, size_t>> rough;
    for (size_t i = 0; i < ms.size(); ++i) {
      auto [t, e] = score(ms.TfOf(i), avg);
      if (t + e > 0) rough.emplace_back(t + e, i);
    }
    size_t keep = static_cast<size_t>(std::max(p_.candidates, opts_.limit));
    size_t exact = std::min(rough.size(), std::max<size_t>(2 * keep, 100));
    std::partial_sort(rough.begin(), rough.begin() + static_cast<long>(exact), rough.end(), better);
    std::vector<std::pair<double, int64_t>> ranked;
    text_.resize(ms.size());
    for (size_t i = 0; i < ms.size(); ++i) text_[i] = {ms.ids[i], {0.0, 0.0}};
    for (size_t k = 0; k < rough.size(); ++k) {
      const int64_t id = ms.ids[rough[k].second];
      const int32_t* tf = ms.TfOf(rough[k].second);
      std::pair<double, double> s{rough[k].first, 0};
      if (k < exact) {
        LORE_ASSIGN(index::Index::Shape shape, idx_.ShapeOf(id));
        s = score(tf, shape.length);
        if (p_.trace && shape.trace) {
          s.first *= p_.trace_weight;
          s.second *= p_.trace_weight;
          traced_.insert(id);
        }
        ranked.emplace_back(s.first + s.second, id);
        uint32_t mask = 0, own = 0;
        for (size_t i = 0; i < searched.size(); ++i) {
          if (searched_expansion_[i] >= 0 && tf[i] > 0) mask |= 1u << i;
          if (own_idf_[i] > 0 && tf[i] > 0) own |= 1u << i;
        }
        if (mask) mask_[id] = mask;
        if (own) own_mask_[id] = own;
      } else {
        // Beyond the exact ones: the rough score, split in proportion.
        auto [t, e] = score(tf, avg);
        s = {t, e};
      }
      text_[rough[k].second].second = s;
    }
    // FTS5 yields matches by rowid, so text_ is sorted already.
    if (!std::is_sorted(text_.begin(), text_.end())) std::sort(text_.begin(), text_.end());
    keep = std::min(keep, ranked.size());
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(keep), ranked.end(),
                      better);
    ranked.resize(keep);
    for (const auto& [s, id] : ranked) Part(id);
    top_ = std::move(ranked);
    return Ok();
  }

  ScoreParts& Part(int64_t id) {
    auto [it, fresh] = parts_.try_emplace(id);
    if (fresh) {
      auto t = std::lower_bound(text_.begin(), text_.end(), id,
                                [](const auto& e, int64_t key) { return e.first < key; });
      if (t != text_.end() && t->first == id) {
        it->second.text = t->second.first, it->second.expansion = t->second.second;
      }
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
      // Ids only: the best matches sit close together, so a neighbour is
      // often a match or another's neighbour, read once by DocOf.
      LORE_ASSIGN(auto near, idx_.NeighbourIds(*d, p_.context_window));
      const bool log = d->record.scope == index::Scope::kSessions;
      for (const auto& [nid, distance] : near) {
        Part(nid).context += ContextShare(distance, p_, log) * s;
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

  // Records of the date the query names join the candidates.
  Status AddDated(const Query& q) {
    int64_t from = 0, to = 0;
    if (!p_.time || p_.date_candidates <= 0 || !q.date || top_.empty() ||
        !DateSpan(*q.date, &from, &to)) {
      return Ok();
    }
    LORE_ASSIGN(auto ids, idx_.Dated(from, to, p_.date_candidates));
    for (int64_t id : ids) {
      if (parts_.count(id) == 0) Part(id), dated_.insert(id);
    }
    return Ok();
  }

  Status Boost(const Query& q) {
    bool when = p_.time && q.asks_when;
    double best = top_.empty() ? 0 : top_.front().first;
    for (auto it = parts_.begin(); it != parts_.end();) {
      LORE_ASSIGN(const index::Doc* d, DocOf(it->first));
      if (!Passes(*d, opts_.filter)) {
        it = parts_.erase(it);
        continue;
      }
      ScoreParts& sp = it->second;
      if (dated_.count(it->first)) sp.time = p_.date_prior * best;
      if (p_.asks && d->asks) {
        sp.asks = p_.ask_weight;
        sp.text *= sp.asks;
        sp.expansion *= sp.asks;
      }
      if (traced_.count(it->first)) sp.trace = p_.trace_weight;  // weighed when scored
      double base = sp.text + sp.expansion + sp.context + sp.session;
      if (!names_.empty() && ByName(*d)) sp.author = p_.author_boost * base;
      if (when && d->time_expressions > 0) sp.time += p_.time_boost * base;
      if (p_.time && q.date && d->record.time && DateMatches(*q.date, *d->record.time)) {
        sp.time += p_.date_boost * base;
      }
      if (p_.curated && d->record.scope == index::Scope::kLearnings)
        sp.curated = p_.curated_boost * (base + sp.author + sp.time);
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

  // The distinct words (sorted) of what record `id`'s hit shows: the searched
  // words of the record that its excerpt, made as the hit's own (kept for
  // Finish), holds; never the JSON keys every raw line has.
  Result<std::vector<std::string>> ShownWords(int64_t id) {
    if (!opts_.excerpts) {
      // The caller shows its own lines of the record (prompt-time recall, in a hook): its
      // words, without the excerpt's cost.
      LORE_ASSIGN(std::vector<std::string> words, idx_.Tokens(id));
      std::sort(words.begin(), words.end());
      words.erase(std::unique(words.begin(), words.end()), words.end());
      return words;
    }
    Hit h;
    LORE_ASSIGN(h.doc, idx_.Get(id, /*with_text=*/true));
    MakeHitExcerpt(weights_, idx_.stemming(), &h);
    std::vector<std::string> shown = index::Tokenize(h.excerpt, idx_.stemming());
    LORE_ASSIGN(std::vector<std::string> words, idx_.Tokens(id));
    std::sort(shown.begin(), shown.end());
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    std::erase_if(words, [&](const std::string& w) {
      return !std::binary_search(shown.begin(), shown.end(), w);
    });
    shown_.emplace(id, std::move(h));
    return words;
  }

  // True when `candidate`, a sorted list of at least distinct_min_words
  // distinct words, has distinct_share of them in `better`'s (sorted):
  // it shows little that the better hit has not (RankingParams::distinct).
  bool Repeats(const std::vector<std::string>& candidate,
               const std::vector<std::string>& better) const {
    if (candidate.size() < static_cast<size_t>(std::max(p_.distinct_min_words, 1))) return false;
    size_t common = 0;
    for (auto x = candidate.begin(), y = better.begin();
         x != candidate.end() && y != better.end();) {
      if (*x < *y) {
        ++x;
      } else if (*y < *x) {
        ++y;
      } else {
        ++common, ++x, ++y;
      }
    }
    return static_cast<double>(common) >= p_.distinct_share * static_cast<double>(candidate.size());
  }

  // Reorders the best `keep` of `order` (sorted that far) so that no record
  // nearly repeats the words of a better one (distinct) and no log record has
  // diversity_max better ones of its file within diversity_window lines
  // (diversity) while another record waits (RankingParams).
  template <class Better>
  Status Diversify(std::vector<std::pair<double, int64_t>>& order, size_t keep, Better better) {
    // Enough candidates to fill the places of the ones that wait.
    const size_t pool = std::min(order.size(), keep * 4);
    std::partial_sort(order.begin(), order.begin() + static_cast<long>(pool), order.end(), better);
    std::vector<std::pair<double, int64_t>> picked, waiting;
    std::unordered_map<std::string, std::vector<int64_t>> near;  // file -> lines picked
    std::vector<std::vector<std::string>> said;                  // the picked records' words
    for (size_t i = 0; i < pool && picked.size() < keep; ++i) {
      LORE_ASSIGN(const index::Doc* d, DocOf(order[i].second));
      const index::Record& r = d->record;
      std::vector<std::string> words;
      if (p_.distinct) {
        LORE_ASSIGN(words, ShownWords(order[i].second));
        bool repeats = false;
        for (const auto& other : said) repeats = repeats || Repeats(words, other);
        if (repeats) {
          waiting.push_back(order[i]);
          continue;
        }
      }
      const bool log = r.scope == index::Scope::kSessions;
      if (p_.diversity && log) {
        auto& lines = near[r.file];
        int close = 0;
        for (int64_t l : lines) close += std::llabs(l - r.line) <= p_.diversity_window;
        if (close >= p_.diversity_max) {
          waiting.push_back(order[i]);
          continue;
        }
        lines.push_back(r.line);
      }
      if (p_.distinct) said.push_back(std::move(words));
      picked.push_back(order[i]);
    }
    for (size_t i = 0; picked.size() < keep && i < waiting.size(); ++i)
      picked.push_back(waiting[i]);
    std::copy(picked.begin(), picked.end(), order.begin());
    return Ok();
  }

  // What followed `d` in its session log, up to the person's next words
  // (Hit::then): each step on one line and shortened, a tool's output quoted.
  Result<std::string> Then(const index::Doc& d) {
    std::string out;
    if (opts_.then_bytes == 0 || d.record.session.empty()) return out;
    LORE_ASSIGN(auto near, idx_.Neighbours(d, kThenSteps));
    std::erase_if(near, [](const index::Neighbour& n) { return n.distance < 0; });
    std::sort(near.begin(), near.end(),
              [](const auto& a, const auto& b) { return a.distance < b.distance; });
    for (const auto& n : near) {
      const std::string& kind = n.doc.record.kind;
      if (kind != "agent" && kind != "tool" && kind != "result") break;  // the person's turn
      LORE_ASSIGN(index::Doc full, idx_.Get(n.doc.id, /*with_text=*/true));
      std::string step = ThenStep(full.record);
      if (step.empty()) continue;
      if (out.size() + step.size() + 5 > opts_.then_bytes) break;
      out += (out.empty() ? "" : " → ") + step;
    }
    return out;
  }

  Result<std::vector<Hit>> Finish() {
    std::vector<std::pair<double, int64_t>> order;
    for (const auto& [id, sp] : parts_) order.emplace_back(sp.Total(), id);
    auto better = [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    size_t keep = std::min(order.size(), static_cast<size_t>(std::max(opts_.limit, 0)));
    std::partial_sort(order.begin(), order.begin() + static_cast<long>(keep), order.end(), better);
    std::unordered_map<std::string, double>& weights = weights_;
    for (const auto& t : terms_) weights[t.token] = std::max(t.idf, 0.1);
    if ((p_.diversity || p_.distinct) && keep > 0) LORE_TRY(Diversify(order, keep, better));
    if (opts_.excerpt_weights) *opts_.excerpt_weights = weights;
    // The query's whole weight: its words found, and those found nowhere
    // at the idf of a word in no record.
    double whole = unseen_ * Idf(records_, 0);
    for (double w : own_idf_) whole += w;
    if (opts_.query_terms) {
      opts_.query_terms->clear();
      for (const auto& t : terms_) {
        if (t.expansion < 0 && t.df > 0)
          opts_.query_terms->emplace_back(t.token, Idf(records_, t.df));
      }
    }
    if (opts_.unseen_tokens) *opts_.unseen_tokens = unseen_;
    std::vector<Hit> hits;
    for (size_t i = 0; i < keep; ++i) {
      Hit h;
      if (auto o = own_mask_.find(order[i].second); o != own_mask_.end() && whole > 0) {
        double held = 0;
        for (size_t b = 0; b < own_idf_.size(); ++b) {
          if (o->second & (1u << b)) held += own_idf_[b], ++h.query_matched;
        }
        h.query_share = held / whole;
      }
      auto shown = shown_.find(order[i].second);
      if (opts_.excerpts && shown != shown_.end()) {
        h.doc = std::move(shown->second.doc);
        h.line = shown->second.line;
        h.excerpt = std::move(shown->second.excerpt);
      } else if (opts_.excerpts) {
        LORE_ASSIGN(h.doc, idx_.Get(order[i].second, /*with_text=*/true));
        MakeHitExcerpt(weights, idx_.stemming(), &h);
      } else {
        h.doc = docs_.at(order[i].second);
      }
      h.score = parts_.at(order[i].second);
      if (auto m = mask_.find(order[i].second); m != mask_.end()) {
        for (size_t b = 0; b < searched_expansion_.size(); ++b) {
          if (m->second & (1u << b)) h.expansions.push_back(expansions_[searched_expansion_[b]]);
        }
      }
      if (opts_.excerpts) {
        if (h.doc.record.scope == index::Scope::kSessions) {
          LORE_ASSIGN(h.then, Then(h.doc));
        }
      }
      hits.push_back(std::move(h));
    }
    return hits;
  }

 public:
  // What this search learned that the index does not keep yet.
  const internal::Learned& learned() const { return learned_; }

 private:
  index::Index& idx_;
  const SearchOptions& opts_;
  const RankingParams& p_;
  std::vector<Term> terms_;
  std::unordered_set<std::string> names_;
  std::vector<Expansion> expansions_;
  std::unordered_set<int64_t> dated_;  // candidates only by the date the query names
  // Every match's (text, expansion) score, sorted by id: one entry per match,
  // and a query may match every record.
  std::vector<std::pair<int64_t, std::pair<double, double>>> text_;
  // The expansions each exactly scored record holds (bits over the searched terms).
  std::vector<int> searched_expansion_;  // per searched term: its expansion (or reading) or -1
  std::unordered_map<int64_t, uint32_t> mask_;      // bits over the searched terms
  std::unordered_map<int64_t, uint32_t> own_mask_;  // bits over the query's own searched tokens
  std::vector<double> own_idf_;  // per searched term: its idf when a token of the query, else 0
  int64_t records_ = 0;
  int unseen_ = 0;                                   // query tokens the index holds nowhere
  std::unordered_map<std::string, double> weights_;  // excerpts' weight of each searched token
  std::unordered_map<int64_t, Hit> shown_;           // hits whose excerpt Diversify made
  std::unordered_set<int64_t> traced_;               // trace records, weighed by trace_weight
  std::vector<std::pair<double, int64_t>> top_;
  std::unordered_map<int64_t, ScoreParts> parts_;
  std::unordered_map<int64_t, index::Doc> docs_;
  internal::Learned learned_;
};

Json OrNull(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

}  // namespace

std::string ThenStep(const index::Record& r) {
  const std::string& text = r.text;
  if (r.kind == "agent") return activity::Excerpt(text, kThenAgentBytes);
  if (r.kind == "tool") {
    // "Bash: cmd\n(note)": the call itself, without the harness's note; an
    // edit's "\nwrote:\n<text>": the start of what it wrote, quoted.
    std::string call =
        activity::Excerpt(std::string_view(text).substr(0, text.find('\n')), kThenCallBytes);
    constexpr std::string_view kWrote = "\nwrote:\n";
    if (size_t w = text.find(kWrote); w != std::string::npos) {
      call +=
          " wrote \"" +
          activity::Excerpt(std::string_view(text).substr(w + kWrote.size()), kThenOutputBytes) +
          "\"";
    }
    return call;
  }
  // "result ok:\n<output>": the status, and the output quoted.
  size_t colon = text.find(":\n");
  if (colon == std::string::npos) return activity::Excerpt(text, kThenCallBytes);
  std::string said = activity::Excerpt(std::string_view(text).substr(colon + 2), kThenOutputBytes);
  return text.substr(0, colon) + " \"" + said + "\"";
}

namespace {

double Round(double v) { return std::round(v * 10000) / 10000; }

}  // namespace

Result<std::vector<Hit>> Search(index::Index& idx, std::string_view query,
                                const SearchOptions& opts) {
  LORE_ASSIGN(index::Transaction snapshot, idx.Read());
  int64_t generation = 0;
  if (opts.params.cooc) {
    LORE_ASSIGN(generation, idx.Generation());
  }
  Ranker r(idx, opts);
  auto hits = r.Run(query);
  if (!hits) return hits;
  LORE_TRY(snapshot.Commit());
  // Keeping what was learned is best effort: a store lore cannot write is
  // still searched, and only computes it again next time.
  (void)idx.StoreLearned(generation, r.learned());
  return hits;
}

Status AddExcerpt(index::Index& idx, const std::unordered_map<std::string, double>& weights,
                  Hit* hit) {
  LORE_ASSIGN(hit->doc, idx.Get(hit->doc.id, /*with_text=*/true));
  MakeHitExcerpt(weights, idx.stemming(), hit);
  return Ok();
}

std::string ItemId(const index::Record& r) {
  bool log = r.scope == index::Scope::kRaw || r.scope == index::Scope::kLearnings ||
             r.scope == index::Scope::kSessions;
  return log ? r.file + ":" + std::to_string(r.line) : r.file;
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
  if (!hit.then.empty()) j["then"] = hit.then;
  j["id"] = ItemId(r);
  j["size"] = static_cast<int64_t>(r.text.size());
  if (explain) {
    j["explain"] = {
        {"total", Round(hit.score.Total())},       {"text", Round(hit.score.text)},
        {"expansion", Round(hit.score.expansion)}, {"context", Round(hit.score.context)},
        {"session", Round(hit.score.session)},     {"author", Round(hit.score.author)},
        {"time", Round(hit.score.time)},           {"asks", Round(hit.score.asks)},
        {"trace", Round(hit.score.trace)},         {"curated", Round(hit.score.curated)}};
    Json terms = Json::array();
    for (const auto& e : hit.expansions) {
      terms.push_back({{"term", e.token},
                       {"stage", std::string(StageName(e.stage))},
                       {"of", OrNull(e.of)},
                       {"weight", Round(e.weight)}});
    }
    j["explain"]["expansions"] = std::move(terms);
  }
  return j;
}

}  // namespace lore::search
