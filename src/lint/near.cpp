// Near-duplicate slugs: the slugs within edit distance 2 of each other,
// found for a whole store without comparing every pair.
//
// Cut a slug `a` at m = |a| / 2. An edit script of at most two edits from
// `a` to `b`, cut at that point, spends at most one edit on one of the two
// halves: either a[0:m] is within one edit of a prefix b[0:j] with j within
// one of m, or a[m:] is within one edit of a suffix of b whose length is
// within one of |a| - m. Two strings within one edit share a key: the string
// itself or the string less one character (a character deleted from each
// side covers an insertion, a deletion and a substitution). So every slug is
// filed under the keys of its two halves, and every slug looks up the keys of
// its own prefixes and suffixes of the lengths that may match; the few slugs
// that share a key are then compared exactly (length, letter counts, edit
// distance), as the linter of one record compares every slug. Keys are 64-bit
// hashes: a collision only adds a candidate that the exact comparison drops.
//
// Slugs are filed one length at a time, and looked up by the slugs up to two
// characters shorter or of the same length (each pair is found once, from its
// shorter slug, or from the first of two slugs of one length), so only one
// length's keys are held at once.
#include <algorithm>
#include <array>
#include <cstdint>

#include "lint/rules.h"
#include "lore/text/edit_distance.h"

namespace lore::lint::detail {
namespace {

constexpr uint64_t kBase = 0x100000001b3ULL;  // odd: a polynomial hash modulo 2^64

uint64_t Mix(uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Hashes of the substrings of one slug, and of those substrings less one
// character, from its prefix hashes.
class Hashes {
 public:
  Hashes(std::string_view s, const std::vector<uint64_t>& powers) : s_(s), pow_(powers) {
    pre_.resize(s.size() + 1);
    for (size_t i = 0; i < s.size(); ++i) pre_[i + 1] = pre_[i] * kBase + uint8_t(s[i]) + 1;
  }
  // The keys of s[x:y] in half `half`: itself and itself less each character
  // (once per run of equal characters, which all leave the same string).
  template <class F>
  void Keys(int half, size_t x, size_t y, F&& each) const {
    each(Key(half, y - x, Of(x, y)));
    for (size_t k = x; k < y; ++k) {
      if (k > x && s_[k] == s_[k - 1]) continue;
      each(Key(half, y - x - 1, Of(x, k) * pow_[y - k - 1] + Of(k + 1, y)));
    }
  }

 private:
  uint64_t Of(size_t x, size_t y) const { return pre_[y] - pre_[x] * pow_[y - x]; }
  static uint64_t Key(int half, size_t length, uint64_t hash) {
    return Mix(hash ^ (uint64_t(length) << 48) ^ (uint64_t(half) << 62));
  }

  std::string_view s_;
  const std::vector<uint64_t>& pow_;
  std::vector<uint64_t> pre_;
};

// The slugs filed under each key: the (key, slug) pairs sorted, and an
// open-addressing table from a key to its run of pairs (a lookup is one or two
// cache misses, where a binary search over the pairs was a dozen).
class Filed {
 public:
  void Clear() { pairs_.clear(); }
  void Add(uint64_t key, uint32_t slug) { pairs_.emplace_back(key | 1, slug); }
  void Seal() {
    std::sort(pairs_.begin(), pairs_.end());
    size_t size = 16;
    while (size < 2 * pairs_.size()) size *= 2;
    slots_.assign(size, Slot{});
    mask_ = size - 1;
    for (size_t i = 0; i < pairs_.size();) {
      size_t end = i;
      while (end < pairs_.size() && pairs_[end].first == pairs_[i].first) ++end;
      size_t at = pairs_[i].first & mask_;
      while (slots_[at].key != 0) at = (at + 1) & mask_;
      slots_[at] = Slot{pairs_[i].first, static_cast<uint32_t>(i), static_cast<uint32_t>(end)};
      i = end;
    }
  }
  // Calls `each` with every slug filed under `key`.
  template <class F>
  void ForEach(uint64_t key, F&& each) const {
    key |= 1;  // 0 marks an empty slot
    for (size_t at = key & mask_; slots_[at].key != 0; at = (at + 1) & mask_) {
      if (slots_[at].key != key) continue;
      for (uint32_t i = slots_[at].begin; i < slots_[at].end; ++i) each(pairs_[i].second);
      return;
    }
  }

 private:
  struct Slot {
    uint64_t key = 0;
    uint32_t begin = 0, end = 0;
  };
  std::vector<std::pair<uint64_t, uint32_t>> pairs_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
};

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
};

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
  static_assert(kSimilarSlugDistance == 2, "the halves' search below assumes distance 2");
  std::vector<std::string_view> slugs;  // sorted: a slug's number is its place
  for (const auto& [slug, ref] : view.records[doc::KindIndex(kind)]) slugs.push_back(slug);
  const size_t n = slugs.size();
  size_t longest = 0;
  for (auto s : slugs) longest = std::max(longest, s.size());
  std::vector<uint64_t> powers(longest + 1, 1);
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * kBase;

  std::vector<Letters> letters(n);
  std::vector<std::vector<uint32_t>> by_length(longest + 1);
  for (size_t i = 0; i < n; ++i) {
    letters[i] = CountLetters(slugs[i]);
    by_length[slugs[i].size()].push_back(static_cast<uint32_t>(i));
  }
  std::vector<Tally> tally(n);
  std::vector<uint32_t> seen(n, UINT32_MAX);  // the last slug that compared with each
  Filed filed;
  for (size_t la = 1; la <= longest; ++la) {
    if (by_length[la].empty()) continue;
    const size_t m = la / 2;
    filed.Clear();
    for (uint32_t a : by_length[la]) {
      Hashes h(slugs[a], powers);
      auto file = [&](uint64_t key) { filed.Add(key, a); };
      h.Keys(1, 0, m, file);
      h.Keys(2, m, la, file);
    }
    filed.Seal();
    for (size_t lb = la < 2 ? 1 : la - 2; lb <= la; ++lb) {
      for (uint32_t b : by_length[lb]) {
        Hashes h(slugs[b], powers);
        auto look = [&](uint64_t key) {
          filed.ForEach(key, [&](uint32_t a) {
            if (seen[a] == b || (la == lb && a <= b)) return;
            seen[a] = b;
            if (!Similar(slugs[a], letters[a], slugs[b], letters[b])) return;
            tally[a].Add(b);
            tally[b].Add(a);
          });
        };
        for (size_t j = m == 0 ? 0 : m - 1; j <= m + 1 && j <= lb; ++j) h.Keys(1, 0, j, look);
        const size_t rest = la - m;
        for (size_t len = rest == 0 ? 0 : rest - 1; len <= rest + 1 && len <= lb; ++len) {
          h.Keys(2, lb - len, lb, look);
        }
      }
    }
  }
  std::map<std::string, Near, std::less<>> out;
  for (size_t i = 0; i < n; ++i) {
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
