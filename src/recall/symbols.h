// The checkout's code symbols, for stale citations (docs/recall.md): an item
// that cites a function or type (`ParseQuery`, `Index::Find`, `parse_args()`)
// the code no longer holds is marked stale where it would be shown.
//
// The symbols are every identifier of four characters or more in the files
// git tracks, read from the working tree, sorted, one per line, in the store's
// `recall/symbols.txt` after a header `lore-symbols 1 <HEAD commit> <checkout>`.
// `lore reindex <checkout> --symbols` writes it in the background when a
// session starts at a HEAD the file was not made at; a recall reads it by
// binary search (a few preads) and only while HEAD is still the header's, so
// a symbol added since is never judged missing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/fs/fd.h"
#include "lore/store/store.h"

namespace lore::recall {

inline constexpr const char* kSymbolsFile = "recall/symbols.txt";

// Names `text` cites as code, at most `max`: a backticked identifier that
// looks like one (`snake_case`, `camelCase`, `Name()`, `A::B`, `a.b()`: the
// last part), or an unquoted `name()` / `A::B`. Four characters or more.
std::vector<std::string> CitedSymbols(std::string_view text, size_t max = 8);

// The checkout `path` is in (its top folder) and the commit its HEAD names;
// nullopt outside a checkout or before its first commit.
struct CheckoutHead {
  std::string top;
  std::string head;
};
std::optional<CheckoutHead> HeadOf(const std::string& path);

// Whether the store's symbol file is missing or was made for another checkout
// or HEAD: the SessionStart hook then starts a rebuild.
bool SymbolsNeedBuild(const store::Store& store, const CheckoutHead& at);

struct SymbolStats {
  int64_t files = 0;    // files read
  int64_t skipped = 0;  // over 1 MiB, binary, unreadable, or past the total cap
  int64_t symbols = 0;  // distinct identifiers written
};
// Reads `files` (paths relative to at.top, as `git ls-files` lists them) and
// writes the store's symbol file atomically. Bounded: files of at most 1 MiB,
// 256 MiB read in all; symlinks, FIFOs and other non-regular files skipped.
Result<SymbolStats> BuildSymbols(const store::Store& store, const CheckoutHead& at,
                                 const std::vector<std::string>& files);

// The store's symbol file, opened for lookups when it was made for `at`.
class SymbolSet {
 public:
  static std::optional<SymbolSet> Open(const store::Store& store, const CheckoutHead& at);
  // Whether the code holds `name` (binary search over the sorted lines).
  bool Contains(std::string_view name) const;

 private:
  SymbolSet(fs::Fd fd, uint64_t begin, uint64_t end)
      : fd_(std::move(fd)), begin_(begin), end_(end) {}
  // The first line that starts at or after offset `p`; false when none.
  bool LineAt(uint64_t p, std::string* line) const;
  fs::Fd fd_;
  uint64_t begin_, end_;  // the sorted lines' bytes
};

}  // namespace lore::recall
