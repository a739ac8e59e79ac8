// Internal to lore::proposals: appending a review's cleared lines to
// proposals-archive.jsonl exactly once, though the append and the queue's
// replacement are two steps a crash can fall between.
//
// Before appending, the review writes the marker `.proposals-archive.pending`
// (atomically): the archive's size before the append, the chunk's length,
// the queue file's identity, and the queue spans the chunk is made of. It is
// removed once the queue is replaced. A marker found by the next review
// (under the same write lock) says which lines of the queue, if it is still
// the same file, the archive already holds: those are not appended again. A
// torn append (the archive holds a prefix of the chunk) is cut back first.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"

namespace lore::proposals {

// The offsets of the lines of `queue` (the queue file's bytes now) that an
// interrupted review already archived. Removes a marker that no longer
// applies; cuts off a torn append.
Result<std::set<size_t>> AlreadyArchived(const Paths& paths, const QueueScan& queue);

// Appends `spans` of `queue` (each with a newline added when it lacks one)
// to the archive, marker first. Returns the bytes appended.
Result<int64_t> ArchiveOnce(const Paths& paths, const QueueScan& queue,
                            const std::vector<Span>& spans);

// Removes the marker once the queue no longer holds the archived lines.
Status ArchiveDone(const Paths& paths);

}  // namespace lore::proposals
