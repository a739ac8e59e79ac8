#include "search/query.h"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace lore::search {
namespace {

constexpr std::array<std::string_view, 7> kTimeNouns = {"year", "month", "date",  "day",
                                                        "week", "time",  "season"};

template <size_t N>
bool In(const std::array<std::string_view, N>& set, std::string_view w) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

constexpr std::array<std::string_view, 12> kMonths = {
    "january", "february", "march",     "april",   "may",      "june",
    "july",    "august",   "september", "october", "november", "december"};

// "8", "8th", "21st" -> 8, 21; 0 when not a day of the month.
int DayNumber(std::string_view w) {
  for (std::string_view suffix : {"st", "nd", "rd", "th"}) {
    if (w.size() > 2 && w.substr(w.size() - 2) == suffix) {
      w.remove_suffix(2);
      break;
    }
  }
  if (w.empty() || w.size() > 2 || !std::all_of(w.begin(), w.end(), ::isdigit)) return 0;
  int d = std::stoi(std::string(w));
  return d >= 1 && d <= 31 ? d : 0;
}

int YearNumber(std::string_view w) {
  if (w.size() != 4 || !std::all_of(w.begin(), w.end(), ::isdigit)) return 0;
  int y = std::stoi(std::string(w));
  return y >= 1900 && y <= 2099 ? y : 0;
}

}  // namespace

std::optional<DateSpec> FindDate(const std::vector<std::string>& words) {
  auto at = [&](size_t i) -> std::string_view {
    return i < words.size() ? std::string_view(words[i]) : std::string_view();
  };
  for (size_t i = 0; i < words.size(); ++i) {
    auto m = std::find(kMonths.begin(), kMonths.end(), words[i]);
    if (m == kMonths.end()) continue;
    DateSpec d;
    d.month = static_cast<int>(m - kMonths.begin()) + 1;
    d.day = DayNumber(at(i + 1));
    if (d.day == 0 && i > 0) d.day = DayNumber(at(i - 1));
    d.year = YearNumber(at(i + 1));
    if (d.year == 0) d.year = YearNumber(at(i + 2));
    bool ambiguous = words[i] == "may" || words[i] == "march";
    if (ambiguous && d.day == 0 && d.year == 0) continue;
    return d;
  }
  for (const auto& w : words) {
    if (int y = YearNumber(w)) return DateSpec{y, 0, 0};
  }
  return std::nullopt;
}

namespace {

// Days since 1970-01-01 of a civil date (proleptic Gregorian).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

}  // namespace

bool DateSpan(const DateSpec& date, int64_t* from, int64_t* to) {
  if (date.year == 0) return false;
  int64_t a, b;
  if (date.month == 0) {
    a = DaysFromCivil(date.year, 1, 1);
    b = DaysFromCivil(date.year + 1, 1, 1);
  } else if (date.day == 0) {
    a = DaysFromCivil(date.year, date.month, 1);
    b = date.month == 12 ? DaysFromCivil(date.year + 1, 1, 1)
                         : DaysFromCivil(date.year, date.month + 1, 1);
  } else {
    a = DaysFromCivil(date.year, date.month, date.day) - 1;
    b = a + 3;
  }
  *from = a * 86400;
  *to = b * 86400;
  return true;
}

bool DateMatches(const DateSpec& date, int64_t seconds) {
  auto days = [](int64_t s) { return s >= 0 ? s / 86400 : (s - 86399) / 86400; };
  auto civil = [](int64_t z, int* y, int* m, int* d) {  // days since 1970-01-01 -> date
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    *m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    *y = static_cast<int>(yoe + era * 400 + (*m <= 2));
  };
  int64_t day = days(seconds);
  for (int64_t delta : {0, -1, 1}) {
    if (delta != 0 && date.day == 0) break;
    int y, m, d;
    civil(day + delta, &y, &m, &d);
    if ((date.year == 0 || date.year == y) && (date.month == 0 || date.month == m) &&
        (date.day == 0 || date.day == d)) {
      return true;
    }
  }
  return false;
}

bool AsksWhen(const std::vector<std::string>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    // "When did …", "… and when?", "fixed when": the question's own word; elsewhere
    // "when" joins two clauses ("why did it break when it worked here") and asks
    // no time.
    if (w == "when" &&
        (i == 0 || i + 1 == words.size() || words[i - 1] == "and" || words[i - 1] == "or" ||
         words[i - 1] == "since" || words[i - 1] == "until")) {
      return true;
    }
    if ((w == "what" || w == "which") && i + 1 < words.size() && In(kTimeNouns, words[i + 1])) {
      return true;
    }
    if (w == "long" && i + 1 < words.size() && words[i + 1] == "ago") return true;
    // "how long", "how many years/months/weeks/days"
    if (w == "how" && i + 1 < words.size() && words[i + 1] == "long") return true;
    if (w == "how" && i + 2 < words.size() && words[i + 1] == "many") {
      std::string unit = words[i + 2];
      if (!unit.empty() && unit.back() == 's') unit.pop_back();
      if (In(kTimeNouns, unit)) return true;
    }
  }
  return false;
}

Query ParseQuery(std::string_view text, index::Stemming stemming) {
  Query q;
  auto words = index::Words(text);
  q.asks_when = AsksWhen(words);
  q.date = FindDate(words);
  std::unordered_set<std::string> seen;
  for (const auto& w : words) {
    if (index::IsStopWord(w)) continue;
    std::string t = index::Stem(w, stemming);
    if (seen.insert(t).second) q.tokens.push_back(std::move(t)), q.words.push_back(w);
  }
  auto add = [&](const std::string& joined, std::string written, bool adjacent) {
    std::string t = index::Stem(joined, stemming);
    if (seen.insert(t).second) q.compounds.push_back(Compound{t, std::move(written), adjacent});
  };
  std::vector<std::string> written;
  auto compounds = index::Compounds(text, &written);
  for (size_t i = 0; i < compounds.size(); ++i) add(compounds[i], written[i], false);
  auto alpha = [](const std::string& w) {
    return std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  };
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string &a = words[i], &b = words[i + 1];
    if (!alpha(a) || !alpha(b) || index::IsStopWord(a) || index::IsStopWord(b) ||
        a.size() + b.size() > 40)
      continue;
    add(a + b, a + " " + b, true);
  }
  return q;
}

}  // namespace lore::search
