// Looking for private spans and secrets in files already written (`lore
// check --secrets`): streamed line by line, the secret never copied out.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "lore/error.h"
#include "redact/redact.h"

namespace lore::redact {

// Called once per rule found on a line (line numbers are 1-based).
using LineReport = std::function<void(int64_t line, Rule rule)>;

// Scans the file at `path` (not following a symlink) in chunks of 1 MiB;
// each line is scanned whole up to 16 MiB, a longer one in 16 MiB pieces (a
// secret across a cut is not seen). Memory stays flat however long the file.
Status ScanFile(const std::string& path, const LineReport& report);

// Called per finding with the path of the file relative to the tree (its
// private spans and secrets removed: the report never shows one) and the
// line, 0 for a finding in the entry's own name.
using TreeReport = std::function<void(const std::string& rel, int64_t line, Rule rule)>;

// Scans the name of every entry under `dir` (files, folders, symlinks: a
// file name must never hold a secret either) and the contents of every
// regular file (symlinks are not followed; the derived index.sqlite too).
// Returns the number of findings; the first error (a file that cannot be
// read) ends the scan.
Result<int64_t> ScanTree(const std::string& dir, const TreeReport& report);

}  // namespace lore::redact
