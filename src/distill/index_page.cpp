// index.md: the capped one-page digest. It is rendered at decreasing levels
// of detail until it fits in kIndexMaxLines lines and kIndexMaxBytes bytes.
#include <algorithm>

#include "distill/markdown.h"
#include "distill/pages.h"

namespace lore::distill {
namespace {

struct Level {
  size_t chars;            // longest item text, in code points
  size_t summary_lines;    // lines of memory/summary.md
  size_t gotchas;          // top gotchas listed
  size_t recent_outcomes;  // latest slicing outcomes listed
  size_t decisions;        // open decisions listed
  size_t other_pages;      // hand-made pages linked
};

constexpr Level kLevels[] = {
    {160, 6, 8, 3, 5, 5}, {120, 5, 6, 2, 4, 5}, {100, 4, 5, 2, 3, 3},
    {80, 3, 3, 1, 2, 2},  {60, 0, 0, 0, 0, 1},  {40, 0, 0, 0, 0, 0},
};

std::string Plural(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool Empty(const Inputs& in) {
  return in.raw_records == 0 && in.learnings.empty() && in.decisions.empty() &&
         in.requests.empty() && in.summary_lines.empty();
}

std::string Body(const Inputs& in, const std::vector<Gotcha>& gotchas,
                 const std::vector<std::pair<std::string, std::string>>& pages, const Level& lv) {
  int64_t open = 0;
  for (const auto& d : in.decisions) open += d.status.empty() || d.status == "open";
  std::string out = "# " + OneLine(in.key, 100) + " memory\n\n";
  out += "Distilled by lore from " + Plural(in.raw_records, "raw record", "raw records") + " (" +
         Plural(in.reviews, "review", "reviews") + ", " +
         Plural(in.slicing, "slicing outcome", "slicing outcomes") + "), " +
         Plural(static_cast<int64_t>(in.learnings.size()), "learning", "learnings") + " and " +
         Plural(open, "open decision", "open decisions") + ".\n";
  if (!pages.empty() || !in.other_pages.empty()) {
    out += "\n## Pages\n\n";
    for (const auto& [file, line] : pages) out += "- " + line + "\n";
    for (size_t i = 0; i < in.other_pages.size() && i < lv.other_pages; ++i) {
      out += "- [" + OneLine(in.other_pages[i], 60) + "](" + in.other_pages[i] + ")\n";
    }
    if (in.other_pages.size() > lv.other_pages) {
      out += "- and " + std::to_string(in.other_pages.size() - lv.other_pages) +
             " more pages in this folder\n";
    }
  }
  if (lv.summary_lines > 0 && !in.summary_lines.empty()) {
    out += "\n## Summary\n\n";
    size_t shown = 0;
    for (const auto& line : in.summary_lines) {
      if (line[0] == '#') continue;  // headings of the summary itself
      if (shown++ == lv.summary_lines) break;
      out += OneLine(line, lv.chars) + "\n";
    }
  }
  if (lv.gotchas > 0 && !gotchas.empty()) {
    out += "\n## Top gotchas\n\n";
    for (size_t i = 0; i < gotchas.size() && i < lv.gotchas; ++i) {
      const Gotcha& g = gotchas[i];
      std::string meta = g.severity;
      if (g.count > 1) meta += (meta.empty() ? "" : "; ") + std::to_string(g.count) + " times";
      std::string line = OneLine(g.text, lv.chars);
      if (!meta.empty()) line += " (" + meta + ")";
      out += "- " + line + "\n";
    }
  }
  if (lv.recent_outcomes > 0 && !in.outcomes.empty()) {
    out += "\n## Slicing\n\n- " +
           Plural(static_cast<int64_t>(in.outcomes.size()), "outcome", "outcomes") + ":";
    auto counts = VerdictCounts(in.outcomes);
    for (size_t i = 0; i < counts.size() && i < 6; ++i) {
      out +=
          (i ? ", " : " ") + OneLine(counts[i].first, 30) + " " + std::to_string(counts[i].second);
    }
    if (counts.size() > 6) out += ", …";
    out += "\n";
    size_t shown = 0;
    for (auto it = in.outcomes.rbegin(); it != in.outcomes.rend() && shown < lv.recent_outcomes;
         ++it, ++shown) {
      std::string line = (it->date.empty() ? "" : it->date + " ") +
                         (it->ticket.empty() ? "" : it->ticket + " ") + it->verdict;
      if (!it->reason.empty()) line += ": " + it->reason;
      out += "- " + OneLine(line, lv.chars) + "\n";
    }
  }
  if (lv.decisions > 0 && open > 0) {
    std::vector<const MemoryRecord*> list;
    for (const auto& d : in.decisions) {
      if (d.status.empty() || d.status == "open") list.push_back(&d);
    }
    std::stable_sort(list.begin(), list.end(), [](const MemoryRecord* a, const MemoryRecord* b) {
      if (a->updated != b->updated) return a->updated > b->updated;
      return a->slug < b->slug;
    });
    out += "\n## Open decisions\n\n";
    for (size_t i = 0; i < list.size() && i < lv.decisions; ++i) {
      out += "- " + OneLine(list[i]->title, lv.chars) + "\n";
    }
  }
  return out;
}

size_t Lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

std::string IndexPage(const Inputs& in, const std::vector<Gotcha>& gotchas,
                      const std::vector<std::pair<std::string, std::string>>& pages) {
  std::vector<std::string> tags;
  if (!gotchas.empty()) tags.push_back("gotchas");
  if (!in.learnings.empty()) tags.push_back("learnings");
  for (const auto& [file, what] : pages) {
    if (file == "decisions.md") tags.push_back("decisions");
    if (file == "request-types.md") tags.push_back("requests");
    if (file == "slicing-outcomes.md") tags.push_back("slicing");
  }
  std::sort(tags.begin(), tags.end());
  std::string head =
      Frontmatter(OneLine(in.key, 100) + " memory", UpdatedDate(in, in.newest.All()), tags);
  if (Empty(in) && in.other_pages.empty()) return head;
  std::string page;
  for (const Level& lv : kLevels) {
    page = head + Body(in, gotchas, pages, lv);
    if (Lines(page) <= kIndexMaxLines && page.size() <= kIndexMaxBytes) return page;
  }
  // Unreachable in practice: the last level holds at most a dozen short lines.
  std::string cut = page.substr(0, kIndexMaxBytes);
  return cut.substr(0, cut.rfind('\n') + 1);
}

}  // namespace lore::distill
