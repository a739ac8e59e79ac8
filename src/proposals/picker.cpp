#include "lore/proposals/picker.h"

#include "lore/proposals/present.h"

namespace lore::proposals {

std::vector<KeyEvent> KeyDecoder::Feed(std::string_view bytes) {
  pending_ += bytes;
  std::vector<KeyEvent> out;
  size_t i = 0;
  while (i < pending_.size()) {
    const char c = pending_[i];
    if (c == '\x1b') {
      if (i + 1 >= pending_.size()) break;  // wait for the rest
      const char c1 = pending_[i + 1];
      if (c1 != '[' && c1 != 'O') {
        out.push_back({KeyKind::kOther});
        ++i;
        continue;
      }
      if (i + 2 >= pending_.size()) break;
      // Skip parameters (digits, ';') up to the final byte.
      size_t j = i + 2;
      while (j < pending_.size() &&
             ((pending_[j] >= '0' && pending_[j] <= '9') || pending_[j] == ';'))
        ++j;
      if (j >= pending_.size()) break;
      const char fin = pending_[j];
      out.push_back({fin == 'A' ? KeyKind::kUp : fin == 'B' ? KeyKind::kDown : KeyKind::kOther});
      i = j + 1;
      continue;
    }
    KeyEvent k;
    switch (c) {
      case 'k':
        k.kind = KeyKind::kUp;
        break;
      case 'j':
        k.kind = KeyKind::kDown;
        break;
      case ' ':
      case 'x':
        k.kind = KeyKind::kToggle;
        break;
      case '\r':
      case '\n':
        k.kind = KeyKind::kEnter;
        break;
      case 'a':
        k.kind = KeyKind::kApproveBatch;
        break;
      case 'd':
        k.kind = KeyKind::kDeclineBatch;
        break;
      case 'A':
        k.kind = KeyKind::kApproveRest;
        break;
      case 'D':
        k.kind = KeyKind::kDeclineRest;
        break;
      case 'q':
      case 'Q':
      case '\x03':
      case '\x04':
        k.kind = KeyKind::kQuit;
        break;
      default:
        if (c >= '1' && c <= '9') {
          k.kind = KeyKind::kDigit;
          k.digit = c - '0';
        }
    }
    out.push_back(k);
    ++i;
  }
  pending_.erase(0, i);
  return out;
}

ReviewSession::ReviewSession(std::vector<Json> items)
    : items_(std::move(items)), batches_(Batches(items_.size())), decisions_(items_.size()) {
  if (batches_.empty()) {
    state_ = State::kDone;
  } else {
    selected_.assign(Current().size(), false);
  }
}

void ReviewSession::DecideBatch(text::TimePoint now, int mode) {
  const auto& b = Current();
  for (size_t k = 0; k < b.size(); ++k) {
    const bool approve = mode > 0 || (mode == 0 && selected_[k]);
    decisions_[b[k]] =
        Decision{approve ? Verdict::kApprove : Verdict::kDecline, "user-declined", now};
  }
  if (++batch_ >= batches_.size()) {
    state_ = State::kDone;
    return;
  }
  cursor_ = 0;
  selected_.assign(Current().size(), false);
}

void ReviewSession::DecideRest(text::TimePoint now, Verdict v) {
  while (state_ == State::kActive) DecideBatch(now, v == Verdict::kApprove ? 1 : -1);
}

ReviewSession::State ReviewSession::Feed(const KeyEvent& key, text::TimePoint now) {
  if (state_ != State::kActive) return state_;
  const size_t n = Current().size();
  switch (key.kind) {
    case KeyKind::kUp:
      cursor_ = cursor_ == 0 ? n - 1 : cursor_ - 1;
      break;
    case KeyKind::kDown:
      cursor_ = (cursor_ + 1) % n;
      break;
    case KeyKind::kToggle:
      selected_[cursor_] = !selected_[cursor_];
      break;
    case KeyKind::kDigit:
      if (key.digit >= 1 && static_cast<size_t>(key.digit) <= n) {
        cursor_ = static_cast<size_t>(key.digit - 1);
        selected_[cursor_] = !selected_[cursor_];
      }
      break;
    case KeyKind::kEnter:
      DecideBatch(now, 0);
      break;
    case KeyKind::kApproveBatch:
      DecideBatch(now, 1);
      break;
    case KeyKind::kDeclineBatch:
      DecideBatch(now, -1);
      break;
    case KeyKind::kApproveRest:
      DecideRest(now, Verdict::kApprove);
      break;
    case KeyKind::kDeclineRest:
      DecideRest(now, Verdict::kDecline);
      break;
    case KeyKind::kQuit:
      state_ = State::kQuit;
      break;
    case KeyKind::kOther:
      break;
  }
  return state_;
}

std::string ReviewSession::Render(size_t width) const {
  std::string out = "lore review: " + std::to_string(items_.size()) + " proposal" +
                    (items_.size() == 1 ? "" : "s") + "\n\n";
  if (state_ != State::kActive) return out;
  out += Prompt(batch_ + 1, batches_.size()) + "\n\n";
  const auto& b = Current();
  for (size_t k = 0; k < b.size(); ++k) {
    const std::string lead = std::string(k == cursor_ ? "> " : "  ") +
                             (selected_[k] ? "[x] " : "[ ] ") + std::to_string(k + 1) + ". ";
    out += Whole(items_[b[k]], width, lead, "         ");
  }
  out += "\n\u2191/\u2193 move  space or 1-" + std::to_string(b.size()) +
         " toggle  Enter accept batch  a approve batch  d decline batch\n"
         "A approve all remaining  D decline all remaining  q quit (nothing is changed)\n";
  return out;
}

}  // namespace lore::proposals
