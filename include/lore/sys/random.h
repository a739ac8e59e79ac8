// The one source of random bits: for names, machine ids and UUIDs, which
// must be distinct, never secret keys.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lore::sys {

// Fills the `n` bytes at `out` from getrandom(2) (retried when interrupted or
// short; never blocks). Where the kernel has no entropy yet (early boot) or
// no getrandom, the bytes come from a generator seeded with the clock, the
// pid and a per-process counter: still distinct from call to call and from
// process to process, no longer unpredictable.
void RandomBytes(void* out, size_t n);

// Random32() and Random64() are RandomBytes of their width.
uint32_t Random32();
uint64_t Random64();

}  // namespace lore::sys
