// request-types.md, decisions.md and learnings.md.
#include <algorithm>
#include <map>

#include "distill/markdown.h"
#include "distill/pages.h"

namespace lore::distill {
namespace {

constexpr size_t kRequestsPerType = 10;
constexpr size_t kMaxVerbs = 30;

bool IsOpen(const MemoryRecord& r) { return r.status.empty() || r.status == "open"; }

// Newest first, then by slug.
void SortByUpdated(std::vector<const MemoryRecord*>* v) {
  std::stable_sort(v->begin(), v->end(), [](const MemoryRecord* a, const MemoryRecord* b) {
    if (a->updated != b->updated) return a->updated > b->updated;
    return a->slug < b->slug;
  });
}

std::string RecordLine(const MemoryRecord& r) {
  std::string line = "- " + Code(r.slug);
  if (!r.updated.empty()) line += " (updated " + r.updated + ")";
  std::string text = r.title;
  if (!r.excerpt.empty() && r.excerpt != r.title) text += ". " + r.excerpt;
  if (!text.empty()) line += ": " + OneLine(text, 300);
  return line + "\n";
}

}  // namespace

std::optional<text::TimePoint> Newest::All() const {
  std::optional<text::TimePoint> all;
  for (const auto* t : {&reviews, &slicing, &learnings, &decisions, &requests, &summary}) {
    if (*t && (!all || **t > *all)) all = *t;
  }
  return all;
}

std::string UpdatedDate(const Inputs& in, const std::optional<text::TimePoint>& topic) {
  if (topic) return text::UtcDate(*topic);
  if (auto all = in.newest.All()) return text::UtcDate(*all);
  if (text::ParseIso(in.previous_updated)) return in.previous_updated;
  return "1970-01-01";
}

std::string RequestTypesPage(const Inputs& in) {
  std::map<std::string, int64_t> verb_total;
  std::map<std::string, std::map<std::string, int64_t>> verb_verdicts;
  for (const auto& o : in.outcomes) {
    for (const auto& v : o.verbs) {
      ++verb_total[v];
      ++verb_verdicts[v][o.verdict];
    }
  }
  if (in.requests.empty() && verb_total.empty()) return {};
  auto newest = in.newest.requests;
  if (!verb_total.empty() && in.newest.slicing && (!newest || *in.newest.slicing > *newest)) {
    newest = in.newest.slicing;
  }
  std::string out = Frontmatter("Request types", UpdatedDate(in, newest), {"requests"});
  out +=
      "# Request types\n\nWhat is asked of this repository, by kind. Back to [the "
      "index](index.md).\n";
  if (!in.requests.empty()) {
    std::map<std::string, std::vector<const MemoryRecord*>> by_type;
    for (const auto& r : in.requests) by_type[r.type].push_back(&r);
    std::vector<std::pair<std::string, size_t>> types;
    for (auto& [type, list] : by_type) {
      SortByUpdated(&list);
      types.emplace_back(type, list.size());
    }
    std::stable_sort(types.begin(), types.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out += "\n## Requests in memory\n\n| type | requests | latest |\n|---|---:|---|\n";
    for (const auto& [type, n] : types) {
      out += "| " + Cell(type, 40) + " | " + std::to_string(n) + " | " +
             Cell(by_type[type].front()->slug, 64) + " |\n";
    }
    for (const auto& [type, n] : types) {
      out += "\n### " + OneLine(type, 40) + "\n\n";
      const auto& list = by_type[type];
      for (size_t i = 0; i < list.size() && i < kRequestsPerType; ++i) out += RecordLine(*list[i]);
      if (list.size() > kRequestsPerType) {
        out += "- and " + std::to_string(list.size() - kRequestsPerType) + " older ones\n";
      }
    }
  }
  if (!verb_total.empty()) {
    std::vector<std::pair<std::string, int64_t>> verbs(verb_total.begin(), verb_total.end());
    std::stable_sort(verbs.begin(), verbs.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out += "\n## Verbs of sliced tickets\n\n| verb | tickets | verdicts |\n|---|---:|---|\n";
    for (size_t i = 0; i < verbs.size() && i < kMaxVerbs; ++i) {
      std::string mix;
      std::vector<std::pair<std::string, int64_t>> v(verb_verdicts[verbs[i].first].begin(),
                                                     verb_verdicts[verbs[i].first].end());
      std::stable_sort(v.begin(), v.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
      for (const auto& [verdict, n] : v)
        mix += (mix.empty() ? "" : ", ") + Cell(verdict, 40) + " " + std::to_string(n);
      out += "| " + Cell(verbs[i].first, 40) + " | " + std::to_string(verbs[i].second) + " | " +
             mix + " |\n";
    }
  }
  return out;
}

std::string DecisionsPage(const Inputs& in) {
  std::vector<const MemoryRecord*> open;
  int64_t resolved = 0, replaced = 0;
  for (const auto& d : in.decisions) {
    if (IsOpen(d)) {
      open.push_back(&d);
    } else if (d.status == "replaced") {
      ++replaced;
    } else {
      ++resolved;
    }
  }
  if (open.empty()) return {};
  SortByUpdated(&open);
  std::string out =
      Frontmatter("Open decisions", UpdatedDate(in, in.newest.decisions), {"decisions"});
  out += "# Open decisions\n\n" + std::to_string(open.size()) +
         (open.size() == 1 ? " open decision (" : " open decisions (") + std::to_string(resolved) +
         " resolved and " + std::to_string(replaced) +
         " replaced are not shown). Back to [the index](index.md).\n";
  for (const MemoryRecord* d : open) {
    out += "\n## " + OneLine(d->title, 120) + "\n\n" + Code(d->slug);
    if (!d->updated.empty()) out += ", updated " + d->updated;
    out += "\n";
    if (!d->excerpt.empty() && d->excerpt != d->title) out += "\n" + d->excerpt + "\n";
  }
  return out;
}

std::string LearningsPage(const Inputs& in) {
  if (in.learnings.empty()) return {};
  std::vector<const Learning*> sorted;
  for (const auto& l : in.learnings) sorted.push_back(&l);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Learning* a, const Learning* b) {
    if (a->type != b->type) return a->type < b->type;
    if (a->created_at != b->created_at) return a->created_at > b->created_at;
    return a->subject < b->subject;
  });
  std::string out = Frontmatter("Learnings", UpdatedDate(in, in.newest.learnings), {"learnings"});
  out += "# Learnings\n\n" + std::to_string(sorted.size()) +
         (sorted.size() == 1 ? " approved learning" : " approved learnings") +
         ", by type. Back to [the index](index.md).\n";
  const std::string* type = nullptr;
  for (const Learning* l : sorted) {
    if (!type || l->type != *type) {
      out += "\n## " + OneLine(l->type, 60) + "\n\n";
      type = &l->type;
    }
    std::vector<std::string> meta;
    if (l->confidence) {
      char buf[32];
      snprintf(buf, sizeof buf, "confidence %.2f", *l->confidence);
      meta.push_back(buf);
    }
    if (!l->files.empty()) {
      std::string files = "files ";
      for (size_t i = 0; i < l->files.size() && i < 5; ++i)
        files += (i ? ", " : "") + Code(l->files[i]);
      meta.push_back(files);
    }
    if (l->expires_at.size() >= 10) meta.push_back("expires " + l->expires_at.substr(0, 10));
    out += "- **" + OneLine(l->subject.empty() ? "(no subject)" : l->subject, 100) + "**";
    if (!meta.empty()) {
      out += " (";
      for (size_t i = 0; i < meta.size(); ++i) out += (i ? "; " : "") + meta[i];
      out += ")";
    }
    out += ": " + OneLine(l->insight, 400) + "\n";
  }
  if (in.learning_parse_errors > 0) {
    out += "\n" + std::to_string(in.learning_parse_errors) +
           (in.learning_parse_errors == 1
                ? " line of learnings.jsonl does not parse and is not shown.\n"
                : " lines of learnings.jsonl do not parse and are not shown.\n");
  }
  return out;
}

}  // namespace lore::distill
