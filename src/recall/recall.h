// Recall at the moment it matters (docs/recall.md): what the prompt-time hook
// (UserPromptSubmit) and the file-time hook (PostToolUse of Read, Edit, Write)
// add to the agent's context, chosen from the store's search index as it is
// (never updated here: the hot path reads, the background runs write).
//
// An item is one thing the index holds, named by ItemId: a Markdown record by
// its path in the store ("memory/decisions/x.md"), a line of a JSON Lines log
// by path and line ("sessions/<session>.jsonl:12"). The context shows one line
// per item with its id and size; the MCP tool `open` gives it whole.
//
// An item is injected only when the prompt's informative words are in it:
// its relevance is the share of the query's idf weight its own tokens hold,
// and it must clear `min_relevance`. Items unused for `unused_days` (last
// shown or opened, else since lore wrote them) and not pinned are left out;
// items naming a path of the checkout that no longer exists are marked stale
// or left out.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/index/index.h"
#include "lore/store/store.h"
#include "lore/text/time.h"
#include "recall/usage.h"

namespace lore::recall {

struct Settings {
  bool prompt = true;            // recall.prompt: the UserPromptSubmit hook adds context
  bool files = true;             // recall.files: the PostToolUse hook adds a file's context
  int64_t prompt_budget = 1500;  // recall.prompt_budget: characters at most
  int64_t file_budget = 1000;    // recall.file_budget
  double min_relevance = 0.45;   // recall.min_relevance: share of the query's weight
  int64_t unused_days = 90;      // recall.unused_days: 0 never ages
  bool omit_stale = false;       // recall.stale = "omit" (default "mark")
};
Result<Settings> LoadSettings(const store::Store& store);

// Whether item `id` has aged out: not pinned, and neither shown nor opened
// for settings.unused_days (an item never used counts from `written_s`, when
// lore last wrote its file; seconds since the epoch). The one rule of the
// prompt-time and file-time candidates, the session-start records index and
// the briefing's decisions and gotchas (docs/recall.md).
bool IsAged(const Usage& usage, std::string_view id, int64_t written_s, const Settings& settings,
            int64_t now_s);

// Where a recall happens: the checkout the agent works in (stale paths are
// judged against it), its session, the time.
struct Where {
  std::string checkout;
  std::string session;
  text::TimePoint now;
};

struct Recalled {
  std::string context;          // empty: nothing to add
  std::vector<UseEvent> shown;  // what the context shows, for the usage log
  bool no_index = false;        // the store has no search index yet: nothing could be looked up
};

// The context for the person's `prompt`: at most a few items above the
// relevance threshold within settings.prompt_budget characters.
Result<Recalled> ForPrompt(const store::Store& store, const Settings& settings,
                           std::string_view prompt, const Where& where);

// What memory says about `file_path` (as the tool named it: absolute, or
// relative to the checkout): items that name the file, never the session
// trace of tools that touched it. Empty when the file was already recalled
// in this session (every call marks it, in recall/<session>.files).
Result<Recalled> ForFile(const store::Store& store, const Settings& settings,
                         std::string_view file_path, const Where& where);

// The session-start index of memory's records (decisions, requests,
// knowledge), most recently written first: one line per item, its id and
// size, within `max_chars`; items that aged out (see above) are left out and
// counted at the end. Empty when there are none.
Result<std::string> RecordIndex(const store::Store& store, const Settings& settings,
                                text::TimePoint now, size_t max_chars);

// Forgets which files the session was told about (its session ended).
void ForgetSession(const store::Store& store, std::string_view session);

// An item read whole by its id: a Markdown file's text, or a log line.
struct OpenedItem {
  std::string id;
  std::string file;
  int64_t line = 0;  // 0 for a whole file
  std::string text;
};
// An id naming nothing, or outside the store's searchable files, is an
// Error (kNotFound / kInvalidInput) with the repair.
Result<OpenedItem> Open(const store::Store& store, std::string_view id);

// Paths named in `text` that look like files of the checkout (a relative
// path with a folder whose first folder exists there) but no longer exist.
std::vector<std::string> StalePaths(std::string_view text, const std::string& checkout);

}  // namespace lore::recall
