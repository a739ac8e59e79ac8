#include "lore/search/query.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace lore::search {
namespace {

constexpr std::array<std::string_view, 7> kTimeNouns = {"year", "month", "date", "day",
                                                       "week", "time", "season"};

// Words that by themselves place an event in time.
constexpr std::array<std::string_view, 35> kTimeWords = {
    "yesterday", "today",    "tonight",   "tomorrow", "ago",      "recently", "lately",
    "weekend",   "monday",   "tuesday",   "wednesday", "thursday", "friday",  "saturday",
    "sunday",    "january",  "february",  "march",    "april",    "may",      "june",
    "july",      "august",   "september", "october",  "november", "december", "earlier",
    "morning",   "evening",  "afternoon", "night",    "summer",   "winter",   "spring"};

// "last"/"next"/"this" followed by one of these ("last week", "next month").
constexpr std::array<std::string_view, 8> kRelativeUnits = {"week", "month", "year", "night",
                                                           "weekend", "time", "summer", "fall"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view w) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

bool IsYear(std::string_view w) {
  if (w.size() == 5 && w.back() == 's') w.remove_suffix(1);  // "1990s"
  return w.size() == 4 && (w.substr(0, 2) == "19" || w.substr(0, 2) == "20") &&
         std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool AsksWhen(const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "when") return true;
    if ((w == "what" || w == "which") && i + 1 < words.size() && In(kTimeNouns, words[i + 1])) {
      return true;
    }
    if (w == "long" && i + 1 < words.size() && words[i + 1] == "ago") return true;
  }
  return false;
}

int TimeExpressions(std::string_view text) {
  auto words = index::Words(text);
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

Query ParseQuery(std::string_view text, index::Stemming stemming) {
  Query q;
  auto words = index::Words(text);
  q.asks_when = AsksWhen(words);
  std::unordered_set<std::string> seen;
  for (const auto& w : words) {
    if (index::IsStopWord(w)) continue;
    std::string t = index::Stem(w, stemming);
    if (seen.insert(t).second) q.tokens.push_back(std::move(t));
  }
  return q;
}

}  // namespace lore::search
