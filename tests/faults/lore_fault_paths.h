/* Which calls the lore_fault shim counts: those on paths, or on descriptors
 * open on paths, under LORE_FAULT_ROOT (lore_fault.c). */
#pragma once

/* Sets the root; NULL or "" counts every path and every descriptor but 0-2. */
void LoreFaultSetRoot(const char* root);

/* 1 when `path` (relative to `dirfd`, or to the working directory when
 * `dirfd` is AT_FDCWD) lies under the root, compared lexically after "." and
 * ".." are folded, against the root as given and as resolved. */
int LoreFaultPathUnderRoot(int dirfd, const char* path);

/* 1 when the file `fd` is open on (its /proc/self/fd target) lies under the
 * root. */
int LoreFaultFdUnderRoot(int fd);
