#include "activity/excerpt.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <vector>

#include "lore/text/utf8.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

bool Space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Splits `text` into lines, calling `f` on each until it returns true.
template <class F>
void ForLines(std::string_view text, F f) {
  for (std::string_view line : text::Lines(text, true)) {
    if (f(line)) return;
  }
}

bool Blank(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return Space(c); });
}

bool ExitCodeLine(std::string_view s) {
  std::string t = Excerpt(s, 64);
  return t.rfind("Exit code ", 0) == 0;
}

}  // namespace

std::string Excerpt(std::string_view text, size_t max_bytes) {
  std::string out = text::FoldSpace(text, max_bytes + 4);
  if (out.size() <= max_bytes) return out;
  std::string_view cut = text::PrefixBytes(out, max_bytes);
  size_t sp = cut.rfind(' ');
  if (sp != std::string_view::npos && sp > max_bytes * 3 / 4) cut = cut.substr(0, sp);
  return std::string(cut);
}

std::string FirstLine(std::string_view text, size_t max_bytes) {
  std::string out;
  ForLines(text, [&](std::string_view line) {
    if (Blank(line)) return false;
    out = Excerpt(line, max_bytes);
    return true;
  });
  return out;
}

namespace {

// [start, end) of the first sentence of `text` at or after `from`: up to ". ",
// "? ", "! " (the mark kept) or a newline.
std::pair<size_t, size_t> SentenceAt(std::string_view text, size_t from) {
  size_t start = from;
  while (start < text.size() && Space(text[start])) ++start;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') return {start, i};
    if ((c == '.' || c == '?' || c == '!') && (i + 1 == text.size() || Space(text[i + 1]))) {
      return {start, i + 1};
    }
  }
  return {start, text.size()};
}

}  // namespace

std::string FirstSentence(std::string_view text, size_t max_bytes) {
  auto [start, end] = SentenceAt(text, 0);
  return Excerpt(text.substr(start, end - start), max_bytes);
}

std::string MainSentence(std::string_view text, size_t max_bytes) {
  std::string first;
  size_t from = 0;
  for (int i = 0; i < 4 && from < text.size(); ++i) {
    auto [start, end] = SentenceAt(text, from);
    std::string s = Excerpt(text.substr(start, end - start), max_bytes);
    if (first.empty()) first = s;
    if (std::count(s.begin(), s.end(), ' ') >= 2) return s;
    from = end;
  }
  return first;
}

std::string_view FileNameOf(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string FirstPath(std::string_view text) {
  auto token_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' ||
           c == '-' || c == '~';
  };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !token_char(text[i])) ++i;
    size_t start = i;
    while (i < text.size() && token_char(text[i])) ++i;
    std::string_view tok = text.substr(start, i - start);
    while (!tok.empty() && (tok.back() == '.' || tok.back() == '-')) tok.remove_suffix(1);
    if (tok.size() < 3) continue;
    if (start >= 3 && text.substr(start - 3, 3) == "://") continue;  // a URL's host
    if (i < text.size() && text[i] == ':' && i + 2 < text.size() && text[i + 1] == '/') continue;
    bool slash = tok.find('/') != std::string_view::npos && tok != "/" &&
                 std::any_of(tok.begin(), tok.end(),
                             [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    size_t dot = tok.rfind('.');
    bool ext = dot != std::string_view::npos && dot >= 2 && dot + 1 < tok.size() &&
               tok.size() - dot - 1 <= 5 &&
               std::all_of(tok.begin() + static_cast<long>(dot) + 1, tok.end(),
                           [](char c) { return std::isalpha(static_cast<unsigned char>(c)); }) &&
               std::isalpha(static_cast<unsigned char>(tok[0]));
    if (slash || ext) return std::string(tok);
  }
  return "";
}

}  // namespace lore::activity

