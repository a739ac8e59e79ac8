// The JSON value types of lore: every module names them from here.
#pragma once

#include <nlohmann/json.hpp>

namespace lore {

// Every JSON value lore builds, reads and writes: object keys stay in the
// order they were written or inserted, so that a line lore rewrites keeps its
// keys where they were (what JavaScript's JSON.parse and JSON.stringify do).
using Json = nlohmann::ordered_json;

// Keys sorted (a std::map): looked up in O(log n) rather than by
// ordered_json's linear scan, for wide values that are only read, never
// written back, so that their key order does not matter: an agent's
// transcript lines (extract/transcript.cpp), the team's sync state, archive
// manifests (json::Parse).
using SortedJson = nlohmann::json;

}  // namespace lore
