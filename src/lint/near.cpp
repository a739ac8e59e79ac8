// Near-duplicate slugs: the slugs within edit distance 2 of each other,
// found for a whole store without comparing every pair.
//
// The slugs of a kind, sorted, are the leaves of a trie. Each slug walks the
// trie depth first with the rows of the edit-distance table of itself
// against the path's prefix, capped at 3 and computed only within two cells
// of the diagonal: a node whose row holds nothing under 3 has no near slug
// below it, and its subtree is skipped; a row whose least cell is 2 lets only
// the children on the walking slug's own characters go on, looked up in the
// node's children (sorted) without reading the others. A row is shared by
// every slug below its node, so slugs with a long common prefix
// ("decision-00017") cost little, and a walk visits about the nodes within
// distance 2 of the slug's prefixes, not the store. Each pair is found once,
// by its first slug: children whose slugs all come before it are skipped. On
// large kinds the walks are shared out between one thread per core, each
// with its own tallies, added up at the end.
#include <algorithm>
#include <array>
#include <cstdint>
#include <thread>
#include <vector>

#include "lint/rules.h"
#include "lore/text/edit_distance.h"

namespace lore::lint::detail {
namespace {

static_assert(kSimilarSlugDistance == 2, "the band below is five cells wide");
constexpr uint8_t kFar = kSimilarSlugDistance + 1;  // any distance over the limit
constexpr int kBand = 2 * kSimilarSlugDistance + 1;

// A row of the table: cell t is the distance to the walking slug's first
// depth + t - 2 characters.
using Row = std::array<uint8_t, kBand>;

// The trie of the sorted slugs. Node 0 is the root; the children of node n
// are the edges first[n] to first[n + 1] - 1, in the order of their
// characters, so that the slugs below them come in sorted order.
struct Trie {
  std::vector<uint32_t> first;  // per node, and one past the last
  std::vector<int32_t> slug;    // per node: the slug that ends there, or -1
  std::vector<char> c;          // per edge: its character
  std::vector<uint32_t> child;  // per edge: the node it leads to
  std::vector<uint32_t> last;   // per edge: the last slug below it
};

Trie Build(const std::vector<std::string_view>& slugs) {
  // The nodes in depth-first order, each with its parent, then the edges of
  // each parent gathered (children come in order within a parent).
  std::vector<uint32_t> parent{0};
  std::vector<char> chars{0};
  std::vector<int32_t> slug{-1};
  std::vector<uint32_t> last{0};
  std::vector<uint32_t> path{0};  // the nodes from the root to the previous slug
  std::string_view prev;
  for (size_t i = 0; i < slugs.size(); ++i) {
    const std::string_view s = slugs[i];
    size_t common = 0;
    while (common < s.size() && common < prev.size() && s[common] == prev[common]) ++common;
    path.resize(common + 1);
    for (size_t d = common; d < s.size(); ++d) {
      parent.push_back(path.back());
      chars.push_back(s[d]);
      slug.push_back(-1);
      last.push_back(0);
      path.push_back(static_cast<uint32_t>(parent.size() - 1));
    }
    slug[path.back()] = static_cast<int32_t>(i);
    for (uint32_t n : path) last[n] = static_cast<uint32_t>(i);
    prev = s;
  }
  Trie t;
  const size_t nodes = parent.size();
  t.first.assign(nodes + 1, 0);
  for (size_t n = 1; n < nodes; ++n) ++t.first[parent[n] + 1];
  for (size_t n = 0; n < nodes; ++n) t.first[n + 1] += t.first[n];
  t.c.resize(nodes - 1);
  t.child.resize(nodes - 1);
  t.last.resize(nodes - 1);
  std::vector<uint32_t> fill(t.first.begin(), t.first.end() - 1);
  for (size_t n = 1; n < nodes; ++n) {
    const uint32_t e = fill[parent[n]]++;
    t.c[e] = chars[n];
    t.child[e] = static_cast<uint32_t>(n);
    t.last[e] = last[n];
  }
  t.slug = std::move(slug);
  return t;
}

// Row `depth` of the table from row `depth - 1` (`up`) and the trie's
// character `c` there, against `q`; returns the row's least cell.
uint8_t Step(const Row& up, Row& row, char c, long depth, std::string_view q) {
  // Cells t with 0 <= depth + t - 2 <= |q| hold a distance; the others none.
  const long lo = std::max<long>(0, kSimilarSlugDistance - depth);
  const long hi =
      std::min<long>(kBand - 1, static_cast<long>(q.size()) - depth + kSimilarSlugDistance);
  row.fill(kFar);
  uint8_t least = kFar, left = kFar;
  constexpr long kDistance = kSimilarSlugDistance;
  for (long t = lo; t <= hi; ++t) {
    const long j = depth + t - kDistance;                          // characters of q
    uint8_t v = t + 1 < kBand ? up[t + 1] + 1 : kFar;              // c left out
    if (j > 0) v = std::min<uint8_t>(v, up[t] + (q[j - 1] != c));  // c for q[j-1]
    v = std::min<uint8_t>(std::min<uint8_t>(v, left + 1), kFar);   // q[j-1] left out
    row[t] = left = v;
    least = std::min(least, v);
  }
  return least;
}

// What is kept of one slug's neighbours: how many, and the first few.
struct Tally {
  uint32_t count = 0;
  std::array<uint32_t, kShownNear> first{};

