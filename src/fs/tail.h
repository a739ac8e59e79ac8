// Moving the end of a file aside: the one way lore shortens a file it may not
// lose a byte of (an append-only log whose last line an append killed
// half-way left torn; docs/formats.md, "Quarantine").
#pragma once

#include <cstdint>
#include <string>

#include "lore/error.h"

namespace lore::fs {

// Moves the bytes of the open file `fd` (named `path`) from offset `keep` to
// its end into the new file `aside`, then cuts the file back to `keep`. The
// copy is written to a temporary beside `aside` (fs::TempPath), fsynced,
// renamed into place and its folder fsynced (AtomicFile) before the file is
// truncated and fsynced, so that a crash at any point leaves the file whole
// (and at worst a temporary that `lore check --repair` sweeps), or whole with
// its tail copied to `aside`, or cut back with its tail in `aside`. When
// `aside` already holds exactly those bytes (a run that died after its
// rename) only the cut is made; when it holds anything else, nothing is done
// and the error has code kExists. The caller holds the file's lock and has
// created the folder of `aside`. `fd` must be open for writing.
Status MoveTailAside(int fd, const std::string& path, uint64_t keep, const std::string& aside);

}  // namespace lore::fs
