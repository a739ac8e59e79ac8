#include "activity/turns.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "activity/excerpt.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kLabelBytes = 160;

// Lowercase letters, digits and single spaces: "Yes, go ahead!" -> "yes go ahead".
std::string Plain(std::string_view s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u >= 0x80 || c == '\'') {
      out += static_cast<char>(std::tolower(u));
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The label of an option line (the text after its marker), emphasis removed,
// up to its first ":", " — ", " - ", " – " or "(".
std::string Label(std::string_view rest) {
  // "**Rebase** onto main": the bold words are the option's name.
  if (rest.starts_with("**")) {
    size_t close = rest.find("**", 2);
    if (close != std::string_view::npos && close > 2) rest = rest.substr(2, close - 2);
  }
  // The name ends at a colon, a dash or a parenthesis outside a code span ("Add an
  // explicit `permissions:` block: …" is named up to its second colon).
  size_t stop = rest.size();
  bool code = false;
  for (size_t p = 0; p < rest.size() && stop == rest.size(); ++p) {
    if (rest[p] == '`') code = !code;
    if (code || p == 0) continue;
    for (std::string_view s : {":", " — ", " - ", " – ", " ("}) {
      if (rest.substr(p).starts_with(s)) {
        stop = p;
        break;
      }
    }
  }
  // "Switch to HTTP-01. Needs port 80 forwarded …": the first sentence names it.
  for (size_t p = rest.find(". "); p != std::string_view::npos && p < stop;
       p = rest.find(". ", p + 1)) {
    if (p + 2 < rest.size() && std::isupper(static_cast<unsigned char>(rest[p + 2]))) {
      stop = p;
      break;
    }
  }
  // Emphasis and code marks go; an underscore inside a name stays (`occurred_at`).
  std::string cleaned;
  const std::string_view kept = rest.substr(0, stop);
  for (size_t i = 0; i < kept.size(); ++i) {
    const char c = kept[i];
    const bool inside = c == '_' && i > 0 && i + 1 < kept.size() &&
                        std::isalnum(static_cast<unsigned char>(kept[i - 1])) &&
                        std::isalnum(static_cast<unsigned char>(kept[i + 1]));
    if ((c != '*' && c != '`' && c != '_') || inside) cleaned += c;
  }
  return Excerpt(cleaned, kLabelBytes);
}

// The ordinal a reply names: "2", "#2", "option 2", "the second", "b" (1-based), or 0.
size_t Ordinal(const std::string& plain, size_t count) {
  static constexpr std::array<std::string_view, 9> kWords = {
      "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"};
  std::string s = plain;
  for (std::string_view p : {"option ", "the ", "number ", "choice ", "go with ", "use "}) {
    if (s.starts_with(p)) s = s.substr(p.size());
  }
  size_t sp = s.find(' ');
  std::string head = s.substr(0, sp);
  if (!head.empty() && std::all_of(head.begin(), head.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    size_t n = head.size() > 3 ? 0 : std::stoul(head);
    return n >= 1 && n <= count ? n : 0;
  }
  if (head.size() == 1 && head[0] >= 'a' && head[0] <= 'i') {
    size_t n = static_cast<size_t>(head[0] - 'a') + 1;
    return n <= count && (sp == std::string::npos || s.size() <= 12) ? n : 0;
  }
  for (size_t i = 0; i < kWords.size(); ++i) {
    if (head == kWords[i]) return i + 1 <= count ? i + 1 : 0;
  }
  return 0;
}

}  // namespace

size_t WordCount(std::string_view s) {
  size_t n = 0;
  bool in = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space && !in) ++n;
    in = !space;
  }
  return n;
}