namespace lore::activity {
namespace {

// True for a line that is only a time stamp ("10:58:40", "[2026-11-24
// 10:58:40.123Z]"): a logger's prefix with nothing after it.
bool StampOnly(std::string_view line) {
  bool digit = false, colon = false;
  for (char c : line) {
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c == ':')
      colon = true;
    else if (std::string_view("-.TZ[]+ \t\r").find(c) == std::string_view::npos)
      return false;
  }
  return digit && colon;
}

// The non-blank lines of `text` (a "Exit code N" line, a line that is only a
// time stamp and <tool_use_error> tags left out), each without trailing white
// space.
std::vector<std::string_view> TellingLines(std::string_view text) {
  std::vector<std::string_view> out;
  ForLines(text, [&](std::string_view line) {
    if (Blank(line) || ExitCodeLine(line) || StampOnly(line)) return false;
    for (std::string_view tag : {"<tool_use_error>", "</tool_use_error>"}) {
      if (size_t p = line.find(tag); p != std::string_view::npos) {
        std::string_view rest = line.substr(p + tag.size());
        line = p == 0 ? rest : line.substr(0, p);
      }
    }
    size_t end = line.find_last_not_of(" \t\r");
    if (end == std::string_view::npos) return false;
    out.push_back(line.substr(0, end + 1));
    return false;
  });
  return out;
}

std::string JoinLines(const std::vector<std::string_view>& lines, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < lines.size(); ++i) {
    if (!out.empty()) out += '\n';
    out.append(lines[i]);
  }
  return out;
}

}  // namespace

