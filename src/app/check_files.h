// The files of a store beyond what store::Store::CheckAll reads (raw.jsonl,
// okf/index.md, the store's own paths), each kind read by its own module's
// reader, for `lore check` (docs/capture.md, "lore check"): symlinks and
// special files anywhere in the store, records that cannot be read or parsed,
// okf/ pages, config.toml, the JSON Lines logs (learnings, the proposal
// files, events, usage, the session logs, the team's copies), extract
// cursors, staged entries, the search index and lore's other state files.
#pragma once

#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::app {

// One Error per problem, naming the file, the line where there is one, and
// the repair. Nothing is changed; a symlink or special file is reported, never
// followed or opened.
std::vector<Error> CheckFiles(const store::Store& store);

// What `lore check --repair` repairs without losing a line: the torn tail of
// every JSON Lines log (raw.jsonl included) moved into quarantine/ and the log
// cut back to its last complete line (store::QuarantineTornTail), extract
// cursors that cannot be read moved into quarantine/, and a search index that
// cannot be opened deleted (it is derived: the next search rebuilds it).
// `done` gets one line per repair. Returns the first failure, after trying
// the rest.
lore::Status RepairFiles(const store::Store& store, std::vector<std::string>* done);

}  // namespace lore::app
