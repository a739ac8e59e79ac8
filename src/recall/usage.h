// The usage log `usage.jsonl` of a store: every item lore showed the agent
// (prompt-time and file-time recall, the session-start briefing) and every
// item the agent opened (MCP open, memory_read), and the person's pins, one
// JSON object per line, append-only (docs/recall.md):
//   {"at":"2026-12-04T02:41:07.120Z","use":"shown","item":"memory/decisions/x.md",
//    "via":"prompt","session":"<session>"}
// `use` is shown, opened, pin or unpin. Items are named by ItemId (recall.h).
// Appends are one write(2) under the file's flock (proposals::AppendFile), so
// concurrent sessions and a writer killed mid-line lose no other line.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::recall {

inline constexpr const char* kUsageFile = "usage.jsonl";

enum class Use { kShown, kOpened, kPin, kUnpin };
std::string_view UseName(Use u);

struct UseEvent {
  Use use = Use::kShown;
  std::string item;
  std::string via;  // prompt | file | session-start | mcp | cli
};

// Appends `events` as lines of one write (the session id cleaned of secrets;
// an empty one is left out). The store must exist; nothing is written for
// no events.
Status RecordUse(const store::Store& store, const std::vector<UseEvent>& events,
                 std::string_view session, text::TimePoint now);

struct ItemUsage {
  int64_t shown = 0;
  int64_t opened = 0;
  int64_t last_used = 0;  // seconds since the epoch of the last shown or opened; 0: never
  bool pinned = false;
};

struct Usage {
  std::map<std::string, ItemUsage, std::less<>> items;
  int64_t lines = 0;
  int64_t bad_lines = 0;        // lines that are not a usage event (skipped, counted)
  uint64_t folded_through = 0;  // byte offset past the last whole line read
};

// The fold of the log up to a byte offset, `recall/usage.fold`: derived,
// rewritten by the background runs (WriteUsageFold), read by the hooks, which
// then read only the log's tail past it. One header line
// `lore-usage-fold 1 <device> <inode> <offset>`, then one line per item,
// sorted: `<id>\t<shown>\t<opened>\t<last_used>\t<pinned 0|1>`. A fold of
// another file (device and inode) or past the log's end is not used.
inline constexpr const char* kUsageFold = "recall/usage.fold";
Status WriteUsageFold(const store::Store& store);

// The log a fold is of (its device and inode) and the offset it covers (for
// ParseFold: the log's size, which the offset must not pass).
struct FoldKey {
  uint64_t dev = 0, ino = 0, offset = 0;
};
// Adds the items of the fold `text` (those in `only`, when given) to `out`
// and returns the offset it covers; 0, adding nothing, when it is not a
// whole, sorted fold of `log`.
uint64_t ParseFold(std::string_view text, const FoldKey& log, const std::vector<std::string>* only,
                   Usage* out);
std::string RenderFold(const Usage& usage, const FoldKey& key);
// Folds one log line into `out` (skipping items not in `only`); false when
// it is not a usage event.
bool FoldLine(std::string_view line, const std::vector<std::string>* only, Usage* out);
// FoldLine, with `parse_always` through the JSON parser even when the line is
// in RecordUse's own shape, which FoldLine reads without it (the reference
// the tests and the usage fuzzer compare it with).
bool FoldLineAs(std::string_view line, const std::vector<std::string>* only, Usage* out,
                bool parse_always);

// Folds the whole log (streamed, bounded memory per line); a missing log is
// empty. With `only`, just those items' lines are parsed (the hooks ask
// about a dozen candidates; the others' lines cost one substring test).
Result<Usage> ReadUsage(const store::Store& store, const std::vector<std::string>* only = nullptr);

}  // namespace lore::recall