namespace {

bool OneOf(char c, std::string_view set) { return set.find(c) != std::string_view::npos; }

std::string_view TrimFront(std::string_view s) {
  size_t a = s.find_first_not_of(" \t");
  return a == std::string_view::npos ? std::string_view{} : s.substr(a);
}

// The text inside a banner: a run of four or more of one of "=-_*#~" at both
// ends ("=== FAILURES ===", "____ test_split ____", "=== 2 failed in 0.3s ===");
// nullopt when `line` is no banner.
std::optional<std::string_view> BannerInside(std::string_view line) {
  line = text::Trim(line);
  if (line.size() < 8 || !OneOf(line.front(), "=-_*#~") || line.back() != line.front())
    return std::nullopt;
  const char c = line.front();
  size_t a = line.find_first_not_of(c);
  size_t b = line.find_last_not_of(c);
  if (a == std::string_view::npos) return std::string_view{};  // a rule
  if (a < 4 || line.size() - 1 - b < 4) return std::nullopt;
  return text::Trim(line.substr(a, b - a + 1));
}

// A banner around a heading rather than a count ("FAILURES", "short test
// summary info"): it announces what follows and says nothing itself.
bool HeadingBanner(std::string_view line) {
  auto inside = BannerInside(line);
  return inside && std::none_of(inside->begin(), inside->end(),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A line reporting a step that went well ("✓ Requested rerun", "✔ Done",
// "test time::tests::not_a_panic ... ok").
bool SuccessMark(std::string_view line) {
  line = text::Trim(line);
  for (std::string_view mark : {"\u2713", "\u2714", "\u221a"}) {
    if (line.starts_with(mark)) return true;
  }
  return line.ends_with("... ok") || line.ends_with(" PASSED");
}

// A line reporting a step that went wrong, the mark of a checklist or a CI
// run's tree ("X roll out on staging-01" of `gh run watch`, "✗ lint", "❌ build"):
// how deep it is indented, or -1 when it is none.
int FailureMark(std::string_view line) {
  const size_t indent = line.find_first_not_of(" \t");
  if (indent == std::string_view::npos) return -1;
  std::string_view t = line.substr(indent);
  const size_t word = t.find_first_not_of(' ', 1);
  bool marked = t.size() > 2 && t[0] == 'X' && t[1] == ' ' && word != std::string_view::npos &&
                std::isalpha(static_cast<unsigned char>(t[word]));
  for (std::string_view mark : {"\u2717", "\u2718", "\u00d7", "\u274c", "\u2716"})
    marked = marked || t.starts_with(mark);
  return marked ? static_cast<int>(std::min<size_t>(indent, 64)) : -1;
}

bool HasLetter(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
  });
}

// A compiler's or linter's diagnostic that starts with its place, a line and
// a column, and says something after it: "src/a.go:20:26: too many
// arguments", "src/Card.tsx(23,23): error TS2339: …" (not a stack frame's
// "test/money_test.exs:35: anonymous fn" nor "t.py:52: in upsert").
bool Diagnostic(std::string_view line) {
  line = TrimFront(line);
  size_t end = line.find_first_of(":( \t");
  if (end == std::string_view::npos || end < 3 || line[end] == ' ' || line[end] == '\t')
    return false;
  std::string_view path = line.substr(0, end);
  size_t dot = path.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == path.size()) return false;
  auto digits = [&](size_t at) {
    size_t e = at;
    while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
    return e;
  };
  size_t a = digits(end + 1);
  if (a == end + 1 || a >= line.size() || (line[a] != ':' && line[a] != ',')) return false;
  size_t b = digits(a + 1);
  if (b == a + 1) return false;
  size_t rest = line.find_first_not_of(":) \t", b);
  return rest != std::string_view::npos && HasLetter(line.substr(rest));
}

// How plainly `l` names an error: 2 when it gives the error with its message
// ("TypeError: …", "error[E0425]: …", "fatal: …") or starts with a
// diagnostic's place; 1 when it only holds a word naming one ("raise
// TypeError(", "Traceback"); else 0. "errors" counts
// errors ("Found 3 errors", "because of errors") instead of naming one.
int ErrorWeight(std::string_view l, std::string_view low) {
  if (Diagnostic(l)) return 2;
  int weight = 0;
  for (std::string_view w : {"error", "exception", "fatal", "panic", "traceback", "segmentation"}) {
    for (size_t at = low.find(w); at != std::string_view::npos; at = low.find(w, at + 1)) {
      size_t after = at + w.size();
      if (w == "error" && after < low.size() && low[after] == 's') continue;
      if (low.substr(after).starts_with("::")) continue;  // a name: "TimeError::Parse"
      // "panic: …", "thread 'main' panicked at src/a.rs:3:5:"
      if (w == "panic" &&
          (low.substr(after).starts_with(":") || low.substr(after).starts_with("ked at ")))
        return 2;
      weight = std::max(weight, 1);
      if (after < low.size() && low[after] == '[') {  // a code: "error[E0425]:"
        size_t close = low.find(']', after);
        if (close != std::string_view::npos && close - after < 16) after = close + 1;
      }
      if (after < low.size() && low[after] == ':') return 2;
    }
  }
  return weight;
}

// A failure line that only wraps another program's report: after its
// marker ("fatal:", "error:") nothing but a bracketed name, failure words and
// key=value data ("fatal: [pi4]: FAILED! => changed=true"). The report under
// it says what went wrong.
bool Wraps(std::string_view low) {
  size_t colon = low.find(':');
  if (colon == std::string_view::npos) return false;
  for (std::string_view w : text::Fields(low.substr(colon + 1))) {
    while (!w.empty() && OneOf(w.back(), ":!,;")) w.remove_suffix(1);
    if (w.empty() || w == "=>" || w == "{" || (w.front() == '[' && w.back() == ']') ||
        w.find('=') != std::string_view::npos || w.starts_with("{\"") || w == "failed" ||
        w == "error" || w == "fatal" || w == "unreachable")
      continue;
    return false;
  }
  return true;
}

// A line of a report's structure, not its words: "key: value" metadata
// ("rc: 1", "delta: '0:00:00.23'", "stdout: |-") and list items ("- docker").
bool ReportField(std::string_view line) {
  line = TrimFront(line);
  if (line.starts_with("- ")) return true;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 24) return false;
  std::string_view key = line.substr(0, colon);
  return std::all_of(key.begin(), key.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The first line of the report under wrapper line `at` that says something
// in words (past banners, its fields and list items, and the "…" of lines
// FailureLines left out); nullopt when none does.
std::optional<size_t> ReportUnder(const std::vector<std::string_view>& lines, size_t at) {
  for (size_t i = at + 1; i < lines.size() && i < at + 200; ++i) {
    if (!HeadingBanner(lines[i]) && !ReportField(lines[i]) && HasLetter(lines[i]) &&
        text::Trim(lines[i]) != "\u2026")
      return i;
  }
  return std::nullopt;
}

bool Warning(std::string_view low) {
  low = TrimFront(low);
  while (!low.empty() && OneOf(low.front(), "*! ")) low.remove_prefix(1);
  return low.starts_with("warn") || low.find("warning:") != std::string_view::npos;
}

// The words of a line of a box drawn with one character ("@    WARNING: REMOTE
// HOST IDENTIFICATION HAS CHANGED!     @"), or of a banner; else the line.
std::string_view Unboxed(std::string_view line) {
  if (auto inside = BannerInside(line); inside && !inside->empty()) return *inside;
  line = text::Trim(line);
  if (line.size() >= 3 && line.front() == line.back() && OneOf(line.front(), "@|#*"))
    return text::Trim(line.substr(1, line.size() - 2));
  return line;
}

// A banner's inside in place of the banner; a line ending in ':' ("Collected
// errors:", "panicked at src/a.rs:3:5:") joined with the line after it, past a
// run of decoration after the colon ("via ssh: @@@@@@@@", the top of a box).
std::string Telling(const std::vector<std::string_view>& lines, size_t i, size_t max_bytes) {
  std::string_view l = lines[i];
  if (auto inside = BannerInside(l); inside && !inside->empty()) l = *inside;
  std::string_view t = text::Trim(l);
  size_t keep = t.size();
  while (keep > 0 && OneOf(t[keep - 1], "@=*#~")) --keep;
  if (t.size() - keep >= 4 && text::Trim(t.substr(0, keep)).ends_with(':'))
    t = l = text::Trim(t.substr(0, keep));
  if (t.ends_with(':') && i + 1 < lines.size())
    return Excerpt(std::string(t) + " " + std::string(Unboxed(lines[i + 1])), max_bytes);
  return Excerpt(l, max_bytes);
}

}  // namespace

// Whether `low` holds `w` at the start of a word: "FAILED", "failure", not the
// "fail" of "set -o pipefail".
bool StartsAWord(std::string_view low, std::string_view w) {
  for (size_t at = low.find(w); at != std::string_view::npos; at = low.find(w, at + 1)) {
    if (at == 0 || !std::isalnum(static_cast<unsigned char>(low[at - 1]))) return true;
  }
  return false;
}

std::string FirstErrorLine(std::string_view output, size_t max_bytes) {
  // The error given with its message, or a diagnostic's place, comes first;
  // then a line naming an error; then words of a summary line ("FAILED:
  // target", "1 test failed"), the innermost step marked as gone wrong ("X roll
  // out on staging-01") before them; else the first line that says anything.
  // Banners around a heading, steps that went well and warnings are never
  // the error.
  static constexpr std::array<std::string_view, 10> kFailure = {
      "fail",      "no such file", "not found", "denied", "cannot",
      "undefined", "refused",      "timed out", "abort",  "errors"};
  auto lines = TellingLines(output);
  std::optional<size_t> named, failure, said, wrapper, marked;
  int marked_depth = -1;          // the innermost step marked as gone wrong is the most telling
  std::string_view warning_mark;  // "** " of "** WARNING: …" goes on its next lines
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (HeadingBanner(l) || SuccessMark(l)) continue;
    if (!warning_mark.empty() && l.starts_with(warning_mark)) continue;
    std::string low = text::AsciiLower(l.substr(0, 512));
    if (Warning(low)) {
      size_t a = l.find_first_not_of("*!#> \t");
      if (a != std::string_view::npos && a > 0 && a < 8) warning_mark = l.substr(0, a);
      continue;
    }
    warning_mark = {};
    int weight = ErrorWeight(l, low);
    if (weight == 2 && Wraps(low)) {
      // The first line of the report under it that says something in words;
      // the wrapper itself when there is none.
      if (!wrapper) wrapper = i;
      continue;
    }
    if (weight == 2) return Telling(lines, i, max_bytes);
    if (weight == 1 && !named) named = i;
    if (int depth = FailureMark(l); depth > marked_depth) marked = i, marked_depth = depth;
    if (!failure && std::any_of(kFailure.begin(), kFailure.end(),
                                [&](std::string_view w) { return StartsAWord(low, w); }))
      failure = i;
    if (!said && HasLetter(l)) said = i;
  }
  if (wrapper) {
    if (auto report = ReportUnder(lines, *wrapper)) return Telling(lines, *report, max_bytes);
  }
  for (const auto& at : {named, wrapper, marked, failure, said}) {
    if (at) return Telling(lines, *at, max_bytes);
  }
  return lines.empty() ? "" : Excerpt(lines.front(), max_bytes);
}

