#include "lore/index/tokenizer.h"

#include <libstemmer.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <unordered_map>

#include "text/table.h"

namespace lore::index {
namespace internal {
// Generated at build time by tools/wordnet_table.cpp (cmake/SynonymTable.cmake):
// sorted lines "<form>\t<verb>\n".
extern const char kIrregularTable[];
extern const size_t kIrregularTableSize;
}  // namespace internal

namespace {

// A common English stop list (the NLTK list less negations' stems, plus
// contraction fragments; "won't" is read as "wont", so that "won" is a word).
// Sorted for binary search.
constexpr std::array<std::string_view, 148> kStopWords = {
    "about",   "above",  "after",     "again",     "against", "all",        "am",    "an",
    "and",     "any",    "are",       "aren",      "as",      "at",         "be",    "because",
    "been",    "before", "being",     "below",     "between", "both",       "but",   "by",
    "can",     "could",  "couldn",    "did",       "didn",    "do",         "does",  "doesn",
    "doing",   "don",    "down",      "during",    "each",    "few",        "for",   "from",
    "further", "had",    "hadn",      "has",       "hasn",    "have",       "haven", "having",
    "he",      "her",    "here",      "hers",      "herself", "hey",        "him",   "himself",
    "his",     "how",    "i",         "if",        "in",      "into",       "is",    "isn",
    "it",      "its",    "itself",    "just",      "ll",      "me",         "might", "more",
    "most",    "must",   "my",        "myself",    "no",      "nor",        "not",   "now",
    "of",      "off",    "oh",        "on",        "once",    "only",       "or",    "other",
    "our",     "ours",   "ourselves", "out",       "over",    "own",        "re",    "same",
    "shan",    "she",    "should",    "shouldn",   "so",      "some",       "such",  "than",
    "that",    "the",    "their",     "theirs",    "them",    "themselves", "then",  "there",
    "these",   "they",   "this",      "those",     "through", "to",         "too",   "under",
    "until",   "up",     "ve",        "very",      "was",     "wasn",       "we",    "were",
    "weren",   "what",   "when",      "where",     "which",   "while",      "who",   "whom",
    "why",     "will",   "with",      "wont",      "would",   "wouldn",     "yeah",  "you",
    "your",    "yours",  "yourself",  "yourselves"};

// Decodes one UTF-8 sequence at s[i]; returns its length (1 on invalid bytes).
size_t Decode(std::string_view s, size_t i, char32_t* cp) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (c < 0x80 || i + n > s.size()) {
    *cp = c;
    return 1;
  }
  char32_t v = c & (0x3F >> (n - 1));
  for (size_t k = 1; k < n; ++k) v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  *cp = v;
  return n;
}

// Non-ASCII code points that separate words: Latin-1 punctuation and
// symbols, general punctuation, CJK punctuation, arrows, dingbats, emoji…
bool IsSeparator(char32_t cp) {
  return (cp >= 0x80 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x2BFF) ||
         (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFE00 && cp <= 0xFE0F) ||
         (cp >= 0xFF00 && cp <= 0xFF0F) || (cp >= 0x1F000 && cp <= 0x1FAFF) || cp == 0xFEFF;
}

void AppendLower(std::string& out, std::string_view s, size_t i, size_t n, char32_t cp) {
  if (n == 1) {
    char c = s[i];
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  } else if (n == 2 && cp >= 0xC0 && cp <= 0xDE) {
    char32_t lower = cp + 0x20;  // Latin-1 capitals (0xD7 is a separator)
    out += static_cast<char>(0xC0 | (lower >> 6));
    out += static_cast<char>(0x80 | (lower & 0x3F));
  } else {
    out.append(s.substr(i, n));
  }
}

struct StemmerDeleter {
  void operator()(sb_stemmer* s) const { sb_stemmer_delete(s); }
};

sb_stemmer* EnglishStemmer() {
  thread_local std::unique_ptr<sb_stemmer, StemmerDeleter> stemmer(
      sb_stemmer_new("english", nullptr));
  return stemmer.get();
}

// Words that by themselves place an event in time.
constexpr std::array<std::string_view, 35> kTimeWords = {
    "yesterday", "today",   "tonight",   "tomorrow",  "ago",      "recently", "lately",
    "weekend",   "monday",  "tuesday",   "wednesday", "thursday", "friday",   "saturday",
    "sunday",    "january", "february",  "march",     "april",    "may",      "june",
    "july",      "august",  "september", "october",   "november", "december", "earlier",
    "morning",   "evening", "afternoon", "night",     "summer",   "winter",   "spring"};

// "last"/"next"/"this" followed by one of these ("last week", "next month").
constexpr std::array<std::string_view, 8> kRelativeUnits = {"week",    "month", "year",   "night",
                                                            "weekend", "time",  "summer", "fall"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view w) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

bool IsYear(std::string_view w) {
  if (w.size() == 5 && w.back() == 's') w.remove_suffix(1);  // "1990s"
  return w.size() == 4 && (w.substr(0, 2) == "19" || w.substr(0, 2) == "20") &&
         std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// True when text[i] is the "t" of a negative contraction ("won't": i just
// after the apostrophe).
bool NegationFollows(std::string_view text, size_t i) {
  return i < text.size() && (text[i] == 't' || text[i] == 'T') &&
         (i + 1 == text.size() || std::isalnum(static_cast<unsigned char>(text[i + 1])) == 0);
}

}  // namespace

bool Asks(std::string_view text) {
  // Scanned from the end: the first sentence mark met decides.
  for (size_t i = text.size(); i-- > 0;) {
    char c = text[i];
    if (c == '?') return true;
    if (c == '.' || c == '!') return false;
    if (i >= 2 && static_cast<unsigned char>(text[i - 2]) >= 0xE0) {
      std::string_view mark = text.substr(i - 2, 3);
      if (mark == "\xEF\xBC\x9F") return true;  // full-width ?
      if (mark == "\xEF\xBC\x81" || mark == "\xE3\x80\x82" || mark == "\xE2\x80\xA6") {
        return false;  // full-width !, ideographic full stop, ellipsis
      }
    }
  }
  return false;
}

int TimeExpressions(std::string_view text) {
  auto words = Words(text);
  int n = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (In(kTimeWords, w) || IsYear(w)) {
      ++n;
    } else if ((w == "last" || w == "next" || w == "this") && i + 1 < words.size() &&
               In(kRelativeUnits, words[i + 1])) {
      ++n;
    }
  }
  return n;
}

