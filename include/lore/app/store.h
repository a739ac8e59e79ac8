// Opening a store, the same way for every front end: the repository
// argument resolved to its store (store::Store::Locate with this process's
// environment), created or checked (Ensure), and its settings read.
#pragma once

#include <string_view>

#include "lore/consolidate/settings.h"
#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::app {

// The store of `repo` (a git remote URL or a checkout's path) without
// touching it: reading verbs that create nothing use this.
Result<store::Store> LocateStore(std::string_view repo);
// The store of the folder an agent works in (its hooks, its MCP server, an
// extract): any existing folder has one (store::Store::Folder::kWorkedIn).
Result<store::Store> LocateWorkedIn(std::string_view folder);

// The store of `repo`, created when missing and checked (its raw.jsonl
// lines are not re-read: RawCheck::kSkip).
Result<store::Store> OpenStore(std::string_view repo);

// A store opened with its settings (config.toml).
struct OpenedStore {
  store::Store store;
  consolidate::Settings settings;
};
Result<OpenedStore> OpenStoreWithSettings(std::string_view repo);

// The settings (config.toml) of a store opened first: a verb that has
// something to do before it needs them (a detach, the team's lock) reads
// them then, so that a broken config.toml is reported only where it counts.
Result<consolidate::Settings> LoadSettings(const store::Store& store);

// Makes the store at `now` when missing, and checks it (raw.jsonl's lines
// not re-read): what a writer of a located store does before writing.
lore::Status EnsureStore(const store::Store& store, text::TimePoint now);

// Whether the store exists (a store is made by its first write: a reader of
// one not made yet has nothing to read), and when it does, that it passes the
// checks a reader makes (store::Store::Check, raw.jsonl's lines not re-read).
Result<bool> CheckExisting(const store::Store& store);

}  // namespace lore::app
