// Cutting a log into the lines a push sends, and the cursors that make a
// repeated push insert nothing twice (docs/team.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"

namespace lore::teamsync {

// One complete line of a log: its byte offset in the file and its text
// without the '\n'.
struct LineAt {
  int64_t offset = 0;
  std::string_view text;
};

// Appends to `out` the complete ('\n'-terminated) lines of `data`, which
// starts at file offset `base`; returns the offset just past the last one
// (`base` when there is none). A cut-off last line is left for later.
int64_t SplitComplete(std::string_view data, int64_t base, std::vector<LineAt>* out);

// How far a log was pushed: its generation (bumped when the file was
// rewritten rather than appended to), the offset pushed up to, and the bytes
// just before that offset (hex, at most kTailBytes) to notice a rewrite.
struct LogCursor {
  int64_t gen = 0;
  int64_t offset = 0;
  std::string tail_hex;
};
inline constexpr size_t kTailBytes = 64;

// True when a file of `size` bytes whose bytes before the cursor's offset are
// `before` (at most kTailBytes of them) is no longer an append to what was
// pushed.
bool Rewritten(const LogCursor& c, int64_t size, std::string_view before);
std::string Hex(std::string_view bytes);

// The push cursors (per log) and the pulled generations (per machine and
// log) of one store, kept in team/push-state.json and team/pull-state.json.
using PushState = std::map<std::string, LogCursor>;
using PullState = std::map<std::string, std::map<std::string, int64_t>>;

Result<PushState> LoadPushState(const std::string& path);
Status SavePushState(const std::string& path, const PushState& state);
Result<PullState> LoadPullState(const std::string& path);
Status SavePullState(const std::string& path, const PullState& state);

// One field of PostgreSQL's COPY text format: a bytea value (hex) and a
// bigint; rows end with '\n', fields are separated by '\t'.
void AppendCopyBytea(std::string_view bytes, std::string* out);

}  // namespace lore::teamsync
