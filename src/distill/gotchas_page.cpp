// gotchas.md: review findings grouped by their text.
#include <algorithm>
#include <map>

#include "distill/markdown.h"
#include "distill/pages.h"
#include "distill/record_fields.h"

namespace lore::distill {
namespace {

constexpr size_t kMaxGotchas = 100;
constexpr size_t kMaxTickets = 5;
constexpr size_t kMaxFiles = 5;
constexpr size_t kMaxFragileFiles = 20;

void AddUnique(std::vector<std::string>* v, const std::string& s) {
  if (!s.empty() && std::find(v->begin(), v->end(), s) == v->end()) v->push_back(s);
}

std::string Joined(const std::vector<std::string>& v, size_t max, bool code) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < max; ++i) {
    if (i) out += ", ";
    out += code ? Code(v[i]) : OneLine(v[i], 60);
  }
  if (v.size() > max) out += " and " + std::to_string(v.size() - max) + " more";
  return out;
}

}  // namespace

std::vector<Gotcha> GroupFindings(const std::vector<Finding>& findings) {
  std::map<std::string, Gotcha> groups;
  for (const auto& f : findings) {
    Gotcha& g = groups[GroupKey(f.text)];
    if (g.count++ == 0) {
      g.text = f.text;
      g.first_date = f.date;
    }
    if (!f.lesson.empty()) g.lesson = f.lesson;  // the latest lesson wins
    if (SeverityRank(f.severity) > SeverityRank(g.severity)) g.severity = f.severity;
    if (!f.date.empty()) g.last_date = std::max(g.last_date, f.date);
    if (g.first_date.empty() || (!f.date.empty() && f.date < g.first_date)) g.first_date = f.date;
    g.last_line = std::max(g.last_line, f.line);
    AddUnique(&g.tickets, f.ticket);
    for (const auto& file : f.files) AddUnique(&g.files, file);
  }
  std::vector<Gotcha> out;
  for (auto& [key, g] : groups) out.push_back(std::move(g));
  std::stable_sort(out.begin(), out.end(), [](const Gotcha& a, const Gotcha& b) {
    int ra = SeverityRank(a.severity), rb = SeverityRank(b.severity);
    if (ra != rb) return ra > rb;
    if (a.count != b.count) return a.count > b.count;
    return a.last_line > b.last_line;
  });
  return out;
}

std::string GotchasPage(const Inputs& in, const std::vector<Gotcha>& gotchas) {
  if (gotchas.empty()) return {};
  std::string out =
      Frontmatter("Gotchas", UpdatedDate(in, in.newest.reviews), {"gotchas", "review"});
  out += "# Gotchas\n\n";
  auto n = [](size_t k, const char* one, const char* many) {
    return std::to_string(k) + (k == 1 ? one : many);
  };
  out += n(in.findings.size(), " finding", " findings") + " from " +
         n(static_cast<size_t>(in.reviews), " review", " reviews") + ", grouped into " +
         n(gotchas.size(), " gotcha", " gotchas") +
         ", most severe and most frequent first. Back to [the index](index.md).\n\n";
  size_t shown = std::min(gotchas.size(), kMaxGotchas);
  for (size_t i = 0; i < shown; ++i) {
    const Gotcha& g = gotchas[i];
    std::string meta;
    if (!g.severity.empty()) meta += g.severity + "; ";
    meta += g.count == 1 ? "seen once" : "seen " + std::to_string(g.count) + " times";
    if (!g.last_date.empty()) meta += g.count == 1 ? ", " + g.last_date : ", last " + g.last_date;
    if (!g.tickets.empty()) meta += "; " + Joined(g.tickets, kMaxTickets, false);
    out += "- **" + OneLine(g.text, 300) + "** (" + meta + ")\n";
    if (!g.lesson.empty()) out += "  - Lesson: " + OneLine(g.lesson, 400) + "\n";
    if (!g.files.empty()) out += "  - Files: " + Joined(g.files, kMaxFiles, true) + "\n";
  }
  if (gotchas.size() > shown) {
    out += "\n" + std::to_string(gotchas.size() - shown) +
           " more gotchas are not shown (the least severe and least frequent).\n";
  }
  std::map<std::string, int64_t> per_file;
  for (const auto& f : in.findings) {
    for (const auto& file : f.files) ++per_file[file];
  }
  std::vector<std::pair<std::string, int64_t>> fragile;
  for (const auto& [file, n] : per_file) {
    if (n >= 2) fragile.emplace_back(file, n);
  }
  std::stable_sort(fragile.begin(), fragile.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (!fragile.empty()) {
    out += "\n## Files named in several findings\n\n";
    for (size_t i = 0; i < fragile.size() && i < kMaxFragileFiles; ++i) {
      out +=
          "- " + Code(fragile[i].first) + ": " + std::to_string(fragile[i].second) + " findings\n";
    }
  }
  if (in.reviews_without_finding > 0) {
    out += "\n" +
           n(static_cast<size_t>(in.reviews_without_finding), " review record names",
             " review records name") +
           " no finding (lore reads fields such as finding, summary, title or a findings list).\n";
  }
  return out;
}

}  // namespace lore::distill
