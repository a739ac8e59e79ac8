#include "doc/yaml_emit.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "doc/yaml_value.h"
#include "lore/text/utf8.h"

namespace lore::doc {
namespace {

bool IsIndicator(char c) {
  static constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  return kIndicators.find(c) != std::string_view::npos;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// Words a YAML 1.1 or 1.2 parser reads as null, a boolean or a number.
bool ResolvesToNonString(std::string_view s) {
  static const std::vector<std::string_view> kWords = {
      "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n", ".inf", "+.inf", ".nan",
      // YAML 1.1's merge and value keys (found by the record property test).
      "<<", "="};
  std::string lower = Lower(s);
  for (std::string_view w : kWords) {
    if (lower == w) return true;
  }
  // A sign before a number or .inf: "-1", "-.inf" (found by the record property test).
  if (s.size() > 1 && (s.front() == '-' || s.front() == '+')) {
    if (Lower(s.substr(1)) == ".inf") return true;
    s.remove_prefix(1);
  }
  char first = s.front();
  if (!((first >= '0' && first <= '9') || first == '+' || first == '.')) return false;
  static constexpr std::string_view kNumberChars = "0123456789abcdefABCDEFxXoO+-._:";
  return s.find_first_not_of(kNumberChars) == std::string_view::npos;
}

// Unicode characters YAML treats as line breaks or that are invisible.
bool HasSpecialUnicode(std::string_view s) {
  return s.find("\xC2\x85") != std::string_view::npos ||
         s.find("\xE2\x80\xA8") != std::string_view::npos ||
         s.find("\xE2\x80\xA9") != std::string_view::npos ||
         s.find("\xEF\xBB\xBF") != std::string_view::npos;
}

// Text that is not UTF-8 cannot be written in YAML at all (a record file must be UTF-8, and
// escapes name code points, not bytes): every invalid sequence is written as U+FFFD, the one
// thing the emitter changes (docs/records.md).
std::string DoubleQuoted(std::string_view text) {
  const std::string valid =
      text::IsValidUtf8(text) ? std::string() : text::ReplaceInvalidUtf8(text);
  const std::string_view s = valid.empty() ? text : std::string_view(valid);
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::string_view rest = s.substr(i);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else if (rest.substr(0, 2) == "\xC2\x85") {
      out += "\\u0085";
      i += 1;
    } else if (rest.substr(0, 3) == "\xE2\x80\xA8") {
      out += "\\u2028";
      i += 2;
    } else if (rest.substr(0, 3) == "\xE2\x80\xA9") {
      out += "\\u2029";
      i += 2;
    } else if (rest.substr(0, 3) == "\xEF\xBB\xBF") {
      out += "\\uFEFF";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
  return out;
}

std::string FlowSlugs(const std::vector<std::string>& slugs) {
  std::string out = "[";
  for (size_t i = 0; i < slugs.size(); ++i) {
    if (i) out += ", ";
    out += EmitString(slugs[i], ScalarContext::kFlow);
  }
  return out + "]";
}

std::string FlowRange(const Range& r) {
  return "[" + std::to_string(r.from) + ", " + std::to_string(r.to) + "]";
}

void EmitSources(std::string& out, std::string_view key, const std::vector<Source>& sources) {
  out += key;
  if (sources.empty()) {
    out += ": []\n";
    return;
  }
  out += ":\n";
  for (const Source& s : sources) {
    out += "  - session_id: " + EmitString(s.session_id) + "\n";
    out += "    range: " + FlowRange(s.range) + "\n";
  }
}

void Line(std::string& out, std::string_view key, const std::string& value) {
  out += key;
  out += ": ";
  out += value;
  out += '\n';
}

const char* Bool(bool b) { return b ? "true" : "false"; }

}  // namespace

namespace detail {

bool IsPlainSafe(std::string_view s, ScalarContext context, bool check_resolution) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || !text::IsValidUtf8(s)) return false;
  // A leading '-' before a digit or '.' starts a plain scalar ("-1", "-.inf"), not an entry:
  // quoting it would make a number a string (found by the record property test).
  const bool negative = s.front() == '-' && s.size() > 1 &&
                        (std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.');
  if (IsIndicator(s.front()) && !negative) return false;
  // "..." starts a line that ends the document: as a key at column 0 it lost the entry and every
  // one after it (found by the record property test).
  if (s.substr(0, 3) == "...") return false;
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f) return false;
    // In flow collections yaml-cpp reads more than the spec's indicators
    // (`{a? b: c}` fails, found by the record fuzzer): quote whatever holds
    // an indicator character anywhere; a double-quoted string means the same.
    if (context == ScalarContext::kFlow &&
        std::string_view(",[]{}?:#&*!|>'\"%@`").find(static_cast<char>(c)) !=
            std::string_view::npos) {
      return false;
    }
  }
  if (s.find(": ") != std::string_view::npos || s.find(" #") != std::string_view::npos ||
      s.back() == ':' || HasSpecialUnicode(s)) {
    return false;
  }
  return !check_resolution || !ResolvesToNonString(s);
}

std::string Quote(std::string_view s) { return DoubleQuoted(s); }

bool IsKeyName(std::string_view key) {
  // YAML allows an implicit key of at most 1024 characters: a longer one (which yaml-cpp read as
  // a key anyway, found by the fuzzer; or refused the whole frontmatter for, found by the record
  // property test) could not be written back as a key. The limit holds for the key as written,
  // quotes and escapes included (a key of NEL characters grows past it when quoted).
  return !key.empty() && key.size() <= kMaxKeyBytes && text::IsValidUtf8(key) &&
         key.front() != ' ' && key.back() != ' ' &&
         std::none_of(key.begin(), key.end(),
                      [](char c) {
                        auto u = static_cast<unsigned char>(c);
                        return u < 0x20 || u == 0x7f;
                      }) &&
         EmitString(key).size() <= kMaxKeyBytes;
}

}  // namespace detail

