#include "lore/hook/shell_words.h"

namespace lore::hook {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t'; }
bool IsOperator(char c) {
  return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>' ||
         c == '\n';
}

// Reads a '…' or $'…' or "…" section starting at s[i] (the quote), appending
// its value to `*value`; returns the index after the closing quote.
size_t ReadQuoted(std::string_view s, size_t i, bool ansi, std::string* value) {
  const char q = s[i++];
  while (i < s.size() && s[i] != q) {
    if (s[i] == '\\' && (q == '"' || ansi) && i + 1 < s.size()) {
      const char n = s[i + 1];
      if (ansi) {
        value->push_back(n == 'n' ? '\n' : n == 't' ? '\t' : n);
      } else if (n == '"' || n == '\\' || n == '$' || n == '`') {
        value->push_back(n);
      } else if (n != '\n') {
        value->push_back('\\');
        value->push_back(n);
      }
      i += 2;
      continue;
    }
    value->push_back(s[i++]);
  }
  return i < s.size() ? i + 1 : i;
}

}  // namespace

std::vector<Word> SplitWords(std::string_view s) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < s.size()) {
    if (IsSpace(s[i])) {
      ++i;
      continue;
    }
    if (s[i] == '#') {  // a comment runs to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (IsOperator(s[i])) {
      size_t b = i++;
      while (i < s.size() && IsOperator(s[i]) && s[i] != '\n' && s[i] == s[b]) ++i;
      words.push_back({b, i, std::string(s.substr(b, i - b)), true});
      continue;
    }
    Word w;
    w.begin = i;
    while (i < s.size() && !IsSpace(s[i]) && !IsOperator(s[i])) {
      const char c = s[i];
      if (c == '\'' || c == '"') {
        i = ReadQuoted(s, i, false, &w.value);
      } else if (c == '$' && i + 1 < s.size() && s[i + 1] == '\'') {
        i = ReadQuoted(s, i + 1, true, &w.value);
      } else if (c == '\\' && i + 1 < s.size()) {
        if (s[i + 1] != '\n') w.value.push_back(s[i + 1]);
        i += 2;
      } else {
        w.value.push_back(c);
        ++i;
      }
    }
    w.end = i;
    words.push_back(std::move(w));
  }
  return words;
}

}  // namespace lore::hook