bool IsAcknowledgement(std::string_view text) {
  static constexpr std::array<std::string_view, 37> kAcks = {
      "hi",           "hello",     "hey",       "hi there",     "hello there",
      "good morning", "yo",        "ok",        "okay",         "k",
      "thanks",       "thank you", "thx",       "ty",           "continue",
      "go on",        "go ahead",  "proceed",   "cool",         "great",
      "nice",         "perfect",   "awesome",   "done",         "got it",
      "sounds good",  "lgtm",      "yes",       "yep",          "yeah",
      "sure",         "y",         "ok thanks", "thanks a lot", "please continue",
      "keep going",   "carry on"};
  std::string p = Plain(text);
  if (p.empty()) return true;
  for (std::string_view a : kAcks) {
    if (p == a) return true;
  }
  return false;
}

bool IsOptionAnswer(std::string_view text) {
  std::string p = Plain(text);
  for (std::string_view lead : {"option ", "choice ", "number "}) {
    if (p.starts_with(lead)) p = p.substr(lead.size());
  }
  if (p.empty() || p.size() > 3) return false;
  if (std::all_of(p.begin(), p.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return true;
  return p.size() == 1 && p[0] >= 'a' && p[0] <= 'h';
}

bool IsQuestion(std::string_view text) {
  std::string_view t = text::Trim(text);
  if (t.empty()) return false;
  std::string low = text::AsciiLower(t.substr(0, 32));
  for (std::string_view ask :
       {"can you ", "could you ", "would you ", "will you ", "please ", "can we ", "could we "}) {
    if (low.starts_with(ask)) return false;
  }
  std::string first = FirstLine(t, 4096);
  if (!first.empty() && first.back() == '?') return true;
  for (std::string_view w :
       {"why ", "does ", "is there ", "is it ", "are there ", "should we ", "should i "}) {
    if (low.starts_with(w)) return true;
  }
  for (std::string_view w :
       {"how ", "what ", "which ", "should ", "is ", "are ", "do ", "where ", "when "}) {
    if (low.starts_with(w)) return t.find('?') != std::string_view::npos;
  }
  return false;
}

std::vector<std::string> ListedOptions(std::string_view text, size_t max,
                                       std::vector<std::string>* markers) {
  std::vector<std::string> out, marks;
  for (std::string_view raw : text::Lines(text)) {
    if (out.size() >= max) break;
    std::string_view line = text::Trim(raw);
    while (line.starts_with("**") || line.starts_with("#")) {
      line.remove_prefix(line[0] == '#' ? 1 : 2);
      line = text::Trim(line);
    }
    std::string_view rest;
    std::string mark;
    if (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
        (line[1] == '.' || line[1] == ')') && line[2] == ' ') {
      rest = line.substr(3);
      mark = std::string(1, line[0]);
    } else if (line.size() > 3 &&
               ((line[0] >= 'A' && line[0] <= 'I') || (line[0] >= 'a' && line[0] <= 'i')) &&
               line[1] == ')' && line[2] == ' ') {
      // "B) Merge", "b) **persisted**: …"
      rest = line.substr(3);
      mark = std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(line[0]))));
    } else if (line.starts_with("- **") || line.starts_with("* **")) {
      rest = line.substr(2);
      std::string_view inner = text::Trim(rest.substr(2));
      if (inner.starts_with("Option ") && inner.size() > 7 &&
          std::isalnum(static_cast<unsigned char>(inner[7])))
        mark = text::AsciiLower(inner.substr(7, 1));
    } else if (line.starts_with("Option ")) {
      rest = line;
      if (line.size() > 7 && std::isalnum(static_cast<unsigned char>(line[7]))) {
        mark = text::AsciiLower(line.substr(7, 1));
        // "Option A: Claude Code plugin": the option is named after its marker.
        std::string_view named = text::Trim(line.substr(8));
        while (!named.empty() && (named[0] == ':' || named[0] == ')' || named[0] == '.' ||
                                  named[0] == '*' || named[0] == '-'))
          named = text::Trim(named.substr(1));
        if (named.starts_with("\u2014")) named = text::Trim(named.substr(3));  // "—"
        if (!named.empty() && line.size() > 8 && !std::isalnum(static_cast<unsigned char>(line[8])))
          rest = named;
      }
    } else {
      continue;
    }
    // A marker said again names an option already listed ("b) is the smaller
    // change"): a remark on it, not another.
    if (!mark.empty() && std::find(marks.begin(), marks.end(), mark) != marks.end()) continue;
    std::string label = Label(rest);
    if (!label.empty()) {
      out.push_back(std::move(label));
      marks.push_back(std::move(mark));
    }
  }
  // Options named by a marker ("Option A", "1.", "B)"): the bullets among
  // them without one are something else (a list of points, an insight).
  const size_t marked = static_cast<size_t>(
      std::count_if(marks.begin(), marks.end(), [](const std::string& m) { return !m.empty(); }));
  if (marked >= 2 && marked < marks.size()) {
    std::vector<std::string> kept, kept_marks;
    for (size_t i = 0; i < out.size(); ++i) {
      if (marks[i].empty()) continue;
      kept.push_back(std::move(out[i]));
      kept_marks.push_back(std::move(marks[i]));
    }
    out = std::move(kept);
    marks = std::move(kept_marks);
  }
  if (out.size() < 2) {
    out.clear();
    marks.clear();
  }
  if (markers) *markers = std::move(marks);
  return out;
}

