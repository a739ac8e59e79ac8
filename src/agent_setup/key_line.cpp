#include "agent_setup/key_line.h"

#include "json/scanner.h"

namespace lore::agent_setup {
namespace {

// Follows the open containers and stops at the first key on the path.
class KeyFinder {
 public:
  KeyFinder(std::string_view text, const std::vector<std::string>& keys)
      : text_(text), keys_(keys) {}

  std::string error;
  bool BeginObject() { return Push(true); }
  bool BeginArray() { return Push(false); }
  bool EndObject() { return Pop(); }
  bool EndArray() { return Pop(); }
  bool String(std::string_view, bool) { return true; }
  bool Number(std::string_view, bool) { return true; }
  bool Literal(std::string_view) { return true; }

  bool Key(std::string_view raw, bool escaped) {
    Frame& top = frames_.back();
    top.key = escaped ? std::string() : std::string(raw);
    top.escaped = escaped;
    if (!OnPath()) return true;
    offset_ = static_cast<size_t>(raw.data() - text_.data());
    found_ = true;
    error = "found";
    return false;  // stop the scan
  }

  bool found() const { return found_; }
  size_t offset() const { return offset_; }

 private:
  struct Frame {
    bool object;
    std::string key;
    bool escaped = false;
  };
  bool Push(bool object) {
    frames_.push_back({object, {}, false});
    return true;
  }
  bool Pop() {
    frames_.pop_back();
    return true;
  }
  // True when the keys of the open objects, the innermost one's current key
  // last, are exactly keys_.
  bool OnPath() const {
    size_t i = 0;
    for (const Frame& f : frames_) {
      if (!f.object) continue;
      if (i >= keys_.size() || f.escaped || f.key != keys_[i]) return false;
      ++i;
    }
    return i == keys_.size();
  }

  std::string_view text_;
  const std::vector<std::string>& keys_;
  std::vector<Frame> frames_;
  bool found_ = false;
  size_t offset_ = 0;
};

}  // namespace

int64_t LineOfKey(std::string_view text, const std::vector<std::string>& keys) {
  if (keys.empty()) return 0;
  KeyFinder finder(text, keys);
  json::Limits limits;
  limits.max_bytes = text.size();
  limits.dialect = json::Dialect::kJavaScript;
  json::internal::Scanner<KeyFinder> scanner(text, limits, finder);
  scanner.Run();
  if (!finder.found()) return 0;
  return json::internal::LineOf(text, finder.offset());
}

}  // namespace lore::agent_setup
