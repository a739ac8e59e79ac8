// The JSON scanner behind lore::json: one pass over the text, an explicit
// stack of open containers (never recursion), tokens handed to a handler as
// views of the input.
//
// A handler provides:
//   bool BeginObject(); bool EndObject(); bool BeginArray(); bool EndArray();
//   bool Key(std::string_view raw, bool escaped);     // bytes between quotes
//   bool String(std::string_view raw, bool escaped);
//   bool Number(std::string_view lexeme, bool integral);
//   bool Literal(std::string_view lexeme);  // true false null NaN Infinity -Infinity
//   std::string error;                      // set when a callback returns false
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "json/strings.h"
#include "lore/json/reader.h"

namespace lore::json::internal {

// The keys seen in one open object, for the strict dialect's duplicate check.
class KeySet {
 public:
  // False when `key` was already added.
  bool Add(std::string_view raw, bool escaped);
  void Clear() {
    views_.clear();
    owned_.clear();
    set_.clear();
  }

 private:
  static constexpr size_t kLinearMax = 32;  // above this, a hash set
  std::vector<std::string_view> views_;
  std::deque<std::string> owned_;  // decoded escaped keys; a deque never moves them
  std::unordered_set<std::string_view> set_;
};

struct ScanError {
  size_t offset = 0;
  std::string what;
};

template <class Handler>
class Scanner {
 public:
  Scanner(std::string_view text, const Limits& limits, Handler& h)
      : s_(text), limits_(limits), h_(h) {}

  // True when the text is one value within the limits; else error() says why.
  bool Run();
  const ScanError& error() const { return error_; }

 private:
  bool Fail(std::string what) {
    error_ = {pos_, std::move(what)};
    return false;
  }
  bool HandlerFailed() { return Fail(h_.error.empty() ? "rejected value" : h_.error); }
  void SkipSpace() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      ++pos_;
    }
  }
  bool strict() const { return limits_.dialect == Dialect::kStrict; }
  bool Value();
  bool StringToken(std::string_view* raw, bool* escaped);
  bool NumberToken();
  bool LiteralToken();
  bool Open(bool object);
  bool ObjectKey();

  std::string_view s_;
  const Limits& limits_;
  Handler& h_;
  size_t pos_ = 0;
  std::vector<bool> stack_;  // true for an object
  // One per open object (strict dialect). A deque: growing it never moves a
  // KeySet, whose views point into its own strings.
  std::deque<KeySet> keys_;
  size_t open_objects_ = 0;
  ScanError error_;
};

template <class Handler>
bool Scanner<Handler>::Run() {
  if (s_.size() > limits_.max_bytes) {
    return Fail("JSON text of " + std::to_string(s_.size()) + " bytes is over the limit of " +
                std::to_string(limits_.max_bytes));
  }
  SkipSpace();
  if (pos_ == s_.size()) return Fail("no JSON value (empty)");
  // Each turn reads one value, then closes every container it completes.
  for (;;) {
    if (!Value()) return false;
    for (;;) {
      SkipSpace();
      if (stack_.empty()) {
        if (pos_ != s_.size()) return Fail("text after the JSON value");
        return true;
      }
      if (pos_ == s_.size()) return Fail("JSON text ends inside a value");
      const bool object = stack_.back();
      char c = s_[pos_];
      if (c == ',') {
        ++pos_;
        SkipSpace();
        if (object && !ObjectKey()) return false;
        break;  // the next value
      }
      if (c != (object ? '}' : ']')) {
        return Fail(object ? "expected ',' or '}' in an object"
                           : "expected ',' or ']' in an array");
      }
      ++pos_;
      stack_.pop_back();
      if (object) --open_objects_;
      if (!(object ? h_.EndObject() : h_.EndArray())) return HandlerFailed();
    }
  }
}

template <class Handler>
bool Scanner<Handler>::Open(bool object) {
  if (static_cast<int>(stack_.size()) >= limits_.max_depth) {
    return Fail("JSON nested deeper than " + std::to_string(limits_.max_depth) + " levels");
  }
  ++pos_;
  stack_.push_back(object);
  if (!(object ? h_.BeginObject() : h_.BeginArray())) return HandlerFailed();
  if (object && strict()) {
    if (keys_.size() <= open_objects_) keys_.emplace_back();
    keys_[open_objects_].Clear();
  }
  if (object) ++open_objects_;
  SkipSpace();
  return true;
}

// Reads `"key" :` inside an object, leaving the position at the value.
template <class Handler>
bool Scanner<Handler>::ObjectKey() {
  if (pos_ >= s_.size() || s_[pos_] != '"') return Fail("expected a string key in an object");
  std::string_view raw;
  bool escaped = false;
  if (!StringToken(&raw, &escaped)) return false;
  if (strict() && !keys_[open_objects_ - 1].Add(raw, escaped)) {
    return Fail("duplicate key \"" + DecodeString(raw) + "\" in an object");
  }
  if (!h_.Key(raw, escaped)) return HandlerFailed();
  SkipSpace();
  if (pos_ >= s_.size() || s_[pos_] != ':') return Fail("expected ':' after an object key");
  ++pos_;
  SkipSpace();
  return true;
}