  void Add(uint32_t j) {
    size_t kept = std::min<size_t>(count, kShownNear);
    ++count;
    if (kept == kShownNear && j > first[kShownNear - 1]) return;
    size_t at = std::min(kept, kShownNear - 1);
    while (at > 0 && first[at - 1] > j) {
      first[at] = first[at - 1];
      --at;
    }
    first[at] = j;
  }
  // Adds what `other` kept of a disjoint set of neighbours.
  void Merge(const Tally& other) {
    const uint32_t total = count + other.count;
    for (size_t k = 0; k < std::min<size_t>(other.count, kShownNear); ++k) Add(other.first[k]);
    count = total;
  }
};

// The walks of some slugs through the trie, with what they need at each
// depth, adding the pairs they find to their own tallies.
class Walker {
 public:
  Walker(const Trie& trie, const std::vector<std::string_view>& slugs, size_t longest)
      : trie_(trie), slugs_(slugs), rows_(longest + 1), picks_(longest + 1), tally_(slugs.size()) {}

  // Every slug after slug `b` within distance 2 of it.
  void Walk(uint32_t b);
  const std::vector<Tally>& tally() const { return tally_; }

 private:
  // The children of a node still to walk: edges edge..end - 1, or (picked)
  // the edges picks_[depth][edge..end - 1].
  struct Frame {
    uint32_t edge, end;
    bool picked;
  };
  // Pushes the children of node `v` at depth `d` (whose row is rows_[d],
  // least cell `least`) that may lead to a slug after `b` near q.
  void Push(uint32_t v, size_t d, uint8_t least, uint32_t b, std::string_view q);