std::string ClosingQuestion(std::string_view text) {
  std::string_view t = text::Trim(text);
  while (!t.empty() && (t.back() == '*' || t.back() == '_')) t.remove_suffix(1);
  if (t.empty() || t.back() != '?') return "";
  size_t start = t.find_last_of(".!\n", t.size() - 2);
  return Excerpt(start == std::string_view::npos ? t : t.substr(start + 1), 400);
}

std::optional<size_t> ChosenOption(std::string_view reply, const std::vector<std::string>& options,
                                   const std::vector<std::string>& markers) {
  if (options.empty()) return std::nullopt;
  std::string p = Plain(reply);
  // "yes, force push", "ok let's go with 2": the choice follows.
  for (bool again = true; again;) {
    again = false;
    for (std::string_view w : {"yes ", "yeah ", "ok ", "okay ", "sure ", "let's ", "lets ",
                               "please ", "go with ", "i'd ", "we'll ", "i'll "}) {
      if (p.starts_with(w) && p.size() > w.size()) {
        p = p.substr(w.size());
        again = true;
      }
    }
  }
  if (p.empty()) return std::nullopt;
  // An option's own marker: "B", "option b", "2".
  {
    std::string head = p;
    for (std::string_view pre : {"option ", "number ", "choice "}) {
      if (head.starts_with(pre)) head = head.substr(pre.size());
    }
    head = head.substr(0, head.find(' '));
    bool any = false;
    for (size_t i = 0; i < markers.size() && i < options.size(); ++i) {
      any = any || !markers[i].empty();
      if (!markers[i].empty() && markers[i] == head) return i;
    }
    if (any && head.size() == 1) return std::nullopt;  // a marker the agent did not use
  }
  if (size_t n = Ordinal(p, options.size())) return n - 1;
  // The words of one option's label, and of no other.
  std::optional<size_t> found;
  for (size_t i = 0; i < options.size(); ++i) {
    std::string label = Plain(options[i]);
    if (label.empty()) continue;
    bool named = p.find(label) != std::string::npos ||
                 (p.size() >= 4 && (" " + label + " ").find(" " + p + " ") != std::string::npos);
    if (!named) continue;
    if (found) return std::nullopt;  // two options named: not a choice
    found = i;
  }
  return found;
}

