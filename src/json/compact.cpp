#include "json/compact.h"

#include <unordered_set>

#include "json/scanner.h"
#include "json/strings.h"

namespace lore::json {
namespace {

// Appends the bytes of a string token, escaping the three code points that
// Python's splitlines() treats as line breaks.
void AppendRaw(std::string* out, std::string_view raw) {
  size_t from = 0;
  for (size_t i = 0; i + 1 < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    const unsigned char c1 = static_cast<unsigned char>(raw[i + 1]);
    const char* escape = nullptr;
    size_t len = 0;
    if (c == 0xC2 && c1 == 0x85) {
      escape = "\\u0085", len = 2;
    } else if (c == 0xE2 && c1 == 0x80 && i + 2 < raw.size() &&
               (static_cast<unsigned char>(raw[i + 2]) == 0xA8 ||
                static_cast<unsigned char>(raw[i + 2]) == 0xA9)) {
      escape = static_cast<unsigned char>(raw[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029", len = 3;
    }
    if (!escape) continue;
    out->append(raw.substr(from, i - from));
    out->append(escape);
    i += len - 1;
    from = i + 1;
  }
  out->append(raw.substr(from));
}

// Writes the tokens back without white space; replaces or adds top-level
// members when given some.
class Writer {
 public:
  Writer(const std::vector<Member>* members, const StringFilter* filter)
      : members_(members), filter_(filter) {
    if (members_) seen_.assign(members_->size(), false);
  }

  std::string error;
  std::string out;
  bool top_is_object = false;

  bool BeginObject() { return Open('{', true); }
  bool BeginArray() { return Open('[', false); }
  bool EndObject() { return Close('}'); }
  bool EndArray() { return Close(']'); }
  bool Key(std::string_view raw, bool escaped) {
    if (skip_) return true;
    Separate();
    if (members_ && depth_ == 1) {
      std::string key = escaped ? internal::DecodeString(raw) : std::string(raw);
      for (size_t i = 0; i < members_->size(); ++i) {
        if ((*members_)[i].key != key) continue;
        seen_[i] = true;
        out += '"';
        AppendRaw(&out, raw);
        out += "\":";
        out += (*members_)[i].value_json;
        skip_ = true;  // the value as written is replaced
        skip_from_ = depth_;
        return true;
      }
    }
    if (filter_) return FilteredKey(raw, escaped);
    out += '"';
    AppendRaw(&out, raw);
    out += "\":";
    after_key_ = true;
    return true;
  }
  bool String(std::string_view raw, bool escaped) {
    if (Skipped()) return true;
    if (filter_ && Filtered(raw, escaped)) return true;
    Separate();
    out += '"';
    AppendRaw(&out, raw);
    out += '"';
    return true;
  }
  bool Number(std::string_view lexeme, bool) { return Word(lexeme); }
  bool Literal(std::string_view lexeme) { return Word(lexeme); }

 private:
  // A key passed through the filter (with an empty name): kept as written,
  // or replaced and written with Quote. A key equal to one written before in
  // its object (two keys replaced alike) gets "~2", "~3", ...: the line keeps
  // one member per key.
  bool FilteredKey(std::string_view raw, bool escaped) {
    name_ = escaped ? internal::DecodeString(raw) : std::string(raw);
    std::string replaced;
    const bool changed = (*filter_)(std::string_view(), name_, &replaced);
    std::string key = changed ? replaced : name_;
    std::unordered_set<std::string>& seen = keys_[first_.size()];
    for (int n = 2; seen.count(key); ++n)
      key = (changed ? replaced : name_) + "~" + std::to_string(n);
    if (changed || key != name_) {
      out += Quote(key);
    } else {
      out += '"';
      AppendRaw(&out, raw);
      out += '"';
    }
    out += ':';
    seen.insert(std::move(key));
    after_key_ = true;
    return true;
  }
  // Writes the filter's replacement of a string value, if it has one.
  bool Filtered(std::string_view raw, bool escaped) {
    std::string decoded = escaped ? internal::DecodeString(raw) : std::string();
    std::string replaced;
    if (!(*filter_)(after_key_ ? std::string_view(name_) : std::string_view(),
                    escaped ? std::string_view(decoded) : raw, &replaced)) {
      return false;
    }
    Separate();
    out += Quote(replaced);
    return true;
  }
  bool Word(std::string_view w) {
    if (Skipped()) return true;
    Separate();
    out.append(w);
    return true;
  }
  // True while the value of a replaced member is being passed over; a scalar
  // directly in the object ends it.
  bool Skipped() {
    if (!skip_) return false;
    if (depth_ == skip_from_) skip_ = false;
    return true;
  }
  bool Open(char c, bool object) {
    if (depth_ == 0) top_is_object = object;
    if (skip_) {
      ++depth_;
      return true;
    }
    Separate();
    out += c;
    first_.push_back(true);
    if (filter_) {
      if (keys_.size() <= first_.size()) keys_.resize(first_.size() + 1);
      keys_[first_.size()].clear();
      // The members set at the top are taken: a replaced key never equals one.
      if (members_ && depth_ == 0) {
        for (const Member& m : *members_) keys_[first_.size()].insert(m.key);
      }
    }
    ++depth_;
    return true;
  }
  bool Close(char c) {
    --depth_;
    if (skip_) {
      if (depth_ == skip_from_) skip_ = false;
      return true;
    }
    if (members_ && depth_ == 0 && c == '}') {
      for (size_t i = 0; i < members_->size(); ++i) {
        if (seen_[i]) continue;
        Separate();
        out += Quote((*members_)[i].key);
        out += ':';
        out += (*members_)[i].value_json;
      }
    }
    first_.pop_back();
    out += c;
    return true;
  }
  void Separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out += ',';
    first_.back() = false;
  }

  const std::vector<Member>* members_;
  const StringFilter* filter_;
  std::string name_;  // the key whose value comes next, when filtering
  std::vector<bool> seen_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  // When filtering: per depth, the keys written in the object open there.
  std::vector<std::unordered_set<std::string>> keys_;
  int depth_ = 0;
  bool after_key_ = false;
  bool skip_ = false;
  int skip_from_ = 0;
};

Result<std::string> Run(std::string_view text, const Limits& limits,
                        const std::vector<Member>* members, const Source& source,
                        const StringFilter* filter = nullptr) {
  Writer w(members, filter);
  internal::Scanner<Writer> scanner(text, limits, w);
  if (!scanner.Run()) {
    const auto& e = scanner.error();
    int64_t line = source.first_line + internal::LineOf(text, e.offset) - 1;
    return Fail(ErrorCode::kInvalidInput, "not valid JSON: " + e.what, source.path,
                source.path.empty() ? 0 : line, source.repair);
  }
  if (members && !w.top_is_object) {
    return Fail(ErrorCode::kInvalidInput, "JSON but not an object", source.path,
                source.path.empty() ? 0 : source.first_line, source.repair);
  }
  return std::move(w.out);
}

}  // namespace

Result<std::string> CompactObjectWith(std::string_view text, const Limits& limits,
                                      const std::vector<Member>& members, const Source& source,
                                      const StringFilter* filter) {
  return Run(text, limits, &members, source, filter);
}

Result<std::string> Compact(std::string_view text, const Limits& limits, const Source& source) {
  return Run(text, limits, nullptr, source);
}

std::string Quote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  std::string body;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        body += "\\\"";
        break;
      case '\\':
        body += "\\\\";
        break;
      case '\b':
        body += "\\b";
        break;
      case '\f':
        body += "\\f";
        break;
      case '\n':
        body += "\\n";
        break;
      case '\r':
        body += "\\r";
        break;
      case '\t':
        body += "\\t";
        break;
      default:
        if (c < 0x20) {
          body += "\\u00";
          body += kHex[c >> 4];
          body += kHex[c & 15];
        } else {
          body += ch;
        }
    }
  }
  AppendRaw(&out, body);
  out += '"';
  return out;
}

}  // namespace lore::json
