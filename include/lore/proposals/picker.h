// The interactive review as a pure state machine, so that it can be tested
// without a terminal: keys go in, the selection and the screen come out.
// Only reading keys from and drawing on the terminal live in src/cli/.
//
// Keys: ↑/↓ (or k/j) move; space (or x) toggles the item under the cursor;
// 1-4 toggle that item; Enter accepts the batch (selected items approved,
// the others declined); a approves and d declines the whole batch at once;
// A / D approve / decline everything not yet decided; q (or Ctrl-C, Ctrl-D)
// quits with nothing changed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "lore/json/value.h"
#include "lore/proposals/review.h"
#include "lore/text/time.h"

namespace lore::proposals {

enum class KeyKind {
  kUp,
  kDown,
  kToggle,
  kDigit,
  kEnter,
  kApproveBatch,
  kDeclineBatch,
  kApproveRest,
  kDeclineRest,
  kQuit,
  kOther
};

struct KeyEvent {
  KeyKind kind = KeyKind::kOther;
  int digit = 0;  // 1-9 for kDigit
};

// Turns terminal bytes into keys; escape sequences may arrive split.
class KeyDecoder {
 public:
  std::vector<KeyEvent> Feed(std::string_view bytes);

 private:
  std::string pending_;
};

class ReviewSession {
 public:
  enum class State { kActive, kDone, kQuit };

  // `items` are the records to review, in order.
  explicit ReviewSession(std::vector<Json> items);

  // Applies one key at time `now` (stamped on the batch it decides).
  State Feed(const KeyEvent& key, text::TimePoint now);

  State state() const { return state_; }
  size_t batch() const { return batch_; }  // 0-based
  size_t batches() const { return batches_.size(); }
  size_t cursor() const { return cursor_; }
  bool selected(size_t i) const { return selected_[i]; }  // within the batch
  // One decision per item (meaningful once state() is kDone).
  const std::vector<Decision>& decisions() const { return decisions_; }

  // The whole screen for the current state (lines end with "\n"), each
  // proposal whole (present.h Whole), wrapped to `width` columns.
  std::string Render(size_t width = 80) const;

 private:
  void DecideBatch(text::TimePoint now, int mode /*0 selection, 1 all, -1 none*/);
  void DecideRest(text::TimePoint now, Verdict v);
  const std::vector<size_t>& Current() const { return batches_[batch_]; }

  std::vector<Json> items_;
  std::vector<std::vector<size_t>> batches_;
  std::vector<Decision> decisions_;
  std::vector<bool> selected_;
  size_t batch_ = 0;
  size_t cursor_ = 0;
  State state_ = State::kActive;
};

}  // namespace lore::proposals
