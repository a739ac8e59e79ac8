// What the search index holds for one searchable record, and how records are
// read from the store's files (docs/formats.md, docs/proposals.md and docs/records.md).
//
// Every record has the fields that ranking uses: an author, a time, a session
// and a position within that session, whichever its source provides. A file
// whose frontmatter or JSON does not parse is still indexed by its text, with
// null (empty) fields.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lore::index {

// Where a record comes from; also the --scope names. (Stored as numbers in
// index.sqlite: new scopes go at the end.)
enum class Scope { kMemory, kKnowledge, kLearnings, kRaw, kOkf, kSessions };

std::string_view ScopeName(Scope s);
std::optional<Scope> ParseScope(std::string_view name);

struct Record {
  Scope scope = Scope::kRaw;
  std::string file;  // path relative to the store: memory/decisions/x.md, raw.jsonl
  int64_t line = 1;  // 1-based line of the file where `text` starts
  std::string slug;  // file name without ".md"; "raw.jsonl:12" or the learning's id
  std::string kind;  // "decision", a knowledge kind, a capture's kind; empty: null
  std::optional<std::string> description;  // knowledge
  std::optional<bool> model_invokation;    // knowledge (misspelling of the original)
  std::string status;                      // "replaced" hides a record by default
  std::string replaced_by;
  std::string author;           // speaker, author or agent
  std::optional<int64_t> time;  // seconds since the epoch (created/recorded/updated at)
  std::string session;          // session id; empty when none
  int64_t position = 0;         // order within the session (explicit, else the line number)
  // Seconds since the epoch from which the record is hidden unless asked
  // for (a learning's expires_at; 0 when its confidence is 0 or less).
  std::optional<int64_t> expires;
  std::string text;   // the record as shown in excerpts (one or more lines)
  std::string words;  // the text that is searched
};

// A Markdown record (memory, knowledge or okf page) from the whole file `content`.
// `rel` is the path relative to the store; `kind` is the kind implied by the
// folder (empty for knowledge and okf, whose kind comes from the file).
Record FromMarkdown(Scope scope, const std::string& rel, std::string_view kind,
                    std::string_view content);

// The largest line indexed as JSON; a larger one is indexed as its first
// kMaxIndexedLineBytes of plain text.
inline constexpr size_t kMaxIndexedLineBytes = size_t{1} << 20;

// A record from one JSON Lines line (`line_no` is 1-based). Lines that are not
// JSON objects (or too large, see above) are indexed as plain text. A line of
// a session log (scope kSessions, activity/session_log.h) is one turn: what
// the person or the agent said, a tool call or its outcome; a span line and a
// result without text give a record with no words, which is not indexed.
Record FromJsonLine(Scope scope, const std::string& rel, int64_t line_no, std::string_view line);

}  // namespace lore::index
