// The record model: one Markdown file with YAML frontmatter per record
// (docs/records.md). Parsing keeps the file's exact bytes so that an
// unchanged record renders back byte for byte; a changed one is re-emitted
// by lore's own emitter (doc/yaml_emit.h) in a fixed key order, with the body
// untouched. See docs/records.md.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/doc/kind.h"
#include "lore/error.h"
#include "lore/text/time.h"

namespace lore::doc {

// An inclusive range of session-log entries, `[from, to]` in YAML.
struct Range {
  uint64_t from = 0;
  uint64_t to = 0;
  bool operator==(const Range&) const = default;
};

// `{session_id, range: [from, to]}`: where a record's content came from,
// copied mechanically from a staged entry. `segment_id` (the key yoi later
// used) is read as session_id; lore writes session_id.
struct Source {
  std::string session_id;
  Range range;
  bool operator==(const Source&) const = default;
};

// A frontmatter key lore does not interpret (or one whose value did not have
// the expected type), kept with its original text: the key line and its
// continuation lines, each ending in a newline.
struct RawEntry {
  std::string key;
  std::string text;
  bool operator==(const RawEntry&) const = default;
};

// Every frontmatter field lore knows. Which keys a kind uses: KnownKeys().
// Unset optionals are absent from the file; defaults (model_invokation false,
// user_invocable true, requires []) are the linter's business, not the
// parser's, so that absence survives a round trip.
struct Fields {
  std::optional<std::string> created_at;  // RFC 3339, as written
  std::optional<std::string> updated_at;  // RFC 3339, as written
  std::optional<std::string> kind;        // knowledge: free text (rule, policy, ...)
  std::optional<std::string> description;
  std::optional<std::string> status;       // open | resolved | replaced
  std::optional<std::string> replaced_by;  // a slug of the same kind
  std::optional<bool> model_invokation;    // (sic: the original key)
  std::optional<bool> auto_invoke;
  std::optional<bool> user_invocable;
  std::optional<std::vector<std::string>> requirements;  // YAML key `requires`
  std::optional<Range> last_rewritten_from_range;
  std::optional<std::vector<Source>> sources;
  std::optional<std::vector<Source>> last_sources;
  std::vector<RawEntry> extra;  // other keys, in file order
  bool operator==(const Fields&) const = default;
};

// A problem with one frontmatter key found while parsing. The key's text is
// kept in Fields::extra.
enum class IssueType {
  kIllTyped,      // a known key whose value has the wrong type
  kDuplicateKey,  // a key given twice (the first one counts)
  kBadKey,        // a key that is not text
};

struct Issue {
  IssueType type = IssueType::kIllTyped;
  std::string field;
  int64_t line = 0;  // 1-based line in the file
  std::string message;
  std::string repair;
};

struct Record {
  Kind kind = Kind::kDecision;
  Fields fields;
  std::string body;  // everything after the closing "---" line, as is

  // Filled by ParseRecord:
  std::vector<Issue> issues;
  std::map<std::string, int64_t> lines;  // frontmatter key -> its 1-based line
  int64_t body_line = 0;
  std::string preamble;       // comment lines before the first key
  std::string original_head;  // the file's bytes up to the body
  Fields original_fields;     // what original_head parsed to
};

// The keys `kind` interprets, in the order the emitter writes them.
const std::vector<std::string_view>& KnownKeys(Kind kind);
bool IsKnownKey(Kind kind, std::string_view key);

// Parses `text` (the file `path`, named in errors) as a record of `kind`.
// Errors (code kCorrupt, naming the file's line): no frontmatter, invalid
// UTF-8, YAML that does not parse, a top level that is not a mapping.
// Ill-typed fields are not errors here: they land in Record::issues.
Result<Record> ParseRecord(Kind kind, std::string_view text, const std::string& path);

// The file's bytes: exactly the parsed text when the fields are unchanged
// (whatever happened to the body), else "---\n" + EmitFields + "---\n" + body.
std::string RenderRecord(const Record& record);

// Removes private spans and secrets from every frontmatter key and value of
// `record` and from its body, as from every text that reaches a store
// (docs/secrets.md): a text field, a `requires` element, a source's
// session_id and every string inside the value of a key lore does not
// interpret are cleaned with their key's name (redact::CleanNamedValue: a
// high-entropy value of a secret's name, `api_key: …`, is one secret); a key
// lore does not interpret as a text (one cleaned like another key gets "~2",
// "~3", …); the comment lines before the first key one by one; the body as
// one text. A frontmatter that changed, or whose text holds a secret only
// in a comment, is written again by lore's emitter (RenderRecord; comments
// between keys dropped). Returns whether anything changed. Every writer of
// records (memory::Write, EditText, Edit and Replace; the model's
// memory_write and memory_edit) calls it before the linter.
bool CleanRecord(Record& record);

// A new record of `kind` with the fields lore fills itself: created_at and
// updated_at = `now` (summary: updated_at only), decision status open,
// sources [] (decision, request), and for knowledge model_invokation false,
// user_invocable true, last_sources []. Body empty.
Record NewRecord(Kind kind, text::TimePoint now);

// Sets frontmatter key `key` from the YAML text `yaml` ("true", "[a, b]",
// "{session_id: s, range: [1, 2]}", ...). Known keys are type-checked (an
// Error of code kInvalidInput says what is expected); other keys are kept as
// raw entries. `key` is any one line of UTF-8 text without control
// characters or surrounding blanks (what the parser reads back as itself).
// A value of more than one line is refused (kInvalidInput), here and in
// SetFieldText: frontmatter values are one line.
Status SetFieldYaml(Record& record, std::string_view key, std::string_view yaml);
// Sets a text-valued key (created_at, updated_at, kind, description, status,
// replaced_by, or any unknown key) to `text` taken literally, quoted as needed.
Status SetFieldText(Record& record, std::string_view key, std::string_view text);
// True when `key` holds text for `kind` (SetFieldText applies to it).
bool IsTextKey(Kind kind, std::string_view key);
// The value of the text key `key` in `fields`; nullptr when `key` is not a
// text key (created_at, updated_at, kind, description, status, replaced_by).
const std::optional<std::string>* TextValue(const Fields& fields, std::string_view key);
// True when the known key `key` has a typed value in `fields`.
bool HasValue(const Fields& fields, std::string_view key);
// Removes `key` from the frontmatter (no error when absent).
void UnsetField(Record& record, std::string_view key);

}  // namespace lore::doc
