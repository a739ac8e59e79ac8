#include "distill/flat_record.h"

#include <algorithm>

#include "json/scanner.h"
#include "json/strings.h"

namespace lore::distill {
namespace {

// Every key any heuristic of record_fields.cpp reads.
constexpr std::string_view kKeys[] = {
    "advice",     "body",     "change",         "comment",     "comments",   "confidence",
    "created_at", "decision", "depth",          "description", "expires_at", "file",
    "file_paths", "files",    "finding",        "findings",    "fix",        "gotcha",
    "gotchas",    "id",       "impact",         "insight",     "issue",      "issue_id",
    "issues",     "kind",     "learning",       "lesson",      "level",      "location",
    "locations",  "message",  "name",           "note",        "outcome",    "path",
    "paths",      "pr",       "priority",       "problem",     "problems",   "pull_request",
    "rationale",  "reason",   "recommendation", "recorded_at", "severity",   "subject",
    "suggestion", "summary",  "takeaway",       "text",        "ticket",     "ticket_id",
    "title",      "traits",   "type",           "verbs",       "verdict",    "why"};

// The static copy of `key` when it is one of kKeys, else an empty view.
std::string_view Intern(std::string_view key) {
  static const std::vector<std::string_view> sorted = [] {
    std::vector<std::string_view> v(std::begin(kKeys), std::end(kKeys));
    std::sort(v.begin(), v.end());
    return v;
  }();
  auto it = std::lower_bound(sorted.begin(), sorted.end(), key);
  return it != sorted.end() && *it == key ? *it : std::string_view();
}

constexpr int kMaxTrackedObjects = 3;  // the record, a findings item, a file object in it

// Receives the tokens of lore::json's scanner (json/scanner.h).
class Handler {
 public:
  explicit Handler(Flat* root) : root_(root) {}

  bool not_object = false;
  std::string error;

  bool Literal(std::string_view w) {
    if (w == "true" || w == "false" || w == "null") return Scalar(nullptr);
    std::string s(w);  // NaN, Infinity, -Infinity (a Python writer's numbers)
    return Scalar(&s);
  }
  // Numbers keep their text as written.
  bool Number(std::string_view lexeme, bool) {
    std::string s(lexeme);
    return Scalar(&s);
  }
  bool String(std::string_view raw, bool escaped) {
    std::string s = escaped ? json::internal::DecodeString(raw) : std::string(raw);
    return Scalar(&s);
  }
  bool BeginObject() { return start_object(); }
  bool EndObject() { return Pop(); }
  bool BeginArray() { return start_array(); }
  bool EndArray() { return end_array(); }
  bool Key(std::string_view raw, bool escaped) {
    if (!escaped) return key(raw);
    return key(json::internal::DecodeString(raw));
  }

 private:
  bool start_object() {
    if (stack_.empty()) {
      stack_.push_back({root_, nullptr});
      ++tracked_objects_;
      return true;
    }
    Frame& top = stack_.back();
    if (top.list && tracked_objects_ < kMaxTrackedObjects) {
      top.list->objects.emplace_back();
      top.list->items.push_back({{}, static_cast<int>(top.list->objects.size() - 1)});
      stack_.push_back({&top.list->objects.back(), nullptr});
      ++tracked_objects_;
    } else {
      stack_.push_back({nullptr, nullptr});
    }
    return true;
  }
  bool start_array() {
    if (stack_.empty()) {
      not_object = true;
      return false;
    }
    Frame& top = stack_.back();
    FlatValue* slot = top.object ? pending_ : nullptr;
    pending_ = nullptr;
    if (slot) slot->list = true;
    stack_.push_back({nullptr, slot});
    return true;
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  bool key(std::string_view k) {
    Frame& top = stack_.back();
    pending_ = nullptr;
    if (!top.object) return true;
    std::string_view interned = Intern(k);
    if (!interned.empty()) pending_ = top.object->Slot(interned);
    return true;
  }
  struct Frame {
    Flat* object;     // a tracked object, else null
    FlatValue* list;  // a tracked array, else null
  };

  bool Scalar(std::string* text) {
    if (stack_.empty()) {
      not_object = true;
      return false;
    }
    Frame& top = stack_.back();
    if (top.list) {
      if (text) top.list->items.push_back({std::move(*text), -1});
    } else if (pending_ && text) {
      pending_->scalar = true;
      pending_->list = false;
      pending_->text = std::move(*text);
    }
    pending_ = nullptr;
    return true;
  }
  bool Pop() {
    if (stack_.back().object) --tracked_objects_;
    stack_.pop_back();
    pending_ = nullptr;
    return true;
  }

  Flat* root_;
  std::vector<Frame> stack_;
  FlatValue* pending_ = nullptr;
  int tracked_objects_ = 0;
};

}  // namespace

const FlatValue* Flat::Find(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

FlatValue* Flat::Slot(std::string_view interned_key) {
  for (auto& [k, v] : fields) {
    if (k == interned_key) {
      v = FlatValue();  // a repeated key: the last one counts, as in a full parse
      return &v;
    }
  }
  fields.push_back({interned_key, FlatValue()});
  return &fields.back().second;
}

bool ParseFlat(std::string_view line, Flat* out) {
  static const json::Limits limits = json::ForeignLogLine();
  Handler h(out);
  json::internal::Scanner<Handler> scanner(line, limits, h);
  return scanner.Run() && !h.not_object;
}

}  // namespace lore::distill
