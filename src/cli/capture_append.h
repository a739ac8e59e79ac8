// The one body of the append verbs (append-review, append-slicing), shared by
// lore's own verbs (cmd_capture.cpp) and the reviewer-memory drop-in
// (cmd_reviewer_memory.cpp).
#pragma once

namespace lore::capture {
enum class Kind;  // lore/capture/capture.h
}
namespace lore::store {
class Store;  // lore/store/store.h
}

namespace lore::cli {

// Reads one record from standard input and appends it to the store's log of
// `kind`; prints "lore: <error>" and returns kExitError when either fails.
int AppendFromStdin(const store::Store& store, capture::Kind kind);

}  // namespace lore::cli