namespace {

// Calls `f(word)` for every word of `text` (see Words), in order; `f` may
// move from its argument.
template <class F>
void ForEachWord(std::string_view text, F&& f) {
  std::string cur;
  for (size_t i = 0; i < text.size();) {
    char32_t cp;
    size_t n = Decode(text, i, &cp);
    bool word_char =
        cp < 0x80 ? (std::isalnum(static_cast<unsigned char>(cp)) != 0) : !IsSeparator(cp);
    if (word_char) {
      AppendLower(cur, text, i, n, cp);
    } else if (!cur.empty()) {
      // "won't" is "wont" (a stop word), so that "won" is the verb.
      if (cur == "won" && (cp == '\'' || cp == 0x2019) && NegationFollows(text, i + n))
        cur = "wont";
      f(cur);
      cur.clear();
    }
    i += n;
  }
  if (!cur.empty()) f(cur);
}

}  // namespace

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  ForEachWord(text, [&](std::string& w) { words.push_back(std::move(w)); });
  return words;
}

bool IsStopWord(std::string_view word) {
  if (word.size() == 1 && word[0] >= 'a' && word[0] <= 'z') return true;
  return std::binary_search(kStopWords.begin(), kStopWords.end(), word);
}

std::string_view IrregularVerb(std::string_view word) {
  std::string_view table(internal::kIrregularTable, internal::kIrregularTableSize);
  std::string_view line = text::FindTableLine(table, word);
  size_t tab = line.find('\t');
  return tab == std::string_view::npos ? std::string_view() : line.substr(tab + 1);
}