template <class Handler>
bool Scanner<Handler>::Value() {
  for (;;) {
    if (pos_ >= s_.size()) return Fail("JSON text ends where a value was expected");
    char c = s_[pos_];
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      if (!Open(object)) return false;
      if (pos_ < s_.size() && s_[pos_] == (object ? '}' : ']')) {
        return true;  // empty: Run's loop closes it
      }
      if (object && !ObjectKey()) return false;
      continue;  // the first member's value
    }
    if (c == '"') {
      std::string_view raw;
      bool escaped = false;
      if (!StringToken(&raw, &escaped)) return false;
      return h_.String(raw, escaped) || HandlerFailed();
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      if (c == '-' && limits_.dialect == Dialect::kPython && s_.substr(pos_, 9) == "-Infinity") {
        return LiteralToken();
      }
      return NumberToken();
    }
    return LiteralToken();
  }
}

template <class Handler>
bool Scanner<Handler>::StringToken(std::string_view* raw, bool* escaped) {
  const size_t start = ++pos_;  // after the opening quote
  *escaped = false;
  while (pos_ < s_.size()) {
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    if (c == '"') {
      *raw = s_.substr(start, pos_ - start);
      ++pos_;
      return true;
    }
    if (c < 0x20) return Fail("control character in a string (escape it)");
    if (c == '\\') {
      *escaped = true;
      if (pos_ + 1 >= s_.size()) break;
      char e = s_[pos_ + 1];
      if (e == 'u') {
        uint32_t unit = 0;
        if (!ReadHex4(s_, pos_ + 2, &unit)) return Fail("bad \\u escape in a string");
        pos_ += 6;
        if (unit >= 0xD800 && unit <= 0xDFFF) {
          uint32_t low = 0;
          bool paired = unit <= 0xDBFF && pos_ + 1 < s_.size() && s_[pos_] == '\\' &&
                        s_[pos_ + 1] == 'u' && ReadHex4(s_, pos_ + 2, &low) && low >= 0xDC00 &&
                        low <= 0xDFFF;
          if (paired) {
            pos_ += 6;
          } else if (strict()) {
            return Fail("unpaired UTF-16 surrogate escape in a string");
          }
        }
        continue;
      }
      if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' &&
          e != 't') {
        return Fail("bad escape in a string");
      }
      pos_ += 2;
      continue;
    }
    if (c < 0x80) {
      pos_ = SkipPlainAscii(s_, pos_ + 1);
      continue;
    }
    size_t n = Utf8SequenceLength(s_, pos_);
    if (n == 0) return Fail("invalid UTF-8 in a string");
    pos_ += n;
  }
  return Fail("string not closed");
}

template <class Handler>
bool Scanner<Handler>::NumberToken() {
  const size_t start = pos_;
  auto digits = [&] {
    size_t from = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ - from;
  };
  if (s_[pos_] == '-') ++pos_;
  if (pos_ < s_.size() && s_[pos_] == '0') {
    ++pos_;
  } else if (digits() == 0) {
    return Fail("bad number");
  }
  bool integral = true;
  if (pos_ < s_.size() && s_[pos_] == '.') {
    ++pos_;
    integral = false;
    if (digits() == 0) return Fail("bad number (no digit after '.')");
  }
  if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
    ++pos_;
    integral = false;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    if (digits() == 0) return Fail("bad number (no digit in the exponent)");
  }
  if (pos_ - start > limits_.max_number_chars) {
    pos_ = start;
    return Fail("number longer than " + std::to_string(limits_.max_number_chars) + " characters");
  }
  if (pos_ < s_.size() && ((s_[pos_] >= '0' && s_[pos_] <= '9') || s_[pos_] == '.')) {
    return Fail("bad number (leading zero)");
  }
  return h_.Number(s_.substr(start, pos_ - start), integral) || HandlerFailed();
}

template <class Handler>
bool Scanner<Handler>::LiteralToken() {
  static constexpr std::string_view kStrict[] = {"true", "false", "null"};
  static constexpr std::string_view kPython[] = {"NaN", "Infinity", "-Infinity"};
  for (std::string_view w : kStrict) {
    if (s_.substr(pos_, w.size()) == w) {
      pos_ += w.size();
      return h_.Literal(w) || HandlerFailed();
    }
  }
  if (limits_.dialect == Dialect::kPython) {
    for (std::string_view w : kPython) {
      if (s_.substr(pos_, w.size()) == w) {
        pos_ += w.size();
        return h_.Literal(w) || HandlerFailed();
      }
    }
  }
  unsigned char c = static_cast<unsigned char>(s_[pos_]);
  if (c >= 0x21 && c < 0x7f) return Fail(std::string("unexpected '") + s_[pos_] + "'");
  return Fail("unexpected byte");
}

// The 1-based line of `offset` within `text`.
int64_t LineOf(std::string_view text, size_t offset);

}  // namespace lore::json::internal
