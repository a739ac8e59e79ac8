#include "lore/lint/lint.h"

#include <algorithm>
#include <array>

#include "lint/rules.h"
#include "doc/slug.h"
#include "lore/text/edit_distance.h"

namespace lore::lint {

bool StoreView::Has(doc::Kind kind, std::string_view slug) const {
  return Find(kind, slug) != nullptr;
}

const RecordRef* StoreView::Find(doc::Kind kind, std::string_view slug) const {
  const auto& m = records[doc::KindIndex(kind)];
  auto it = m.find(slug);
  return it == m.end() ? nullptr : &it->second;
}

void StoreView::Add(doc::Kind kind, std::string slug, RecordRef ref) {
  records[doc::KindIndex(kind)].insert_or_assign(std::move(slug), std::move(ref));
}

namespace detail {
namespace {

Finding Make(Severity s, const Target& t, std::string rule, std::string field, int64_t line,
             std::string message, std::string repair) {
  return Finding{
      s, std::move(rule), t.path, line, std::move(field), std::move(message), std::move(repair)};
}

// Letter counts: edit distance d changes them by at most 2d in total, a cheap
// filter before the real distance.
using Histogram = std::array<uint8_t, 37>;

Histogram Count(std::string_view s) {
  Histogram h{};
  for (char c : s) {
    size_t i = c >= 'a' && c <= 'z' ? c - 'a' : c >= '0' && c <= '9' ? 26 + (c - '0') : 36;
    ++h[i];
  }
  return h;
}

bool MaybeClose(const Histogram& a, std::string_view b, size_t limit) {
  Histogram hb = Count(b);
  size_t diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff += a[i] > hb[i] ? a[i] - hb[i] : hb[i] - a[i];
  return diff <= 2 * limit;
}

bool Near(std::string_view a, const Histogram& ha, std::string_view b) {
  size_t len_diff = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (len_diff > kSimilarSlugDistance || !MaybeClose(ha, b, kSimilarSlugDistance)) return false;
  return text::EditDistance(a, b, kSimilarSlugDistance) <= kSimilarSlugDistance;
}

std::vector<std::string> FindNear(const Target& t, const StoreView& view) {
  const Histogram mine = Count(t.slug);
  std::vector<std::string> near;
  for (const auto& [slug, ref] : view.records[doc::KindIndex(t.kind)]) {
    if (slug != t.slug && Near(t.slug, mine, slug)) near.push_back(slug);
  }
  return near;
}

// "'a', 'b' and 'c'", naming at most five.
std::string QuotedList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 5;
  size_t shown = std::min(names.size(), kShown);
  std::string list;
  for (size_t i = 0; i < shown; ++i) {
    bool last = i + 1 == shown && names.size() <= kShown;
    list += (i == 0 ? "'" : last ? " and '" : ", '") + names[i] + "'";
  }
  if (names.size() > kShown) list += " and " + std::to_string(names.size() - kShown) + " more";
  return list;
}

void CheckSimilarSlugs(const Target& t, const std::vector<std::string>& near, Report& out) {
  if (near.size() + 1 < kSimilarSlugCluster) return;
  out.Add(Make(Severity::kWarning, t, "similar-slugs", "", 0,
               "slug '" + t.slug + "' is within edit distance 2 of " + QuotedList(near),
               "merge near-duplicates into one record (mark the others status: replaced with "
               "replaced_by), or give them clearly different slugs"));
}

}  // namespace

void Ctx::Error(std::string rule, std::string field, int64_t line, std::string message,
                std::string repair) const {
  out.Add(Make(Severity::kError, target, std::move(rule), std::move(field), line,
               std::move(message), std::move(repair)));
}

void Ctx::Warn(std::string rule, std::string field, int64_t line, std::string message,
               std::string repair) const {
  out.Add(Make(Severity::kWarning, target, std::move(rule), std::move(field), line,
               std::move(message), std::move(repair)));
}

int64_t Ctx::LineOf(std::string_view key) const {
  auto it = record.lines.find(std::string(key));
  return it == record.lines.end() ? 0 : it->second;
}

std::string SuggestSlug(std::string_view slug) {
  std::string out;
  for (char c : slug) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (ok) {
      out += c;
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  if (out.size() > doc::kMaxSlugLength) out.resize(doc::kMaxSlugLength);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "record" : out;
}

std::map<std::string, std::vector<std::string>, std::less<>> NearSlugs(const StoreView& view,
                                                                       doc::Kind kind) {
  std::vector<std::string_view> slugs;
  std::vector<Histogram> hists;
  for (const auto& [slug, ref] : view.records[doc::KindIndex(kind)]) {
    slugs.push_back(slug);
    hists.push_back(Count(slug));
  }
  std::vector<std::vector<size_t>> near(slugs.size());
  for (size_t i = 0; i < slugs.size(); ++i) {
    for (size_t j = i + 1; j < slugs.size(); ++j) {
      if (Near(slugs[i], hists[i], slugs[j])) {
        near[i].push_back(j);
        near[j].push_back(i);
      }
    }
  }
  std::map<std::string, std::vector<std::string>, std::less<>> out;
  for (size_t i = 0; i < slugs.size(); ++i) {
    std::sort(near[i].begin(), near[i].end());
    auto& names = out[std::string(slugs[i])];
    for (size_t j : near[i]) names.emplace_back(slugs[j]);
  }
  return out;
}

void CheckTarget(const Target& t, const StoreView& view, Report& out,
                 const std::vector<std::string>* near) {
  const std::string kind(doc::KindName(t.kind));
  if (t.kind == doc::Kind::kSummary && t.slug != doc::kSummarySlug) {
    out.Add(Make(Severity::kError, t, "bad-slug", "", 0,
                 "the summary's slug is 'summary', not '" + t.slug + "'",
                 "use the slug 'summary' (the file memory/summary.md)"));
  } else if (!doc::IsValidSlug(t.slug)) {
    out.Add(Make(Severity::kError, t, "bad-slug", "", 0, "slug '" + t.slug + "' is not valid",
                 "use " + std::string(doc::kSlugRule) + ", e.g. '" + SuggestSlug(t.slug) + "'"));
  }
  if (t.kind == doc::Kind::kWorkflow && t.op != Op::kCheck) {
    out.Add(Make(Severity::kError, t, "workflow-write", "", 0,
                 "memory/workflow/ is written by people only; lore refuses to write it",
                 "edit the workflow file by hand, or write a knowledge page instead"));
  }
  if (t.op == Op::kCreate && view.Has(t.kind, t.slug)) {
    out.Add(Make(Severity::kError, t, "slug-exists", "", 0,
                 "a " + kind + " named '" + t.slug + "' already exists",
                 "update it with 'lore memory edit' instead, or choose another slug"));
  }
  if (t.kind != doc::Kind::kSummary && doc::IsValidSlug(t.slug)) {
    CheckSimilarSlugs(t, near ? *near : FindNear(t, view), out);
  }
}

Report LintWith(const Target& target, const doc::Record* record, const Error* parse_error,
                const StoreView& view, const std::vector<std::string>* near) {
  Report out;
  CheckTarget(target, view, out, near);
  if (parse_error) {
    out.Add(Finding{Severity::kError, "frontmatter", target.path, parse_error->line, "",
                    parse_error->what, parse_error->repair});
    return out;
  }
  Ctx c{target, *record, view, out};
  CheckFields(c);
  CheckReferences(c);
  return out;
}

Report LintWith(const Target& target, const Result<doc::Record>& parsed, const StoreView& view,
                const std::vector<std::string>* near) {
  return parsed ? LintWith(target, &*parsed, nullptr, view, near)
                : LintWith(target, nullptr, &parsed.error(), view, near);
}

}  // namespace detail

Report LintRecord(const Target& target, const doc::Record& record, const StoreView& view) {
  return detail::LintWith(target, &record, nullptr, view, nullptr);
}

Report LintParsed(const Target& target, const Result<doc::Record>& parsed, const StoreView& view) {
  return detail::LintWith(target, parsed, view, nullptr);
}

Report LintText(const Target& target, std::string_view text, const StoreView& view) {
  return LintParsed(target, doc::ParseRecord(target.kind, text, target.path), view);
}

}  // namespace lore::lint
