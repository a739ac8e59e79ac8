#include "activity/defines.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kMaxScan = 64 * 1024;  // of the new text
constexpr size_t kMaxNames = 24;
constexpr size_t kMaxName = 80;

bool IdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

std::string_view SkipSpace(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  return a == std::string_view::npos ? std::string_view{} : s.substr(a);
}

// `s` without `word` and the white space after it when it starts with the
// word and a space.
bool Strip(std::string_view& s, std::string_view word) {
  if (s.size() > word.size() && s.starts_with(word) &&
      (s[word.size()] == ' ' || s[word.size()] == '\t')) {
    s = SkipSpace(s.substr(word.size()));
    return true;
  }
  return false;
}

// The identifier `s` starts with ("get_page(", "Ledgerly.Money do", "Store)"):
// letters, digits, '_', '$', and the '.' and "::" of a qualified name.
std::string_view Ident(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && i < kMaxName) {
    if (IdentChar(s[i])) {
      ++i;
    } else if ((s[i] == '.' || s[i] == ':') && i > 0 && i + 1 < s.size() &&
               (IdentChar(s[i + 1]) || (s[i] == ':' && s[i + 1] == ':'))) {
      i += s.substr(i).starts_with("::") ? 2 : 1;
    } else {
      break;
    }
  }
  std::string_view id = s.substr(0, i);
  while (!id.empty() && (id.back() == '.' || id.back() == ':')) id.remove_suffix(1);
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) return {};
  return id;
}