namespace {

struct WordHash {
  using is_transparent = void;
  size_t operator()(std::string_view w) const { return std::hash<std::string_view>()(w); }
};

std::string StemUncached(std::string_view word, Stemming stemming) {
  if (stemming == Stemming::kEnglish) {
    if (std::string_view verb = IrregularVerb(word); !verb.empty()) word = verb;
  }
  sb_stemmer* s = EnglishStemmer();
  if (s == nullptr) return std::string(word);
  const sb_symbol* out = sb_stemmer_stem(s, reinterpret_cast<const sb_symbol*>(word.data()),
                                         static_cast<int>(word.size()));
  if (out == nullptr) return std::string(word);
  return std::string(reinterpret_cast<const char*>(out), sb_stemmer_length(s));
}

// The stem of `word` (stemming on), from this thread's cache of the stems it
// made. The reference holds until the next call.
const std::string& CachedStem(std::string_view word, Stemming stemming) {
  // Text repeats its words: one search stems the lines of its hits for their
  // excerpts, where a few hundred words come back thousands of times. A stem
  // is a pure function of the word, so each thread keeps the ones it made.
  constexpr size_t kCacheMax = 1 << 16;
  thread_local std::unordered_map<std::string, std::string, WordHash, std::equal_to<>> cache[3];
  auto& known = cache[static_cast<int>(stemming)];
  if (auto it = known.find(word); it != known.end()) return it->second;
  if (known.size() >= kCacheMax) known.clear();
  return known.emplace(std::string(word), StemUncached(word, stemming)).first->second;
}

}  // namespace

std::string Stem(std::string_view word, Stemming stemming) {
  if (stemming == Stemming::kOff) return std::string(word);
  return CachedStem(word, stemming);
}

std::vector<std::string> Compounds(std::string_view text, std::vector<std::string>* written) {
  std::vector<std::string> out;
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  size_t i = 0;
  while (i < text.size()) {
    if (!letter(text[i]) || (i > 0 && (letter(text[i - 1]) || text[i - 1] == '-'))) {
      ++i;
      continue;
    }
    std::string joined;
    int parts = 0;
    size_t j = i;
    while (true) {
      size_t k = j;
      while (k < text.size() && letter(text[k])) ++k;
      if (k < text.size() && std::isalnum(static_cast<unsigned char>(text[k]))) break;  // "a-2b"
      for (size_t c = j; c < k; ++c) joined += static_cast<char>(std::tolower(text[c]));
      ++parts;
      j = k;
      if (j + 1 < text.size() && text[j] == '-' && letter(text[j + 1])) {
        ++j;
        continue;
      }
      break;
    }
    if (parts >= 2 && joined.size() <= 40) {
      out.push_back(std::move(joined));
      if (written) written->emplace_back(text.substr(i, j - i));
    }
    i = std::max(j, i + 1);
  }
  return out;
}

void ForEachToken(std::string_view text, Stemming stemming,
                  const std::function<void(const std::string&)>& f) {
  auto token = [&](std::string& w) {
    if (stemming == Stemming::kOff) {
      f(w);
    } else {
      f(CachedStem(w, stemming));
    }
  };
  ForEachWord(text, [&](std::string& w) {
    if (!IsStopWord(w)) token(w);
  });
  for (auto& w : Compounds(text)) token(w);
}

std::vector<std::string> Tokenize(std::string_view text, Stemming stemming) {
  std::vector<std::string> tokens;
  ForEachToken(text, stemming, [&](const std::string& t) { tokens.push_back(t); });
  return tokens;
}

std::string TokenString(std::string_view text, Stemming stemming) {
  std::string out;
  for (const auto& t : Tokenize(text, stemming)) {
    if (!out.empty()) out += ' ';
    out += t;
  }
  return out;
}

}  // namespace lore::index