std::string EmitString(std::string_view text, ScalarContext context) {
  // Cleaned first, so that the text read back is written the same way again.
  const std::string valid =
      text::IsValidUtf8(text) ? std::string() : text::ReplaceInvalidUtf8(text);
  const std::string_view s = valid.empty() ? text : std::string_view(valid);
  if (detail::IsPlainSafe(s, context, true)) return std::string(s);
  return DoubleQuoted(s);
}

std::string EmitFields(const Fields& f) {
  std::string out;
  if (f.created_at) Line(out, "created_at", EmitString(*f.created_at));
  if (f.updated_at) Line(out, "updated_at", EmitString(*f.updated_at));
  if (f.kind) Line(out, "kind", EmitString(*f.kind));
  if (f.description) Line(out, "description", EmitString(*f.description));
  if (f.status) Line(out, "status", EmitString(*f.status));
  if (f.replaced_by) Line(out, "replaced_by", EmitString(*f.replaced_by));
  if (f.model_invokation) Line(out, "model_invokation", Bool(*f.model_invokation));
  if (f.auto_invoke) Line(out, "auto_invoke", Bool(*f.auto_invoke));
  if (f.user_invocable) Line(out, "user_invocable", Bool(*f.user_invocable));
  if (f.requirements) Line(out, "requires", FlowSlugs(*f.requirements));
  if (f.last_rewritten_from_range) {
    Line(out, "last_rewritten_from_range", FlowRange(*f.last_rewritten_from_range));
  }
  if (f.sources) EmitSources(out, "sources", *f.sources);
  if (f.last_sources) EmitSources(out, "last_sources", *f.last_sources);
  for (const RawEntry& e : f.extra) {
    if (detail::HasTypedValue(f, e.key)) continue;
    out += e.text;
    if (!e.text.empty() && e.text.back() != '\n') out += '\n';
  }
  return out;
}

}  // namespace lore::doc