std::string Cut(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  if (max_bytes < 8) return std::string(text::PrefixBytes(text, max_bytes));
  std::string_view cut = text::PrefixBytes(text, max_bytes - 3);  // room for "…"
  size_t at = cut.find_last_of(" \n\t");
  if (at != std::string_view::npos && at > cut.size() * 4 / 5) cut = cut.substr(0, at);
  while (!cut.empty() && Space(cut.back())) cut.remove_suffix(1);
  return std::string(cut) + "…";
}

bool NamesAnError(std::string_view line) {
  static constexpr std::array<std::string_view, 18> kWords = {
      "error",  "fatal",     "traceback", "exception",    "panic",   "segmentation",
      "fail",   "not found", "denied",    "no such file", "cannot",  "can't",
      "unable", "refused",   "rejected",  "timed out",    "invalid", "required"};
  std::string low = text::AsciiLower(line.substr(0, 512));
  for (std::string_view w : kWords) {
    if (low.find(w) != std::string::npos) return true;
  }
  return false;
}

std::string FailureLines(std::string_view output, size_t max_bytes) {
  auto lines = TellingLines(output);
  // Five lines from the first line naming an error, past banners around a
  // heading and steps that went well; when those would not reach the error
  // given with its message, two of them and three from that error.
  // With no line naming one, from the innermost step marked as gone wrong ("X
  // roll out on staging-01" under "X deploy" of a CI run's tree).
  std::optional<size_t> named, plain, marked;
  int marked_depth = -1;
  for (size_t i = 0; i < lines.size() && i < 200 && !named; ++i) {
    if (HeadingBanner(lines[i]) || SuccessMark(lines[i])) continue;
    std::string low = text::AsciiLower(lines[i].substr(0, 512));
    if (ErrorWeight(lines[i], low) == 2 && !Warning(low)) named = i;
    if (!plain && NamesAnError(lines[i])) plain = i;
    if (int depth = FailureMark(lines[i]); depth > marked_depth) marked = i, marked_depth = depth;
  }
  size_t from = plain.value_or(named.value_or(marked.value_or(0)));
  // A runner's line that only wraps another program's report: the report's
  // words are the error given with its message.
  if (named && Wraps(text::AsciiLower(lines[*named].substr(0, 512)))) {
    if (auto report = ReportUnder(lines, *named)) named = *report;
  }
  if (named && *named >= from + 5) {
    return Cut(
        JoinLines(lines, from, from + 2) + "\n\u2026\n" + JoinLines(lines, *named, *named + 3),
        max_bytes);
  }
  return Cut(JoinLines(lines, from, from + 5), max_bytes);
}

