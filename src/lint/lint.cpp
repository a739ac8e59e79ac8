#include "lore/lint/lint.h"

#include <algorithm>
#include <array>

#include "doc/slug.h"
#include "lint/rules.h"

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

// The near slugs of one record, against every slug of its kind in `view`.
Near FindNear(const Target& t, const StoreView& view) {
  const Letters mine = CountLetters(t.slug);
  Near near;
  for (const auto& [slug, ref] : view.records[doc::KindIndex(t.kind)]) {
    if (slug == t.slug || !Similar(t.slug, mine, slug, CountLetters(slug))) continue;
    if (near.count++ < kShownNear) near.first.push_back(slug);
  }
  return near;
}

// "'a', 'b' and 'c'": the first kShownNear of `count` names.
std::string QuotedList(const Near& near) {
  size_t shown = near.first.size();
  std::string list;
  for (size_t i = 0; i < shown; ++i) {
    bool last = i + 1 == shown && near.count <= shown;
    list += (i == 0 ? "'" : last ? " and '" : ", '") + near.first[i] + "'";
  }
  if (near.count > shown) list += " and " + std::to_string(near.count - shown) + " more";
  return list;
}

void CheckSimilarSlugs(const Target& t, const Near& near, Report& out) {
  if (near.count + 1 < kSimilarSlugCluster) return;
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

void CheckTarget(const Target& t, const StoreView& view, Report& out, const Near* near) {
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

Report LintAlone(const Target& target, const doc::Record* record, const Error* parse_error) {
  Report out;
  if (parse_error) {
    out.Add(Finding{Severity::kError, "frontmatter", target.path, parse_error->line, "",
                    parse_error->what, parse_error->repair});
    return out;
  }
  static const StoreView kNoView;  // the field rules read no view
  CheckFields(Ctx{target, *record, kNoView, out});
  return out;
}

Report LintWith(const Target& target, const doc::Record* record, const Error* parse_error,
                const StoreView& view, const Near* near) {
  Report out;
  CheckTarget(target, view, out, near);
  out.Append(LintAlone(target, record, parse_error));
  if (!parse_error) CheckReferences(Ctx{target, *record, view, out});
  return out;
}

Report LintWith(const Target& target, const Result<doc::Record>& parsed, const StoreView& view,
                const Near* near) {
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
