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
//
// The same three steps serve any file whose lines are moved to an archive
// and then removed by an atomic rewrite (`lore learnings prune`): the
// OnceFiles overloads name the source, the archive and the marker.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"

namespace lore::proposals {

// The files of one exactly-once archive: the file whose lines are archived
// (its identity is remembered), the archive, and the marker.
struct OnceFiles {
  std::string source, archive, marker;
};

// The general forms: `bytes` is the source file's contents now. Unlike the
// review's form, AlreadyArchived keeps a marker that applies (it returns
// offsets): the caller removes those lines, then calls ArchiveDone.
Result<std::set<size_t>> AlreadyArchived(const OnceFiles& files, std::string_view bytes);
Result<int64_t> ArchiveOnce(const OnceFiles& files, std::string_view bytes,
                            const std::vector<Span>& spans);
Status ArchiveDone(const OnceFiles& files);

// The review's forms (queue, proposals-archive.jsonl, .proposals-archive.pending).
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
