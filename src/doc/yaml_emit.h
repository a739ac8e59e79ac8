// lore's own small YAML emitter for record frontmatter. yaml-cpp parses;
// this writes, so that the output is stable and reads the same in every YAML
// parser (no YAML 1.1 surprises such as `no` becoming false).
//
// Style (docs/records.md): one `key: value` line per scalar; text plain when
// that reads back as the same string, else double-quoted with escapes; lists
// of slugs and ranges in flow style (`[a, b]`, `[3, 17]`); sources as a block
// list of `- session_id: ...` / `  range: [from, to]`; empty lists `[]`.
#pragma once

#include <string>
#include <string_view>

#include "lore/doc/record.h"

namespace lore::doc {

enum class ScalarContext { kBlock, kFlow };

// `s` as a YAML scalar: plain when safe in `context`, else double-quoted.
std::string EmitString(std::string_view s, ScalarContext context = ScalarContext::kBlock);

// The YAML lines for `fields`: known keys in the fixed order of the
// emitter (created_at, updated_at, kind, description, status, replaced_by,
// model_invokation, auto_invoke, user_invocable, requires,
// last_rewritten_from_range, sources, last_sources), then the raw entries
// in their order. A raw entry whose key also has a typed value is skipped.
std::string EmitFields(const Fields& fields);

}  // namespace lore::doc
