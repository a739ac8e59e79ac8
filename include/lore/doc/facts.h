// What the rest of lore reads from a record's frontmatter without the full
// record model: the facts search indexes and distill renders, read leniently
// (a field of the wrong type is left out, never an error), with every key
// alias in this one place. The YAML is read by the record model's own loader,
// with its guards (docs/records.md): lore parses YAML nowhere else.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/text/time.h"

namespace lore::doc {

struct Facts {
  std::string kind;  // `kind` (a knowledge page's kind, or a record's own)
  // A request's type: the first non-blank of `type`, `intent`, `kind`.
  std::string type;
  std::optional<std::string> description;
  std::string status;
  std::string replaced_by;
  // Who wrote it: the first non-empty of speaker, author, agent,
  // proposed_by_agent, user, by.
  std::string author;
  // When it last changed: the first of updated_at, created_at, updated that
  // is an RFC 3339 time.
  std::optional<text::TimePoint> updated;
  // The session_id of the first entry of `sources`, else of `last_sources`.
  std::string session;
  std::optional<bool> model_invokation;  // (sic: the original key)
  std::string title;                     // an okf page's
  std::vector<std::string> tags;         // an okf page's ("" for one that is not text)
};

// Reads the frontmatter `yaml` (the text between the '---' lines, which start
// at line `yaml_line` of `path`). Errors (code kCorrupt, naming the line): a
// control character, YAML that does not parse, a top level that is not a
// mapping (empty frontmatter has no facts). Never throws.
Result<Facts> ReadFacts(std::string_view yaml, const std::string& path, int64_t yaml_line);

// `value` as the record parser reads it after "KEY: ": the text of a plain or
// quoted YAML scalar, else nullopt (not YAML, null, a list or a mapping).
std::optional<std::string> ScalarText(std::string_view value);

// True when `value` is a flow list or mapping ("[a, b]", "{k: v}") that parses.
bool IsFlowCollection(std::string_view value);

}  // namespace lore::doc
