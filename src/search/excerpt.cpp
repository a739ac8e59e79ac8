#include "search/excerpt.h"

#include <algorithm>
#include <vector>

namespace lore::search {
namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view l = text.substr(pos, nl - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    pos = nl + 1;
  }
  if (lines.empty()) lines.push_back({});
  return lines;
}

bool Blank(std::string_view l) { return l.find_first_not_of(" \t") == std::string_view::npos; }

// The index of the first line after a frontmatter block (0 when none).
size_t BodyStart(const std::vector<std::string_view>& lines) {
  if (lines.empty() || lines[0] != "---") return 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i] == "---") return i + 1;
  }
  return 0;
}

}  // namespace

namespace {

// The index of the best line of `lines` (see MakeExcerpt).
size_t BestLine(const std::vector<std::string_view>& lines,
                const std::unordered_map<std::string, double>& weights, index::Stemming stemming) {
  size_t best = lines.size();
  double best_score = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    // A line holds few of the query's terms: the ones seen are a short list.
    std::vector<const double*> seen;
    double score = 0;
    index::ForEachToken(lines[i], stemming, [&](const std::string& t) {
      auto it = weights.find(t);
      if (it == weights.end()) return;
      if (std::find(seen.begin(), seen.end(), &it->second) != seen.end()) return;
      seen.push_back(&it->second);
      score += it->second;
    });
    if (score > best_score) best_score = score, best = i;
  }
  if (best == lines.size()) {
    best = BodyStart(lines);
    while (best + 1 < lines.size() && Blank(lines[best])) ++best;
    if (best >= lines.size()) best = 0;
  }
  return best;
}

}  // namespace

Excerpt MakeExcerpt(std::string_view text, int64_t first_line,
                    const std::unordered_map<std::string, double>& weights,
                    index::Stemming stemming, int radius) {
  auto lines = SplitLines(text);
  size_t best = BestLine(lines, weights, stemming);
  // A record's frontmatter is never shown: the best line and the lines
  // around it come from its body, when it has one.
  const size_t body = BodyStart(lines);
  bool has_body = false;
  for (size_t i = body; body > 0 && i < lines.size() && !has_body; ++i) has_body = !Blank(lines[i]);
  if (has_body && best < body) {
    std::vector<std::string_view> rest(lines.begin() + static_cast<ptrdiff_t>(body), lines.end());
    size_t in_rest = BestLine(rest, weights, stemming);
    while (in_rest + 1 < rest.size() && Blank(rest[in_rest])) ++in_rest;
    best = body + in_rest;
  }
  size_t from = best >= static_cast<size_t>(radius) ? best - radius : 0;
  if (has_body) {
    from = std::max(from, body);
    while (from < best && Blank(lines[from])) ++from;
  }
  size_t to = std::min(lines.size(), best + radius + 1);
  Excerpt e;
  e.line = first_line + static_cast<int64_t>(best);
  for (size_t i = from; i < to; ++i) {
    if (i > from) e.text += '\n';
    e.text.append(lines[i]);
  }
  return e;
}

Excerpt MakeTurnExcerpt(std::string_view text, int64_t first_line,
                        const std::unordered_map<std::string, double>& weights,
                        index::Stemming stemming, size_t max_bytes) {
  auto lines = SplitLines(text);
  size_t best = BestLine(lines, weights, stemming);
  Excerpt e;
  e.line = first_line + static_cast<int64_t>(best);
  if (text.size() <= max_bytes) {
    size_t end = text.size();
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
    e.text = std::string(text.substr(0, end));
    return e;
  }
  size_t from = best, to = best + 1;
  size_t bytes = lines[best].size();
  for (bool after = true;; after = !after) {
    bool grew = false;
    for (int side = 0; side < 2 && !grew; ++side, after = !after) {
      if (after && to < lines.size() && bytes + lines[to].size() + 1 <= max_bytes) {
        bytes += lines[to++].size() + 1;
        grew = true;
      } else if (!after && from > 0 && bytes + lines[from - 1].size() + 1 <= max_bytes) {
        bytes += lines[--from].size() + 1;
        grew = true;
      }
    }
    if (!grew) break;
  }
  for (size_t i = from; i < to; ++i) {
    if (i > from) e.text += '\n';
    e.text.append(lines[i]);
  }
  if (e.text.size() > max_bytes) {
    // One line longer than the whole budget: its start.
    size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(e.text[cut]) & 0xC0) == 0x80) --cut;
    e.text.resize(cut);
  }
  return e;
}

}  // namespace lore::search
