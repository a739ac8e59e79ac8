#include "lore/extract/excerpt.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "lore/text/utf8.h"

namespace lore::extract {
namespace {

bool Space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Splits `text` into lines, calling `f` on each until it returns true.
template <class F>
void ForLines(std::string_view text, F f) {
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (f(text.substr(pos, end - pos))) return;
    pos = end + 1;
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
  std::string out;
  out.reserve(std::min(text.size(), max_bytes + 8));
  bool space = false;
  for (char c : text) {
    if (Space(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
    if (out.size() > max_bytes + 4) break;
  }
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
    std::string low = Lower(l.substr(0, 512));
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

}  // namespace lore::extract
