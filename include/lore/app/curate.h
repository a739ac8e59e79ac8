// The page's changes (`lore serve`, docs/serve.md): review, edit, replace,
// pin, and the undo of each, through the same guarded operations as the CLI.
// Nothing here knows HTTP.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/json/value.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// Keeps and declines by id through the guarded promote-and-clear (the CLI's
// `lore review --approve/--decline`): ids another reviewer settled meanwhile
// are listed in "already" and never decided twice. {"approved", "declined",
// "already", "pending"}.
Result<Json> ReviewByIds(const store::Store& store, const std::string& repo,
                         const std::vector<std::string>& approve,
                         const std::vector<std::string>& decline, const std::string& reason,
                         text::TimePoint now);

// A change made through the page, and how to take it back.
struct PageChange {
  Json result;                        // what the page is told
  std::string what;                   // "edit memory/decisions/x.md"
  std::string id;                     // the item
  std::optional<std::string> before;  // the record's text before (edit, replace)
  std::string after;                  // its text after
  std::optional<bool> pinned_before;  // pin, unpin
};

// The linter's refusal: Error kInvalidInput whose `what` is the first
// finding; `findings` (when asked for) gets every one as
// {"line", "severity", "rule", "message", "repair"}.
// Replaces a record's whole text (decisions, requests, knowledge), linted
// first: a refused edit changes nothing.
Result<PageChange> EditRecordText(const store::Store& store, std::string_view id,
                                  std::string_view text, Json* findings);
// Marks a record replaced by `by` (a slug of the same kind), never deleting.
Result<PageChange> ReplaceRecord(const store::Store& store, std::string_view id,
                                 std::string_view by, text::TimePoint now, Json* findings);
// Pins or unpins an item (usage.jsonl).
Result<PageChange> PinFromPage(const store::Store& store, std::string_view id, bool pin,
                               text::TimePoint now);
// Takes `change` back: the record's text before it (refused, kConflict-like
// kBusy, when the file changed since), or the pin as it was.
Result<std::string> UndoChange(const store::Store& store, const PageChange& change,
                               text::TimePoint now);

}  // namespace lore::app
