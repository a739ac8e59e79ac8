#include "activity/excerpt.h"

#include <algorithm>
#include <array>
#include <cctype>
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

std::string FirstErrorLine(std::string_view output, size_t max_bytes) {
  // Words that name the error itself come first; words of a summary line
  // ("FAILED: target", "1 test failed") only when no such line exists.
  static constexpr std::array<std::string_view, 6> kError = {"error",     "fatal", "traceback",
                                                             "exception", "panic", "segmentation"};
  static constexpr std::array<std::string_view, 9> kFailure = {
      "fail",      "no such file", "not found", "denied", "cannot",
      "undefined", "refused",      "timed out", "abort"};
  std::string first, error, failure;
  ForLines(output, [&](std::string_view line) {
    if (Blank(line) || ExitCodeLine(line)) return false;
    std::string_view l = line;
    for (std::string_view tag : {"<tool_use_error>", "</tool_use_error>"}) {
      if (size_t p = l.find(tag); p != std::string_view::npos) {
        std::string_view rest = l.substr(p + tag.size());
        l = p == 0 ? rest : l.substr(0, p);
      }
    }
    if (Blank(l)) return false;
    if (first.empty()) first = Excerpt(l, max_bytes);
    std::string low = text::AsciiLower(l.substr(0, 512));
    for (std::string_view w : kError) {
      if (low.find(w) != std::string::npos) {
        error = Excerpt(l, max_bytes);
        return true;
      }
    }
    if (failure.empty()) {
      for (std::string_view w : kFailure) {
        if (low.find(w) != std::string::npos) {
          failure = Excerpt(l, max_bytes);
          break;
        }
      }
    }
    return false;
  });
  if (!error.empty()) return error;
  return failure.empty() ? first : failure;
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

// The non-blank lines of `text` (a "Exit code N" line and <tool_use_error>
// tags left out), each without trailing white space.
std::vector<std::string_view> TellingLines(std::string_view text) {
  std::vector<std::string_view> out;
  ForLines(text, [&](std::string_view line) {
    if (Blank(line) || ExitCodeLine(line)) return false;
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
  size_t from = 0;
  for (size_t i = 0; i < lines.size() && i < 200; ++i) {
    if (NamesAnError(lines[i])) {
      from = i;
      break;
    }
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

}  // namespace lore::activity