  const Trie& trie_;
  const std::vector<std::string_view>& slugs_;
  std::vector<Row> rows_;                           // by depth: the walking slug against the path
  std::vector<std::array<uint32_t, kBand>> picks_;  // by depth
  std::vector<Frame> stack_;
  std::vector<Tally> tally_;
};

void Walker::Push(uint32_t v, size_t d, uint8_t least, uint32_t b, std::string_view q) {
  const uint32_t* last = trie_.last.data();
  const char* c = trie_.c.data();
  // Children whose slugs all come first are left out: their pairs are found
  // (siblings come in the order of their slugs).
  uint32_t begin = trie_.first[v];
  const uint32_t end = trie_.first[v + 1];
  while (begin < end && last[begin] <= b) ++begin;
  if (begin == end) return;
  if (least < kSimilarSlugDistance) {
    stack_.push_back(Frame{begin, end, false});
    return;
  }
  // At the limit, a path goes on only by the walking slug's character on a
  // cell at the limit (a diagonal step): only those children are walked.
  const Row& row = rows_[d];
  std::array<uint64_t, 4> on{};  // a bit per character
  for (int u = 0; u < kBand; ++u) {
    const long at = static_cast<long>(d) + u - kSimilarSlugDistance;  // q's character
    if (row[u] != least || at < 0 || at >= static_cast<long>(q.size())) continue;
    const auto ch = static_cast<unsigned char>(q[at]);
    on[ch >> 6] |= uint64_t{1} << (ch & 63);
  }
  uint32_t n = 0;
  for (uint32_t e = begin; e < end; ++e) {
    const auto ch = static_cast<unsigned char>(c[e]);
    if (on[ch >> 6] >> (ch & 63) & 1) picks_[d][n++] = e;
  }
  if (n > 0) stack_.push_back(Frame{0, n, true});
}

void Walker::Walk(uint32_t b) {
  const std::string_view q = slugs_[b];
  const long size = static_cast<long>(q.size());
  for (int t = 0; t < kBand; ++t) {
    const int j = t - kSimilarSlugDistance;
    rows_[0][t] = j < 0 || j > size ? kFar : static_cast<uint8_t>(j);
  }
  stack_.clear();
  Push(0, 0, 0, b, q);
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    if (f.edge == f.end) {
      stack_.pop_back();
      continue;
    }
    const size_t d = stack_.size();  // the child's depth
    const uint32_t e = f.picked ? picks_[d - 1][f.edge++] : f.edge++;
    const uint8_t least = Step(rows_[d - 1], rows_[d], trie_.c[e], static_cast<long>(d), q);
    if (least >= kFar) continue;
    const uint32_t v = trie_.child[e];
    // The distance of the slug ending here to q is cell |q| - d + 2.
    const long t = size - static_cast<long>(d) + kSimilarSlugDistance;
    const int32_t a = trie_.slug[v];
    if (a > static_cast<int32_t>(b) && t >= 0 && t < kBand && rows_[d][t] < kFar) {
      tally_[b].Add(static_cast<uint32_t>(a));
      tally_[a].Add(b);
    }
    Push(v, d, least, b, q);
  }
}

// Kinds with at least this many slugs are walked by one thread per core.
constexpr size_t kParallelSlugs = 4096;

}  // namespace

Letters CountLetters(std::string_view s) {
  Letters h{};
  for (char c : s) {
    size_t i = c >= 'a' && c <= 'z' ? c - 'a' : c >= '0' && c <= '9' ? 26 + (c - '0') : 36;
    ++h[i];
  }
  return h;
}

bool Similar(std::string_view a, const Letters& la, std::string_view b, const Letters& lb) {
  size_t len_diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (len_diff > kSimilarSlugDistance) return false;
  size_t diff = 0;
  for (size_t i = 0; i < la.size(); ++i) diff += la[i] > lb[i] ? la[i] - lb[i] : lb[i] - la[i];
  if (diff > 2 * kSimilarSlugDistance) return false;
  return text::EditDistance(a, b, kSimilarSlugDistance) <= kSimilarSlugDistance;
}

std::map<std::string, Near, std::less<>> NearSlugs(const StoreView& view, doc::Kind kind) {
  std::vector<std::string_view> slugs;  // sorted: a slug's number is its place
  for (const auto& [slug, ref] : view.records[doc::KindIndex(kind)]) slugs.push_back(slug);
  const Trie trie = Build(slugs);
  size_t longest = 0;
  for (auto s : slugs) longest = std::max(longest, s.size());
  const size_t threads = slugs.size() < kParallelSlugs
                             ? 1
                             : std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
  std::vector<Walker> walkers;
  walkers.reserve(threads);
  for (size_t i = 0; i < threads; ++i) walkers.emplace_back(trie, slugs, longest);
  {
    // Slugs dealt out in turn: the walks of neighbouring slugs cost alike.
    std::vector<std::thread> workers;
    auto walk = [&](size_t w) {
      for (size_t b = w; b < slugs.size(); b += threads) walkers[w].Walk(static_cast<uint32_t>(b));
    };
    for (size_t w = 1; w < threads; ++w) workers.emplace_back(walk, w);
    walk(0);
    for (auto& t : workers) t.join();
  }
  std::vector<Tally> tally = walkers[0].tally();
  for (size_t w = 1; w < threads; ++w) {
    for (size_t i = 0; i < slugs.size(); ++i) tally[i].Merge(walkers[w].tally()[i]);
  }
  std::map<std::string, Near, std::less<>> out;
  for (size_t i = 0; i < slugs.size(); ++i) {
    if (tally[i].count == 0) continue;
    Near& near = out[std::string(slugs[i])];
    near.count = tally[i].count;
    for (size_t k = 0; k < std::min<size_t>(near.count, kShownNear); ++k) {
      near.first.emplace_back(slugs[tally[i].first[k]]);
    }
  }
  return out;
}

}  // namespace lore::lint::detail
