// The lines of a text, one string view each, without copying: the loop over
// find('\n') that reader after reader wrote by hand, in one place.
#pragma once

#include <cstddef>
#include <string_view>

namespace lore::text {

// for (std::string_view line : text::Lines(text)) visits each line without its
// '\n' (a '\r' before it stays). A text that ends in '\n' has no empty last
// line and an empty text has no line, unless `empty_last` asks for the piece
// after the last '\n' even when it is empty (then "" is one empty line, and
// "a\n" is "a" and "").
class Lines {
 public:
  explicit Lines(std::string_view text, bool empty_last = false)
      : text_(text), limit_(empty_last ? text.size() + 1 : text.size()) {}

  class Iterator {
   public:
    Iterator(const Lines* lines, size_t pos) : lines_(lines), pos_(pos) { Find(); }
    std::string_view operator*() const { return lines_->text_.substr(pos_, end_ - pos_); }
    Iterator& operator++() {
      pos_ = end_ + 1;
      Find();
      return *this;
    }
    bool operator!=(const Iterator& other) const { return pos_ != other.pos_; }

   private:
    // The line at pos_, or the end (pos_ at the limit).
    void Find() {
      if (pos_ >= lines_->limit_) {
        pos_ = end_ = lines_->limit_;
        return;
      }
      end_ = lines_->text_.find('\n', pos_);
      if (end_ == std::string_view::npos) end_ = lines_->text_.size();
    }
    const Lines* lines_;
    size_t pos_;
    size_t end_ = 0;
  };

  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(this, limit_); }

 private:
  std::string_view text_;
  size_t limit_;
};

}  // namespace lore::text
