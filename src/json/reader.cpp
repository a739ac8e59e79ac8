#include "lore/json/reader.h"
#include "lore/json/value.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_set>

#include "json/scanner.h"
#include "json/strings.h"

namespace lore::json {
namespace internal {

bool KeySet::Add(std::string_view raw, bool escaped) {
  std::string_view key = raw;
  if (escaped) {
    owned_.push_back(DecodeString(raw));
    key = owned_.back();
  }
  if (views_.size() < kLinearMax) {
    for (std::string_view k : views_) {
      if (k == key) return false;
    }
    views_.push_back(key);
    if (views_.size() == kLinearMax) set_.insert(views_.begin(), views_.end());
    return true;
  }
  return set_.insert(key).second;
}

int64_t LineOf(std::string_view text, size_t offset) {
  int64_t line = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) line += text[i] == '\n';
  return line;
}

}  // namespace internal
namespace {

// Accepts every token: the scanner alone decides validity.
struct NullHandler {
  std::string error;
  bool BeginObject() { return true; }
  bool EndObject() { return true; }
  bool BeginArray() { return true; }
  bool EndArray() { return true; }
  bool Key(std::string_view, bool) { return true; }
  bool String(std::string_view, bool) { return true; }
  bool Number(std::string_view, bool) { return true; }
  bool Literal(std::string_view) { return true; }
};

// A double from a number lexeme; +-inf or 0 when out of range (`*overflow`
// set for +-inf).
double ToDouble(std::string_view lexeme, bool* overflow) {
  double d = 0;
  auto [end, ec] = std::from_chars(lexeme.data(), lexeme.data() + lexeme.size(), d);
  *overflow = false;
  if (ec == std::errc() && end == lexeme.data() + lexeme.size()) return d;
  // Out of range: strtod tells overflow (HUGE_VAL) from underflow (0).
  std::string copy(lexeme);
  errno = 0;
  d = std::strtod(copy.c_str(), nullptr);
  *overflow = std::isinf(d);
  return d;
}

// Builds the value in memory; one pointer per open container.
template <class J>
class DomBuilder {
 public:
  explicit DomBuilder(Dialect dialect) : dialect_(dialect) {}

  std::string error;
  J root;

  bool BeginObject() { return Push(J::object()); }
  bool BeginArray() { return Push(J::array()); }
  bool EndObject() {
    stack_.pop_back();
    return true;
  }
  bool EndArray() { return EndObject(); }
  bool Key(std::string_view raw, bool escaped) {
    key_ = escaped ? internal::DecodeString(raw) : std::string(raw);
    return true;
  }
  bool String(std::string_view raw, bool escaped) {
    Insert(escaped ? J(internal::DecodeString(raw)) : J(std::string(raw)));
    return true;
  }
  bool Number(std::string_view lexeme, bool integral) {
    if (integral) {
      const char* b = lexeme.data();
      const char* e = b + lexeme.size();
      if (lexeme[0] == '-') {
        int64_t v = 0;
        if (auto r = std::from_chars(b, e, v); r.ec == std::errc() && r.ptr == e) {
          Insert(J(v));
          return true;
        }
      } else {
        uint64_t v = 0;
        if (auto r = std::from_chars(b, e, v); r.ec == std::errc() && r.ptr == e) {
          Insert(J(v));
          return true;
        }
      }
    }
    bool overflow = false;
    double d = ToDouble(lexeme, &overflow);
    if (overflow && dialect_ == Dialect::kStrict) {
      error = "number " + std::string(lexeme.substr(0, 40)) + " is out of range";
      return false;
    }
    Insert(J(d));
    return true;
  }
  bool Literal(std::string_view w) {
    if (w == "true") {
      Insert(J(true));
    } else if (w == "false") {
      Insert(J(false));
    } else if (w == "null") {
      Insert(J(nullptr));
    } else if (w == "NaN") {
      Insert(J(std::numeric_limits<double>::quiet_NaN()));
    } else {
      double inf = std::numeric_limits<double>::infinity();
      Insert(J(w[0] == '-' ? -inf : inf));
    }
    return true;
  }

 private:
  // Places `v` where the next value goes and returns it.
  J* Insert(J v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    J* top = stack_.back();
    if (top->is_array()) {
      top->push_back(std::move(v));
      return &top->back();
    }
    J& slot = (*top)[key_];  // a repeated key (Python dialect): the last value wins
    slot = std::move(v);
    return &slot;
  }
  // A child's address stays valid while it is open: its parent is not
  // changed until the child is closed.
  bool Push(J v) {
    stack_.push_back(Insert(std::move(v)));
    return true;
  }

  Dialect dialect_;
  std::vector<J*> stack_;
  std::string key_;
};

Error MakeError(std::string_view text, const internal::ScanError& e, const Source& source) {
  int64_t line = source.first_line + internal::LineOf(text, e.offset) - 1;
  return Error{ErrorCode::kInvalidInput, "not valid JSON: " + e.what, source.path,
               source.path.empty() ? 0 : line, source.repair};
}

template <class J>
Result<J> ParseAs(std::string_view text, Limits limits, const Source& source) {
  if (limits.max_depth > kMaxDepth) limits.max_depth = kMaxDepth;
  DomBuilder<J> builder(limits.dialect);
  internal::Scanner<DomBuilder<J>> scanner(text, limits, builder);
  if (!scanner.Run()) return tl::unexpected(MakeError(text, scanner.error(), source));
  return std::move(builder.root);
}

}  // namespace

Limits ForeignLogLine() {
  Limits l;
  l.max_bytes = size_t{16} << 20;  // log::kMaxLineBytes
  l.max_depth = kMaxDepth;
  l.dialect = Dialect::kPython;
  return l;
}

Status Check(std::string_view text, const Limits& limits, const Source& source) {
  NullHandler h;
  internal::Scanner<NullHandler> scanner(text, limits, h);
  if (!scanner.Run()) return tl::unexpected(MakeError(text, scanner.error(), source));
  return Ok();
}

Result<Json> ParseOrdered(std::string_view text, const Limits& limits, const Source& source) {
  return ParseAs<Json>(text, limits, source);
}

Result<SortedJson> Parse(std::string_view text, const Limits& limits, const Source& source) {
  return ParseAs<SortedJson>(text, limits, source);
}

}  // namespace lore::json