// The string a test is named by: `"retries a 429"` or `'x'` at the start of `s`.
std::string_view Quoted(std::string_view s) {
  if (s.empty() || (s[0] != '"' && s[0] != '\'' && s[0] != '`')) return {};
  size_t close = s.find(s[0], 1);
  if (close == std::string_view::npos || close == 1 || close > kMaxName) return {};
  return s.substr(1, close - 1);
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The name one line defines, or "". `prose`: the line is a Markdown file's
// text (its headings count, no keyword does), `code`: a line of code or of a
// fenced block.
std::string NameOn(std::string_view raw, bool prose) {
  std::string_view l = SkipSpace(raw);
  if (l.empty()) return "";
  if (prose) {  // a Markdown heading: "## Environment variables"
    size_t hashes = l.find_first_not_of('#');
    if (raw.front() != '#' || hashes == std::string_view::npos || hashes > 4 || l[hashes] != ' ')
      return "";
    std::string_view heading = text::Trim(l.substr(hashes));
    return heading.size() >= 3 && heading.size() <= kMaxName ? std::string(heading) : "";
  }
  if (l.starts_with("#define ")) return std::string(Ident(SkipSpace(l.substr(8))));
  // Tests named by a macro or a string.
  for (std::string_view macro : {"TEST(", "TEST_F(", "TEST_P(", "TYPED_TEST("}) {
    if (l.starts_with(macro)) {
      std::string_view rest = l.substr(macro.size());
      std::string_view suite = Ident(SkipSpace(rest));
      size_t comma = rest.find(',');
      if (suite.empty() || comma == std::string_view::npos) return "";
      std::string_view name = Ident(SkipSpace(rest.substr(comma + 1)));
      return name.empty() ? "" : std::string(suite) + "." + std::string(name);
    }
  }
  for (std::string_view call : {"test", "it", "describe", "context", "scenario", "feature"}) {
    if (!l.starts_with(call) || l.size() <= call.size()) continue;
    std::string_view rest = l.substr(call.size());
    if (rest[0] == '(')
      rest = SkipSpace(rest.substr(1));
    else if (rest[0] == ' ')
      rest = SkipSpace(rest);
    else
      continue;
    if (std::string_view q = Quoted(rest); !q.empty()) return std::string(q);
  }
  // An environment variable set at the line's start: `R2_ACCOUNT_ID=`, `export PORT=8080`.
  {
    std::string_view v = l;
    Strip(v, "export");
    size_t eq = v.find('=');
    if (eq != std::string_view::npos && eq >= 3 && eq <= 64 &&
        std::all_of(v.begin(), v.begin() + static_cast<long>(eq),
                    [](char c) {
                      return std::isupper(static_cast<unsigned char>(c)) ||
                             std::isdigit(static_cast<unsigned char>(c)) || c == '_';
                    }) &&
        std::isupper(static_cast<unsigned char>(v[0])))
      return std::string(v.substr(0, eq));
  }
  // SQL: the table or index a statement creates, the column it adds.
  {
    const std::string low = Lower(l.substr(0, 200));
    std::string_view s = low;
    auto at = [&](std::string_view rest) { return Ident(l.substr(rest.data() - low.data())); };
    if (Strip(s, "create")) {
      Strip(s, "unique");
      if (Strip(s, "table") || Strip(s, "index") || Strip(s, "view")) {
        Strip(s, "concurrently");
        if (s.starts_with("if not exists ")) s = SkipSpace(s.substr(14));
        return std::string(at(s));
      }
    } else if (Strip(s, "alter") && Strip(s, "table")) {
      size_t add = s.find(" add column ");
      if (add != std::string_view::npos) {
        std::string_view rest = SkipSpace(s.substr(add + 12));
        if (rest.starts_with("if not exists ")) rest = SkipSpace(rest.substr(14));
        return std::string(at(rest));
      }
    }
  }
  // A definition: modifiers, a keyword, then the name.
  std::string_view s = l;
  for (bool more = true; more;) {
    more = false;
    for (std::string_view m :
         {"export",    "default",  "async",   "pub",      "pub(crate)", "public", "private",
          "protected", "internal", "static",  "override", "abstract",   "final",  "open",
          "data",      "sealed",   "suspend", "inline",   "unsafe",     "extern", "declare"}) {
      if (Strip(s, m)) more = true;
    }
  }
  static constexpr std::array<std::string_view, 20> kKeywords = {
      "def",       "defp",     "defmodule", "defmacro", "class",     "module", "fn",
      "func",      "function", "fun",       "struct",   "enum",      "trait",  "impl",
      "interface", "type",     "mod",       "object",   "namespace", "record"};
  if (s.starts_with("impl<")) {  // impl<T> Cache<T>: the generics follow at once
    size_t close = s.find('>');
    if (close == std::string_view::npos) return "";
    std::string_view name = Ident(SkipSpace(s.substr(close + 1)));
    return name.size() < 2 ? "" : std::string(name);
  }
  for (std::string_view k : kKeywords) {
    if (!Strip(s, k)) continue;
    if (k == "func" && !s.empty() && s[0] == '(') {  // Go's receiver: func (s *Store) Get(
      size_t close = s.find(')');
      if (close == std::string_view::npos) return "";
      s = SkipSpace(s.substr(close + 1));
    }
    std::string_view name = Ident(s);
    if (name.size() < 2) return "";
    if (k == "def" && name.starts_with("self.")) name.remove_prefix(5);  // Ruby's def self.x
    return std::string(name);
  }
  // A function held by a variable: `const parseLocation = (`, `export const router =`.
  if (Strip(s, "const") || Strip(s, "let") || Strip(s, "var")) {
    std::string_view name = Ident(s);
    std::string_view rest = SkipSpace(s.substr(name.size()));
    if (name.size() < 2 || !rest.starts_with("=")) return "";
    rest = SkipSpace(rest.substr(1));
    const bool exported = l.starts_with("export");
    if (exported || rest.starts_with("(") || rest.starts_with("async") ||
        rest.starts_with("function"))
      return std::string(name);
  }
  return "";
}

// The environment variables a Markdown line documents: code spans holding a
// name in capitals with an underscore ("- `R2_ACCOUNT_ID`, `R2_BUCKET` …").
void VariablesNamed(std::string_view line, std::vector<std::string>* out) {
  for (size_t a = line.find('`'); a != std::string_view::npos; a = line.find('`', a + 1)) {
    size_t b = line.find('`', a + 1);
    if (b == std::string_view::npos) return;
    std::string_view span = line.substr(a + 1, b - a - 1);
    a = b;
    if (span.size() < 4 || span.size() > 64 || span.find('_') == std::string_view::npos ||
        !std::isupper(static_cast<unsigned char>(span[0])) ||
        !std::all_of(span.begin(), span.end(), [](char c) {
          return std::isupper(static_cast<unsigned char>(c)) ||
                 std::isdigit(static_cast<unsigned char>(c)) || c == '_';
        }))
      continue;
    out->emplace_back(span);
  }
}

}  // namespace

std::string DefinedNames(std::string_view path, std::string_view text, size_t max_bytes) {
  if (text.size() > kMaxScan) text = text.substr(0, kMaxScan);
  std::string ext = Lower(path.substr(std::min(path.size(), path.rfind('.') + 1)));
  const bool markdown = path.rfind('.') != std::string_view::npos &&
                        (ext == "md" || ext == "markdown" || ext == "mdx" || ext == "rst");
  std::vector<std::string> names;
  bool fence = false;
  for (std::string_view line : text::Lines(text)) {
    if (names.size() >= kMaxNames) break;
    if (SkipSpace(line).starts_with("```")) {
      fence = !fence;
      continue;
    }
    // A Markdown file's headings, and what its fenced blocks of code define.
    std::vector<std::string> found = {NameOn(line, markdown && !fence)};
    if (markdown && !fence) VariablesNamed(line, &found);
    for (std::string& name : found) {
      if (name.empty() || name.size() > kMaxName || names.size() >= kMaxNames) continue;
      if (std::find(names.begin(), names.end(), name) == names.end())
        names.push_back(std::move(name));
    }
  }
  std::string out;
  for (const auto& n : names) {
    if (out.size() + n.size() + 2 > max_bytes) break;
    out += (out.empty() ? "" : ", ") + n;
  }
  return out;
}

}  // namespace lore::activity