std::string Recommendation(std::string_view text, const std::vector<std::string>& options,
                           const std::vector<std::string>& markers, size_t chosen) {
  if (chosen >= options.size()) return "";
  static constexpr std::array<std::string_view, 16> kRecommends = {
      "i'd go with",       "i would go with",   "i'd pick",    "i would pick",
      "i'd choose",        "i would choose",    "i recommend", "i'd recommend",
      "i would recommend", "my recommendation", "i suggest",   "i'd suggest",
      "my pick",           "i'd lean",          "i lean",      "i'd use"};
  const std::string marker = chosen < markers.size() ? markers[chosen] : "";
  const std::string label = Plain(options[chosen]);
  const std::string first_word = label.substr(0, label.find(' '));
  for (std::string_view raw : text::Lines(text)) {
    std::string p = Plain(raw);
    for (std::string_view r : kRecommends) {
      size_t at = p.find(r);
      if (at == std::string::npos) continue;
      std::string rest = p.substr(at + r.size());
      while (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
      // "I'd lean towards the second", "my recommendation is option 2".
      for (std::string_view pre : {"towards ", "toward ", "is ", "would be "}) {
        if (rest.starts_with(pre)) rest = rest.substr(pre.size());
      }
      std::string named_as = rest;
      for (std::string_view pre : {"option ", "number ", "choice ", "the "}) {
        if (named_as.starts_with(pre)) named_as = named_as.substr(pre.size());
      }
      std::string head = named_as.substr(0, named_as.find(' '));
      const bool named = (!marker.empty() && head == marker) ||
                         Ordinal(rest, options.size()) == chosen + 1 ||
                         (first_word.size() >= 4 && head == first_word);
      if (named) return Excerpt(text::Trim(raw), 400);
      break;  // a recommendation of another option
    }
  }
  return "";
}

namespace {

// "### 7. Title", "**7. Title**", "7) **Title**": a numbered heading's
// number and words; 0 when `line` is none.
int QuestionHeading(std::string_view line, std::string* title) {
  line = text::Trim(line);
  bool marked = false;
  while (line.starts_with("#") || line.starts_with("**")) {
    line.remove_prefix(line[0] == '#' ? 1 : 2);
    line = text::Trim(line);
    marked = true;
  }
  size_t digits = 0;
  while (digits < line.size() && digits < 3 &&
         std::isdigit(static_cast<unsigned char>(line[digits])))
    ++digits;
  if (digits == 0 || digits > 2 || digits + 1 >= line.size()) return 0;
  if (line[digits] != '.' && line[digits] != ')') return 0;
  std::string_view rest = text::Trim(line.substr(digits + 1));
  if (rest.starts_with("**")) marked = true;
  if (!marked || rest.empty()) return 0;
  std::string words;
  for (char c : rest) {
    if (c != '*' && c != '`' && c != '_') words += c;
  }
  *title = Excerpt(words, kLabelBytes);
  return title->empty() ? 0 : std::stoi(std::string(line.substr(0, digits)));
}

// "- **A) AXUIElement** — …", "| **B) CGWindow** | …", "C. Swift DSL": an
// option's letter (upper case) and label; 0 when `line` is none.
char LetteredOption(std::string_view line, std::string* label) {
  line = text::Trim(line);
  for (std::string_view lead : {"- ", "* ", "|"}) {
    if (line.starts_with(lead)) line = text::Trim(line.substr(lead.size()));
  }
  bool bold = line.starts_with("**");
  if (bold) line.remove_prefix(2);
  if (line.size() < 4 || line[0] < 'A' || line[0] > 'H') return 0;
  if ((line[1] != ')' && line[1] != '.') || line[2] != ' ') return 0;
  std::string_view rest = line.substr(3);
  if (bold) {
    size_t close = rest.find("**");
    if (close != std::string_view::npos) rest = rest.substr(0, close);
  }
  if (size_t bar = rest.find(" |"); bar != std::string_view::npos) rest = rest.substr(0, bar);
  *label = Label(rest);
  return label->empty() ? 0 : line[0];
}

}  // namespace

std::vector<NumberedQuestion> NumberedQuestions(std::string_view text) {
  std::vector<NumberedQuestion> out;
  for (std::string_view line : text::Lines(text)) {
    std::string words;
    if (int n = QuestionHeading(line, &words); n > 0) {
      if (!out.empty() && n <= out.back().number) break;  // a new list: not the same interview
      out.push_back({n, std::move(words), {}, {}});
      continue;
    }
    if (out.empty()) continue;
    if (char letter = LetteredOption(line, &words); letter != 0) {
      NumberedQuestion& q = out.back();
      if (std::find(q.letters.begin(), q.letters.end(), letter) == q.letters.end()) {
        q.letters.push_back(letter);
        q.options.push_back(std::move(words));
      }
    }
  }
  if (out.size() < 2) out.clear();
  return out;
}

std::vector<NumberedAnswer> NumberedAnswers(std::string_view reply,
                                            const std::vector<int>& numbers) {
  std::vector<NumberedAnswer> out;
  std::vector<std::pair<size_t, size_t>> at;  // (marker start, text start)
  size_t next = 0;                            // index in `numbers` of the next allowed
  for (size_t i = 0; i < reply.size() && next < numbers.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(reply[i]))) continue;
    if (i > 0 && !std::isspace(static_cast<unsigned char>(reply[i - 1]))) continue;
    size_t j = i;
    while (j < reply.size() && j - i < 3 && std::isdigit(static_cast<unsigned char>(reply[j]))) ++j;
    if (j - i > 2 || j >= reply.size()) continue;
    if (reply[j] != '.' && reply[j] != ')' && reply[j] != ':') continue;
    if (j + 1 < reply.size() && std::isdigit(static_cast<unsigned char>(reply[j + 1])))
      continue;  // 1.5
    const int n = std::stoi(std::string(reply.substr(i, j - i)));
    auto it = std::find(numbers.begin() + static_cast<long>(next), numbers.end(), n);
    if (it == numbers.end()) continue;
    next = static_cast<size_t>(it - numbers.begin()) + 1;
    at.emplace_back(i, j + 1);
    out.push_back({n, {}});
    i = j;
  }
  for (size_t k = 0; k < out.size(); ++k) {
    size_t stop = k + 1 < at.size() ? at[k + 1].first : reply.size();
    out[k].text = std::string(text::Trim(reply.substr(at[k].second, stop - at[k].second)));
  }
  std::erase_if(out, [](const NumberedAnswer& a) { return a.text.empty(); });
  return out;
}

