// Recall at the moment it matters, and the use it is put to (docs/recall.md):
// the prompt-time and file-time hooks, the usage log with its pins, opening
// an item by id (MCP `open`, `lore memory open`), `lore memory stats`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/hook/session.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// `lore hook user-prompt-submit`: the JSON to print (the prompt's context as
// {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":…}}),
// or "" when nothing in memory clears the relevance threshold. What it shows
// is counted in the usage log. `repo` is the checkout (stale paths are judged
// against it).
// The store has no search index until something needs one: the first
// prompt-time or file-time hook finds none, answers nothing and asks for
// `lore reindex <repo>` to be started detached (`reindex`); from then on the
// background extract and consolidation runs keep it up to date.
struct HookAnswer {
  std::string json;  // what the hook prints; empty: nothing
  bool reindex = false;
};
Result<HookAnswer> PromptRecall(const store::Store& store, const hook::Payload& payload,
                                const std::string& repo, text::TimePoint now);

// `lore hook post-tool-use` after a Read, Edit, Write, MultiEdit or
// NotebookEdit: what memory says about the file, once per file per session,
// as {"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":…}};
// "" for any other tool or nothing to say.
Result<HookAnswer> FileRecall(const store::Store& store, const hook::Payload& payload,
                              const std::string& repo, text::TimePoint now);

// After a background run changed the store: the index brought up to date
// when there is one (none is created here; see HookAnswer).
::lore::Status RefreshIndex(const store::Store& store);

// The checkout's code symbols, which stale citations are judged against
// (docs/recall.md): the checkout at `path` (its top folder) and its HEAD
// commit; nullopt outside a checkout or before its first commit.
struct CheckoutAt {
  std::string top;
  std::string head;
};
std::optional<CheckoutAt> CheckoutAtPath(const std::string& path);
// SessionStart: whether the store's symbol file was made for another
// checkout or HEAD, or is missing (then `lore reindex <top> --symbols` is
// started detached).
bool SymbolsNeedBuild(const store::Store& store, const CheckoutAt& at);
// `lore reindex <checkout> [--symbols]`: the symbol file rebuilt from the
// files git tracks (`files`, relative to at.top).
struct IndexedSymbols {
  int64_t files = 0, skipped = 0, symbols = 0;
};
Result<IndexedSymbols> IndexSymbols(const store::Store& store, const CheckoutAt& at,
                                    const std::vector<std::string>& files);

// SessionEnd: forgets which files the session was told about.
void EndRecallSession(const store::Store& store, std::string_view session);

// An item read whole by its id (counted as opened, `via` naming the door:
// "mcp", "cli").
struct ItemText {
  std::string id;
  std::string file;
  int64_t line = 0;  // 0 for a whole Markdown file
  std::string text;
};
Result<ItemText> OpenItem(const store::Store& store, std::string_view id, std::string_view via,
                          text::TimePoint now);

// Counts items the agent reached by other doors: `ids` shown by a search
// (via "search", "mcp"), or a record opened by MCP memory_read (`opened`).
// Best effort: a store that cannot be written only loses the count.
void CountUse(const store::Store& store, const std::vector<std::string>& ids, bool opened,
              std::string_view via, text::TimePoint now);

// Pins (or unpins) an item: a pinned item never ages out. The id must name
// an item that exists.
::lore::Status PinItem(const store::Store& store, std::string_view id, bool pin,
                       text::TimePoint now);

// What the usage log says, per item and in all.
struct ItemStats {
  std::string id;
  int64_t shown = 0, opened = 0;
  std::string last_used;  // UTC, empty when never
  bool pinned = false;
};
struct UsageStats {
  std::vector<ItemStats> items;  // most used first
  int64_t shown = 0, opened = 0, pinned = 0;
  int64_t lines = 0, bad_lines = 0;
  int64_t unused_days = 90;  // recall.unused_days
};
Result<UsageStats> Usage(const store::Store& store);
// {items, shown, opened, pinned, unused_days, top: [{id, shown, opened, last_used, pinned}]}
// with at most `top` rows (all with a negative `top`).
Json UsageJson(const UsageStats& stats, int top);

}  // namespace lore::app
