// The one naming scheme of lore's temporary files and folders.
//
//   <dir>/.<base>.<what>.<pid>.<random>
//
// <base> is the target's name (without a leading '.' when it already has
// one), <what> says what the temporary is (see TempKind), <pid> is the
// writer's process id in decimal and <random> eight lowercase hex digits.
// The pid lets `lore check` tell the leftovers of a writer that died (kill -9,
// a power cut) from the work of a live one: a temporary whose pid is not a
// live process on this host (sys::ProcessAlive) is stale. A pid in use by
// another program counts as alive: lore leaves such a file alone rather than
// risk removing a live writer's work (a temporary's mtime cannot date its
// writer: imports and shadows carry older mtimes). Stores are meant for one
// host; a store shared by several hosts would need its writers' host in the
// name too.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

namespace lore::fs {

// What a temporary is, as written into its name.
enum class TempKind {
  kFile,      // "tmp": a file written aside and renamed over its target
  kNew,       // "new": a folder built aside and renamed into place
  kOld,       // "old": a folder moved aside, removed once the new one is in
  kReplaced,  // "replaced": a store moved aside by an import
};

// The word of `kind` in names: "tmp", "new", "old", "replaced".
std::string_view TempKindName(TempKind kind);

// A fresh name for a temporary of `kind` beside `target` (a path): the same
// directory, the scheme above, this process's pid. Not created; callers
// create it with O_EXCL (or mkdir) and retry on EEXIST.
std::string TempPath(std::string_view target, TempKind kind = TempKind::kFile);

// The parts of a name that follows the scheme (also the older forms lore
// wrote: `<base>.tmp.<pid>` and `<base>.tmp.<pid>.<decimal>`, without the
// leading dot). nullopt for any other name.
struct TempName {
  std::string base;  // the target's name as it appears in the temporary's name
  TempKind kind = TempKind::kFile;
  pid_t pid = 0;
};
std::optional<TempName> ParseTempName(std::string_view name);

// The longest decoration TempPath adds to a base name (dot, kind, pid,
// random and separators), for callers that bound name lengths.
inline constexpr size_t kMaxTempDecoration = 1 + 1 + 8 + 1 + 10 + 1 + 8;

}  // namespace lore::fs
