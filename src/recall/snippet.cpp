#include "recall/snippet.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "doc/frontmatter.h"
#include "lore/text/utf8.h"

namespace lore::recall {
namespace {

constexpr int kFragments = 3;
constexpr size_t kFragmentMin = 60;
// At most this many of the query's terms count (a query has a few dozen).
constexpr size_t kMaxTerms = 255;

}  // namespace

// `text` on one line: white space runs (newlines included) made one space.
std::string OneLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = true;
  for (char c : text) {
    bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (ws) {
      if (!space) out += ' ';
      space = true;
    } else {
      out += c;
      space = false;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// A Markdown record's text without its frontmatter (what a person reads).
std::string_view Body(std::string_view text) { return text.substr(doc::PlainBodyStart(text)); }

std::string Snippet(const std::string& line, size_t max, const QueryTerms& q,
                    index::Stemming stemming) {
  if (line.size() <= max) return line;
  // The query's terms the line holds, numbered in the order first met; a
  // word keeps the numbers of its tokens' terms.
  std::vector<const std::pair<const std::string, double>*> terms;
  struct Word {
    size_t begin, end;
    std::vector<uint8_t> terms;
  };
  std::vector<Word> words;
  for (size_t i = 0; i < line.size();) {
    size_t j = line.find(' ', i);
    if (j == std::string::npos) j = line.size();
    Word w{i, j, {}};
    index::ForEachToken(std::string_view(line).substr(i, j - i), stemming,
                        [&](const std::string& t) {
                          auto it = q.idf.find(t);
                          if (it == q.idf.end()) return;
                          auto at = std::find(terms.begin(), terms.end(), &*it);
                          if (at == terms.end()) {
                            if (terms.size() == kMaxTerms) return;
                            at = terms.insert(terms.end(), &*it);
                          }
                          w.terms.push_back(static_cast<uint8_t>(at - terms.begin()));
                        });
    words.push_back(std::move(w));
    i = j + 1;
  }
  std::vector<std::pair<size_t, size_t>> chosen;  // word ranges [first, last]
  std::vector<char> covered(terms.size(), 0), in(terms.size(), 0);
  std::vector<bool> used(words.size(), false);
  size_t spent = 0;
  for (int f = 0; f < kFragments; ++f) {
    const size_t room = max > spent + 4 ? max - spent - 4 : 0;
    const size_t len = std::min(room, std::max(max / kFragments, kFragmentMin * 2));
    if (len < kFragmentMin) break;
    double best = 0;
    size_t best_lo = 0, best_hi = 0;
    bool found = false;
    for (size_t lo = 0; lo < words.size(); ++lo) {
      if (used[lo]) continue;
      std::fill(in.begin(), in.end(), 0);
      double score = 0;
      for (size_t hi = lo; hi < words.size() && !used[hi] && words[hi].end - words[lo].begin <= len;
           ++hi) {
        for (uint8_t t : words[hi].terms) {
          if (!covered[t] && !in[t]) in[t] = 1, score += terms[t]->second;
        }
        if (score > best) best = score, best_lo = lo, best_hi = hi, found = true;
      }
    }
    if (!found) {
      if (f > 0) break;
      best_lo = 0;  // nothing of the query in it: its beginning
      best_hi = 0;
      while (best_hi + 1 < words.size() && words[best_hi + 1].end - words[0].begin <= len)
        ++best_hi;
    }
    // Widen to the window's length: what follows a match often answers it.
    while (best_hi + 1 < words.size() && !used[best_hi + 1] &&
           words[best_hi + 1].end - words[best_lo].begin <= len)
      ++best_hi;
    for (size_t k = best_lo; k <= best_hi; ++k) {
      used[k] = true;
      for (uint8_t t : words[k].terms) covered[t] = 1;
    }
    chosen.emplace_back(best_lo, best_hi);
    spent += words[best_hi].end - words[best_lo].begin + 4;
  }
  std::sort(chosen.begin(), chosen.end());
  // Room left (no window brings a new term): the fragments grow forward,
  // best first, into the words that follow them (what follows a match often
  // answers it), then backward.
  for (int pass = 0; pass < 2; ++pass) {
    for (auto& [lo, hi] : chosen) {
      for (;;) {
        size_t k = pass == 0 ? hi + 1 : lo - 1;
        if ((pass == 0 && k >= words.size()) || (pass == 1 && lo == 0) || used[k]) break;
        size_t add = words[k].end - words[k].begin + 1;
        if (spent + add > max) break;
        used[k] = true;
        spent += add;
        (pass == 0 ? hi : lo) = k;
      }
    }
  }
  std::string out;
  size_t next = 0;  // the first word not yet shown or skipped
  for (const auto& [lo, hi] : chosen) {
    if (lo > next)
      out += out.empty() ? "… " : " … ";
    else if (!out.empty())
      out += ' ';
    out += line.substr(words[lo].begin, words[hi].end - words[lo].begin);
    next = hi + 1;
  }
  if (next < words.size()) out += " …";
  if (!text::IsValidUtf8(out)) out = text::ReplaceInvalidUtf8(out);
  return out;
}

}  // namespace lore::recall