std::vector<size_t> PickedLetters(std::string_view answer, const NumberedQuestion& q) {
  std::vector<size_t> out;
  std::string_view a = text::Trim(answer);
  while (!a.empty()) {
    const char c = a[0];
    auto it = std::find(q.letters.begin(), q.letters.end(), c);
    const bool alone = a.size() == 1 || !std::isalnum(static_cast<unsigned char>(a[1]));
    if (it == q.letters.end() || !alone) break;
    size_t index = static_cast<size_t>(it - q.letters.begin());
    if (std::find(out.begin(), out.end(), index) == out.end()) out.push_back(index);
    a = text::Trim(a.substr(1));
    // "A + B", "A and B", "A, B", "A/B": another letter follows.
    bool joined = false;
    for (std::string_view j : {"+", "&", ",", "/", "and "}) {
      if (a.starts_with(j)) {
        a = text::Trim(a.substr(j.size()));
        joined = true;
        break;
      }
    }
    if (!joined) break;
  }
  return out;
}

bool AnswersNumberedQuestions(std::string_view reply, std::string_view agent) {
  const std::vector<NumberedQuestion> questions = NumberedQuestions(agent);
  if (questions.empty()) return false;
  std::vector<int> numbers;
  for (const auto& q : questions) numbers.push_back(q.number);
  return NumberedAnswers(reply, numbers).size() >= 2;
}

}  // namespace lore::activity
