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
// an existing slug, near-duplicate slugs.
void CheckTarget(const Target& target, const StoreView& view, Report& out);
// Rules on the frontmatter fields and the body: parse issues, required
// fields, times, status, description and body sizes, source warnings.
void CheckFields(const Ctx& c);
// Rules on references: replaced_by and requires name existing records,
// no replaced_by cycle, status and replaced_by agree.
void CheckReferences(const Ctx& c);

// A valid slug close to `slug` (lower-cased, other characters as '-').
std::string SuggestSlug(std::string_view slug);

}  // namespace lore::lint::detail
