// How far each session's transcript was extracted:
// `<store>/extract/<session>.json` (docs/extract.md), written atomically.
//
//   {"session_id": "…", "transcript": "/abs/path.jsonl",
//    "identity": {"dev": 2049, "ino": 1234, "prefix_bytes": 4096, "prefix_hash": "…"},
//    "line": 120, "offset": 48213, "staged_id": "…", "publish": "019b…"}
//
// `publish` names the entry of the range just passed that still waits in
// `staging/.pending/` to be published: the cursor moves past a range before
// its entry becomes visible to consolidation, so that a run that dies in
// between leaves an entry that the next run publishes, never one it stages
// twice or loses (docs/extract.md, "Crash safety"). Earlier versions wrote a
// `pending` range instead; it is still read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "lore/error.h"
#include "lore/store/store.h"

namespace lore::extract {

inline constexpr std::string_view kCursorDir = "extract";
inline constexpr size_t kPrefixBytes = 4096;  // bytes hashed to recognise a transcript
// The transcript's path as the cursor keeps it (activity::CleanLine: secrets
// and private spans removed, control characters dropped) is cut to this:
// PATH_MAX, and the cursor stays far below the 64 KiB ReadCursor reads.
inline constexpr size_t kMaxTranscriptPathBytes = 4096;

struct Identity {
  uint64_t dev = 0, ino = 0;
  uint64_t prefix_bytes = 0;  // how many first bytes were hashed
  std::string prefix_hash;    // FNV-1a 64 of them, hex
  bool operator==(const Identity&) const = default;
};

struct Pending {
  int64_t first = 0, last = 0;
  uint64_t offset = 0;        // past line `last`
  int64_t started_at_ms = 0;  // Unix milliseconds, before staging
};

struct Cursor {
  std::string session_id;  // as the gate of session ids left it
  std::string transcript;  // written cleaned (kMaxTranscriptPathBytes): for a person, never opened
  Identity identity;
  int64_t line = 0;     // last line extracted (0: none)
  uint64_t offset = 0;  // byte offset past it
  std::string staged_id;
  std::string publish;             // an entry to publish (see above); empty: none
  std::optional<Pending> pending;  // written by earlier versions only
};

// The cursor file's path for `session_id` (a name safe for any id).
std::string CursorPath(const store::Store& store, std::string_view session_id);

// The cursor, or nullopt when the session was never extracted. A damaged
// file is an Error naming it (repair: remove it to extract from the start).
Result<std::optional<Cursor>> ReadCursor(const store::Store& store, std::string_view session_id);

// The cursor file at `path`, whatever session it names (`lore check`). A
// damaged file is an Error naming it, as ReadCursor's.
Result<Cursor> ReadCursorFile(const std::string& path);

// Replaces the cursor atomically (creating `extract/`, 0700).
Status WriteCursor(const store::Store& store, const Cursor& cursor);

// The identity of the open transcript `fd` with its first `prefix_bytes` hashed.
Result<Identity> IdentityOf(int fd, uint64_t prefix_bytes, const std::string& path);

}  // namespace lore::extract
