// Internal to lore::lint: the rule groups LintRecord runs.
#pragma once

#include <array>
#include <cstdint>

#include "lore/lint/lint.h"

namespace lore::lint::detail {

// The record being linted and where findings go.
struct Ctx {
  const Target& target;
  const doc::Record& record;
  const StoreView& view;
  Report& out;

  void Error(std::string rule, std::string field, int64_t line, std::string message,
             std::string repair) const;
  void Warn(std::string rule, std::string field, int64_t line, std::string message,
            std::string repair) const;
  // The line of frontmatter key `key`, 0 when the record has none.
  int64_t LineOf(std::string_view key) const;
};

// How many near slugs a similar-slugs warning names.
inline constexpr size_t kShownNear = 5;

// The other slugs of a record's kind within edit distance 2 of its slug: how
// many, and the first kShownNear of them in slug order.
struct Near {
  size_t count = 0;
  std::vector<std::string> first;
};

// Letter counts of a slug (a-z, 0-9, anything else): edit distance d changes
// them by at most 2d in total, a cheap filter before the real distance.
using Letters = std::array<uint8_t, 37>;
Letters CountLetters(std::string_view s);
// True when slugs `a` and `b` (with their letter counts) are within edit
// distance kSimilarSlugDistance: their lengths, then their letter counts,
// then the distance itself.
bool Similar(std::string_view a, const Letters& la, std::string_view b, const Letters& lb);

// Rules on the target alone: the slug, writes to memory/workflow/, creating
// an existing slug, near-duplicate slugs. `near`, when given, holds the
// slugs of the same kind within edit distance 2 (see NearSlugs); else they
// are found in `view`.
void CheckTarget(const Target& target, const StoreView& view, Report& out,
                 const Near* near = nullptr);

// The slugs of `kind` in `view` that have others of that kind within edit
// distance 2, mapped to those (near.cpp: a walk of the slugs' trie per slug,
// not one comparison per pair).
std::map<std::string, Near, std::less<>> NearSlugs(const StoreView& view, doc::Kind kind);

// LintParsed with `near` as in CheckTarget; the second form lints `record`,
// or reports `parse_error` when that is given instead.
Report LintWith(const Target& target, const doc::Record* record, const Error* parse_error,
                const StoreView& view, const Near* near);
Report LintWith(const Target& target, const Result<doc::Record>& parsed, const StoreView& view,
                const Near* near);
// The findings of LintWith that need no view: the frontmatter error, or the
// rules on the fields; LintWith is CheckTarget, then these, then
// CheckReferences.
Report LintAlone(const Target& target, const doc::Record* record, const Error* parse_error);
// Rules on the frontmatter fields and the body: parse issues, required
// fields, times, status, description and body sizes, source warnings.
void CheckFields(const Ctx& c);
// Rules on references: replaced_by and requires name existing records,
// no replaced_by cycle, status and replaced_by agree.
void CheckReferences(const Ctx& c);

// A valid slug close to `slug` (lower-cased, other characters as '-').
std::string SuggestSlug(std::string_view slug);

}  // namespace lore::lint::detail