std::string HeadTail(std::string_view output, size_t max_bytes) {
  auto lines = TellingLines(output);
  if (lines.size() <= 6) return Cut(JoinLines(lines, 0, lines.size()), max_bytes);
  const size_t half = max_bytes / 2;
  std::string head = Cut(JoinLines(lines, 0, 3), half);
  std::string tail = JoinLines(lines, lines.size() - 3, lines.size());
  if (tail.size() > half) tail = std::string(text::PrefixBytes(tail, half - 3)) + "…";
  return head + "\n…\n" + tail;
}

std::string Gist(std::string_view text, size_t max_bytes) {
  std::string out;
  bool fence = false;
  ForLines(text, [&](std::string_view line) {
    size_t a = line.find_first_not_of(" \t");
    if (a == std::string_view::npos) return false;
    line = line.substr(a);
    if (line.substr(0, 3) == "```") {
      fence = !fence;
      return false;
    }
    if (fence || line[0] == '|' || line.substr(0, 3) == "---" || line.substr(0, 3) == "===" ||
        line.find("\u2500\u2500") != std::string_view::npos)  // "───": a decoration
      return false;
    const bool heading = line[0] == '#';
    while (!line.empty() && (line[0] == '#' || line[0] == '>' || line[0] == ' '))
      line.remove_prefix(1);
    bool item = false;
    if (line.size() > 2 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ') {
      line.remove_prefix(2);
      item = true;
    } else if (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
               (line[1] == '.' || line[1] == ')') && line[2] == ' ') {
      line.remove_prefix(3);
      item = true;
    }
    // Emphasis and code marks go; a single '*' or '_' may be part of a name
    // (a glob, snake_case) and stays.
    std::string clean;
    for (size_t i = 0; i < line.size(); ++i) {
      if (line[i] == '`') continue;
      if ((line[i] == '*' || line[i] == '_') && i + 1 < line.size() && line[i + 1] == line[i]) {
        ++i;
        continue;
      }
      clean += line[i];
    }
    clean = Excerpt(clean, max_bytes);
    if (clean.empty()) return false;
    if (!out.empty()) {
      char last = out.back();
      if (item && last != '.' && last != ':' && last != '!' && last != '?')
        out += "; ";
      else if (item || last == ':' || last == '.' || last == '!' || last == '?')
        out += " ";
      else
        out += ". ";
    }
    out += clean;
    if (heading && out.back() != '.' && out.back() != '!' && out.back() != '?' && out.back() != ':')
      out += '.';
    return out.size() > max_bytes + 64;
  });
  return Excerpt(out, max_bytes);
}

bool Announces(std::string_view sentence) {
  std::string low = text::AsciiLower(sentence.substr(0, 40));
  for (std::string_view w : {"let me ", "now let me ", "i'll ", "i will ", "let's ", "now i'll ",
                             "now, let me ", "first, let me ", "next, let me ", "now i need to ",
                             "i need to ", "i'm going to ", "now i'm going to "}) {
    if (low.starts_with(w)) return true;
  }
  return false;
}

}  // namespace lore::activity
