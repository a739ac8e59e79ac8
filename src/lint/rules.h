// Internal to lore::lint: the rule groups LintRecord runs.
#pragma once

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

// Rules on the target alone: the slug, writes to memory/workflow/, creating
// an existing slug, near-duplicate slugs. `near`, when given, holds the
// slugs of the same kind within edit distance 2 (see NearSlugs); else they
// are found in `view`.
void CheckTarget(const Target& target, const StoreView& view, Report& out,
                 const std::vector<std::string>* near = nullptr);

// Every slug of `kind` in `view` mapped to the other slugs of that kind
// within edit distance 2 (each pair compared once), sorted.
std::map<std::string, std::vector<std::string>, std::less<>> NearSlugs(const StoreView& view,
                                                                       doc::Kind kind);

// LintParsed with `near` as in CheckTarget; the second form lints `record`,
// or reports `parse_error` when that is given instead.
Report LintWith(const Target& target, const doc::Record* record, const Error* parse_error,
                const StoreView& view, const std::vector<std::string>* near);
Report LintWith(const Target& target, const Result<doc::Record>& parsed, const StoreView& view,
                const std::vector<std::string>* near);
// Rules on the frontmatter fields and the body: parse issues, required
// fields, times, status, description and body sizes, source warnings.
void CheckFields(const Ctx& c);
// Rules on references: replaced_by and requires name existing records,
// no replaced_by cycle, status and replaced_by agree.
void CheckReferences(const Ctx& c);

// A valid slug close to `slug` (lower-cased, other characters as '-').
std::string SuggestSlug(std::string_view slug);

}  // namespace lore::lint::detail
