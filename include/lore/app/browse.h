// The page's views (`lore serve`, docs/serve.md): each view of a store as one
// JSON value the web front end renders, read from the store's files when
// asked for. The changes a person makes there are lore/app/curate.h. Nothing
// here knows HTTP.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// The page's per-run token: 32 random bytes as 64 hex digits.
std::string NewPageToken();
// True when `given` is `token`, compared in time independent of where they
// differ.
bool SameToken(std::string_view given, std::string_view token);

// A change's body: one JSON object (lore's bounded reader, 1 MiB, depth 16),
// else an error saying so.
Result<Json> ParseChange(std::string_view body);

// Markdown to an HTML fragment whose raw HTML is escaped: handed in by
// lore-serve, which links the renderer (md4c); empty: no "html" is added.
using MarkdownToHtml = std::function<std::string(std::string_view)>;

// {"repo", "store", "briefing": {"text", "chars", "html"}, "counts":
// {"decisions", "requests", "knowledge", "learnings", "sessions", "pending"}}:
// the briefing is what the next session start will be told ("html": its
// Markdown rendered by `markdown`).
Result<Json> OverviewJson(const store::Store& store, const std::string& repo,
                          const MarkdownToHtml& markdown = {});

// {"consolidation": <lore status --json>, "check": <CheckJson>}; `check` is
// handed in, since checking a large store takes longer than a status read.
Result<Json> WatchJson(const store::Store& store, const Json& check);
// {"ok", "problems": [one line each], "warnings": [...]}: `lore check`.
Json CheckJson(const store::Store& store);

// The records of one kind ("decision", "request", "knowledge", "workflow",
// "summary"), most recently written first, `limit` of them from `offset`:
// {"total", "offset", "items": [{"id", "kind", "slug", "title", "status",
// "replaced_by", "created_at", "updated_at", "size", "sources":
// [{"session_id", "lines": [a, b], "id"}], "issues", "usage"}]}.
Result<Json> RecordsJson(const store::Store& store, std::string_view kind, int64_t offset,
                         int64_t limit);

// One item by its id (recall::Open's rule: nothing outside the store's
// searchable files), not counted as used: a person looked, not the agent.
// {"id", "file", "line", "text", "editable", "kind", "slug", "usage"}; a
// Markdown file also {"frontmatter": its YAML, "html": its body rendered by
// `markdown`}. A record's source ("sessions/<stem>.jsonl#<from>-<to>") is the
// session log's events of those transcript lines as a conversation: "text"
// as a person reads it and "turns": [{"who": "person" | "agent" | "tool call"
// | "tool result" | "compaction" | "interrupt", "line", "at", "text", "tool",
// "note", "status", "exit", "reason"}] (the keys that apply).
Result<Json> ItemJson(const store::Store& store, std::string_view id,
                      const MarkdownToHtml& markdown = {});

// {"items": [{"id", "subject", "type", "text", "confidence", "occurrences",
// "live", "expires_at", "usage"}]}, newest first.
Result<Json> LearningsJson(const store::Store& store, text::TimePoint now);

// The session logs as a timeline, newest first (by the time of a log's first
// line, then its file name), a page at a time: {"total", "next", "items":
// [{"id", "session_id", "started_at", "ended_at", "task", "outcome",
// "outcomes", "files", "failures", "unresolved"}]}. `after` is "" for the
// first page, else the "next" of the page before (null after the last page);
// `limit` from 1 to kMaxSessionPage. Only the rows of the page are read
// whole; the others, their first and last lines. kInvalidInput for a cursor
// or limit that is not one.
inline constexpr int64_t kSessionPage = 50;
inline constexpr int64_t kMaxSessionPage = 500;
Result<Json> SessionsJson(const store::Store& store, std::string_view after, int64_t limit);

// {"weeks": [{"week", "sessions", "failures", "lessons"}] (ISO weeks, oldest
// first), "files": [{"path", "edits", "sessions"}] (15, most edited first)}.
Result<Json> ActivityJson(const store::Store& store);

// `lore search --json` as the page asks it: {"hits": [<hit>], "warnings"},
// each hit with "explain" when asked, and then "why": the score in words, one
// sentence per part that counted (which of the query's words it holds and
// where: title or text; related words; its neighbours; its session; a
// name; a time; kept learning), largest first; `scope` "all" or one of lore
// search's scopes. Replaced records and expired learnings are left out, as
// by default. Excerpts never show a record's frontmatter.
Result<Json> SearchJson(const store::Store& store, const std::string& query,
                        const std::string& scope, bool explain, int limit, text::TimePoint now);

// {"pending", "batch": [{"id", "subject", "type", "text", "why",
// "proposed_at"}]}: the next batch of at most four, oldest first.
Result<Json> ReviewBatchJson(const store::Store& store);

}  // namespace lore::app
