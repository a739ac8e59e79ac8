// libarchive, loaded on first use with dlopen(3).
//
// The `lore` binary runs inside agent hooks on every tool call, so it must
// start fast. libarchive's shared library pulls in about fifteen more (xml2,
// crypto, lzma, zstd, ...), so linking it would slow every verb down; only
// `lore export` and `lore import` need it, and they load it here.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include "lore/error.h"

namespace lore::archive {

// The libarchive functions lore uses, resolved from libarchive.so.13.
struct LibArchive {
#define LORE_ARCHIVE_FN(name) decltype(&::name) name = nullptr;
#include "archive/libarchive_fns.inc"
#undef LORE_ARCHIVE_FN
};

// The loaded library (loaded once per process), or kUnavailable naming the
// library and the package that provides it.
Result<const LibArchive*> Load();

}  // namespace lore::archive
