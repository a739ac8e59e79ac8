// <store>/quarantine/: what `lore check --repair` moved out of the way
// instead of deleting it (docs/formats.md, "Quarantine"). A file keeps its
// place in the store below quarantine/: the torn tail of sessions/s.jsonl
// cut at byte 4096 is quarantine/sessions/s.jsonl.torn-at-4096.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "log/torn_tail.h"
#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::store {

inline constexpr std::string_view kQuarantineDir = "quarantine";

// Moves the torn tail of the store's JSON Lines log `rel` (raw.jsonl,
// sessions/<s>.jsonl, ...; where it starts says `rule`) to
// quarantine/<rel>.torn-at-<offset> and cuts the log back there
// (log::QuarantineTornTail). Returns the copy's path; nullopt when nothing
// was torn. Run again after a crash, it finishes the same move.
Result<std::optional<std::string>> QuarantineTornTail(
    const Store& store, std::string_view rel, const log::CutRule& rule = log::TornTailStart);

// The same for the log `rel` of the store at `store_dir` that the caller
// holds open (`fd`, read-write) under its exclusive lock or the store's: what
// every appender and reader does with a torn last line it meets
// (log::QuarantineTornTailOf), so that no torn byte is ever deleted.
Result<std::optional<std::string>> QuarantineTornTailOf(
    const std::string& store_dir, std::string_view rel, int fd,
    const log::CutRule& rule = log::TornTailStart);

// Moves the store's file `rel` whole to quarantine/<rel>.unreadable (then
// .unreadable.2, .3, ... when taken) with rename(2); returns the new path.
Result<std::string> MoveToQuarantine(const Store& store, std::string_view rel);

}  // namespace lore::store
