// slicing-outcomes.md: verdict counts, recent reasons, verdicts by trait.
#include <algorithm>
#include <map>

#include "distill/markdown.h"
#include "distill/pages.h"

namespace lore::distill {
namespace {

constexpr size_t kRecentPerVerdict = 5;
constexpr size_t kMaxTraits = 20;

// "split 3, keep 1" for a verdict -> count map, most frequent first.
std::string VerdictMix(const std::map<std::string, int64_t>& counts) {
  std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (const auto& [verdict, n] : v) {
    if (!out.empty()) out += ", ";
    out += Cell(verdict, 40) + " " + std::to_string(n);
  }
  return out;
}

std::string OutcomeLine(const SlicingOutcome& o) {
  std::string head;
  if (!o.date.empty()) head += o.date + " ";
  if (!o.ticket.empty()) head += o.ticket + " ";
  std::vector<std::string> meta;
  if (!o.depth.empty()) meta.push_back("depth " + o.depth);
  std::string verbs;
  for (const auto& v : o.verbs) verbs += (verbs.empty() ? "" : ", ") + v;
  if (!verbs.empty()) meta.push_back(verbs);
  std::string line = "- " + OneLine(head, 100);
  if (!meta.empty()) {
    line += line.size() > 2 ? " (" : "(";
    for (size_t i = 0; i < meta.size(); ++i) line += (i ? "; " : "") + meta[i];
    line += ")";
  }
  std::string reason = o.reason.empty() ? "no reason given" : OneLine(o.reason, 300);
  return line + (line.size() > 2 ? ": " : "") + reason + "\n";
}

}  // namespace

std::vector<std::pair<std::string, int64_t>> VerdictCounts(const std::vector<SlicingOutcome>& o) {
  std::map<std::string, int64_t> counts;
  for (const auto& s : o) ++counts[s.verdict];
  std::vector<std::pair<std::string, int64_t>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

std::string SlicingPage(const Inputs& in) {
  if (in.outcomes.empty()) return {};
  const auto total = static_cast<int64_t>(in.outcomes.size());
  std::string out =
      Frontmatter("Slicing outcomes", UpdatedDate(in, in.newest.slicing), {"slicing"});
  out += "# Slicing outcomes\n\n" + std::to_string(total) +
         (total == 1 ? " slicing outcome recorded." : " slicing outcomes recorded.") +
         " Back to [the index](index.md).\n\n";
  out += "## Verdicts\n\n| verdict | count | share |\n|---|---:|---:|\n";
  auto counts = VerdictCounts(in.outcomes);
  for (const auto& [verdict, n] : counts) {
    out +=
        "| " + Cell(verdict, 40) + " | " + std::to_string(n) + " | " + Percent(n, total) + " |\n";
  }
  out += "\n## Recent reasons\n";
  for (const auto& [verdict, n] : counts) {
    out += "\n### " + OneLine(verdict, 40) + "\n\n";
    size_t shown = 0;
    for (auto it = in.outcomes.rbegin(); it != in.outcomes.rend() && shown < kRecentPerVerdict;
         ++it) {
      if (it->verdict != verdict) continue;
      out += OutcomeLine(*it);
      ++shown;
    }
  }
  std::map<std::string, std::map<std::string, int64_t>> by_trait;
  std::map<std::string, int64_t> trait_total;
  for (const auto& o : in.outcomes) {
    for (const auto& t : o.traits) {
      ++by_trait[t][o.verdict];
      ++trait_total[t];
    }
  }
  if (!by_trait.empty()) {
    std::vector<std::pair<std::string, int64_t>> traits(trait_total.begin(), trait_total.end());
    std::stable_sort(traits.begin(), traits.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out += "\n## By trait\n\n| trait | outcomes | verdicts |\n|---|---:|---|\n";
    for (size_t i = 0; i < traits.size() && i < kMaxTraits; ++i) {
      out += "| " + Cell(traits[i].first, 60) + " | " + std::to_string(traits[i].second) + " | " +
             VerdictMix(by_trait[traits[i].first]) + " |\n";
    }
    if (traits.size() > kMaxTraits) {
      out += "\n" + std::to_string(traits.size() - kMaxTraits) + " rarer traits are not shown.\n";
    }
  }
  return out;
}

}  // namespace lore::distill
