#include "activity/instructions.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "activity/excerpt.h"
#include "activity/turns.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kRuleBytes = 200;  // a rule as quoted (a card's request is as long)

// True when a rule's object is a word pointing back ("always do that", "do
// this every time", "keep doing it"): what it means was said before it, not
// after a colon ("always do this: run the linter").
bool RefersBack(std::string_view low) {
  for (std::string_view w :
       {"do that", "do this", "do it", "doing that", "doing this", "doing it", "do the same"}) {
    size_t at = low.find(w);
    if (at == std::string_view::npos) continue;
    size_t after = at + w.size();
    if (after == low.size() || !std::isalpha(static_cast<unsigned char>(low[after])))
      return low.find(':', after) == std::string_view::npos;
  }
  return false;
}

// True when a sentence (lower case) is bound to the moment: "yet" as a word,
// "for now", "right now", "today", "tonight", "this time", "for the moment".
bool ForTheMoment(std::string_view low) {
  for (std::string_view w :
       {" yet", "for now", "right now", " today", " tonight", "this time", "for the moment"}) {
    for (size_t at = low.find(w); at != std::string_view::npos; at = low.find(w, at + 1)) {
      const size_t end = at + w.size();
      if (end == low.size() || !std::isalpha(static_cast<unsigned char>(low[end]))) return true;
    }
  }
  return false;
}

}  // namespace

std::string OwnWords(std::string_view text) {
  constexpr size_t kLongTurn = 600, kFrame = 300;
  std::vector<std::string> paragraphs(1);
  bool fenced = false;
  for (std::string_view line : text::Lines(text, true)) {
    std::string_view t = line.substr(std::min(line.size(), line.find_first_not_of(" \t")));
    if (t.starts_with("```") || t.starts_with("~~~")) {
      fenced = !fenced;
      continue;
    }
    if (fenced || t.starts_with(">") || t.starts_with("<")) continue;
    if (t.empty()) {
      if (!paragraphs.back().empty()) paragraphs.emplace_back();
      continue;
    }
    paragraphs.back() += (paragraphs.back().empty() ? "" : "\n") + std::string(line);
  }
  if (paragraphs.back().empty()) paragraphs.pop_back();
  size_t bytes = 0;
  for (const auto& p : paragraphs) bytes += p.size();
  if (paragraphs.size() <= 2 && bytes <= kLongTurn) {
    std::string out;
    for (const auto& p : paragraphs) out += (out.empty() ? "" : "\n") + p;
    return out;
  }
  std::string out;
  if (!paragraphs.empty() && paragraphs.front().size() <= kFrame) out = paragraphs.front();
  if (paragraphs.size() > 1 && paragraphs.back().size() <= kFrame)
    out += (out.empty() ? "" : "\n") + paragraphs.back();
  return out;
}

std::vector<std::string> Instructions(std::string_view turn) {
  const std::string own = OwnWords(turn);
  std::string_view text = own;
  std::vector<std::string> out;
  size_t pos = 0;
  // A sentence ends at '!', '?', a line end, or a '.' before white space (not
  // the dot of "sdkconfig.defaults" or "v1.2").
  auto sentence_end = [&](size_t from) {
    size_t end = from;
    while ((end = text.find_first_of(".!?\n", end)) != std::string_view::npos) {
      if (text[end] != '.' || end + 1 == text.size() || text[end + 1] == ' ' ||
          text[end + 1] == '\t' || text[end + 1] == '\n')
        return end;
      ++end;
    }
    return text.size();
  };
  std::string_view before;  // the turn's sentence before this one (not a question)
  while (pos < text.size() && out.size() < 3) {
    size_t end = sentence_end(pos);
    std::string_view sentence = text.substr(pos, end - pos);
    const bool asks = end < text.size() && text[end] == '?';
    pos = end + 1;
    if (asks || IsQuestion(sentence)) continue;  // "how do we make sure …?" asks, sets nothing
    const std::string_view previous = std::exchange(before, text::Trim(sentence));
    std::string low = text::AsciiLower(sentence.substr(0, 400));
    size_t a = low.find_first_not_of(" \t-*");
    if (a == std::string::npos) continue;
    low = low.substr(a);
    // Words that lead into what is said ("and fyi never …", "oh btw, always …").
    for (bool stripped = true; stripped;) {
      stripped = false;
      for (std::string_view lead :
           {"please ", "and ", "also ", "but ", "ok ", "ok, ", "oh ", "oh, ", "so ", "fyi ",
            "fyi, ", "fyi: ", "btw ", "btw, ", "note: ", "ps ", "ps: ", "p.s. "}) {
        if (low.starts_with(lead)) {
          low = low.substr(lead.size());
          stripped = true;
        }
      }
    }
    bool rule = false;
    // "dont know if it's related", "don't think so": the person speaks of themselves.
    bool of_themselves = false;
    for (std::string_view no : {"don't ", "dont ", "do not "}) {
      if (!low.starts_with(no)) continue;
      std::string_view verb = std::string_view(low).substr(no.size());
      for (std::string_view v :
           {"know",   "think",  "see",   "remember", "understand", "care",   "mind", "get ",
            "have",   "want",   "like",  "need",     "believe",    "recall", "feel", "worry",
            "bother", "really", "quite", "mean",     "love",       "hate",   "enjoy"}) {
        of_themselves = of_themselves || verb.starts_with(v);
      }
    }
    for (std::string_view w :
         {"always ", "never ", "don't ", "dont ", "do not ", "make sure ", "remember to ",
          "from now on", "going forward", "in future", "in the future"}) {
      if (low.starts_with(w)) rule = true;
    }
    rule = rule && !of_themselves;
    // "always" inside a sentence sets a rule ("and yeah always do the typecheck"), not
    // when it describes ("the parsing was always a hack", "it's always slow") nor in
    // "as always".
    if (size_t at = low.find(" always");
        at != std::string::npos && !rule && !of_themselves &&
        (at + 7 == low.size() || !std::isalpha(static_cast<unsigned char>(low[at + 7]))) &&
        !std::string_view(low).substr(0, at).ends_with(" as")) {
      std::string_view before = std::string_view(low).substr(0, at);
      bool describes = false;
      for (std::string_view be :
           {" is", " was", " were", " are", " be", " been", "'s", " has", " had", " have"}) {
        describes = describes || before.ends_with(be) || before == be.substr(1);
      }
      rule = !describes;
    }
    // A team's convention inside a sentence: "…, we never use prisma db push in this
    // repo", "staging only ever gets migrate deploy, never migrate dev"; not what
    // happened ("we never got a reply", "we don't have a staging db").
    for (std::string_view w :
         {" we never ", " we don't ", " we dont ", " we do not ", ", never "}) {
      if (rule || of_themselves) break;
      size_t at = low.find(w);
      if (at == std::string::npos) continue;
      std::string_view verb = std::string_view(low).substr(at + w.size());
      verb = verb.substr(0, verb.find_first_of(" ,.;:!?"));
      bool told = verb.size() > 2 && !verb.ends_with("ed");
      for (std::string_view v :
           {"know", "think",  "have",  "had",      "got",  "get",  "did",  "saw",
            "see",  "heard",  "found", "made",     "ran",  "went", "knew", "need",
            "want", "really", "even",  "actually", "mind", "care"}) {
        told = told && verb != v;
      }
      // "we dont use deferred components anywhere", "we don't run it currently": how
      // things are, not how they must be.
      if (w != " we never " && w != ", never ") {
        for (std::string_view now :
             {" anywhere", " currently", " at the moment", " atm", " anymore", " any more"})
          told = told && low.find(now) == std::string::npos;
      }
      rule = told;
    }
    // "when you commit never --no-verify", "before you deploy, always …": a rule for
    // when a thing is done.
    for (std::string_view when : {"when you ", "whenever you ", "before you ", "after you ",
                                  "if you ", "when we ", "before we "}) {
      const size_t at = low.find(" never ");
      if (rule || of_themselves || !low.starts_with(when) || at == std::string::npos) continue;
      std::string_view verb = std::string_view(low).substr(at + 7);
      verb = verb.substr(0, verb.find_first_of(" ,.;:!?"));
      rule = !verb.ends_with("ed") && verb != "got" && verb != "had" && verb != "did" &&
             verb != "ran" && verb != "went" && verb != "saw";
    }
    rule = rule || low.find("from now on") != std::string::npos;
    // "two house rules for this repo: type hints on every public function": what follows
    // the colon of a sentence that announces rules or conventions.
    if (size_t colon = sentence.find(':'); !rule && colon != std::string_view::npos) {
      const std::string before = text::AsciiLower(sentence.substr(0, std::min<size_t>(colon, 400)));
      const bool announces = before.find("rule") != std::string::npos ||
                             before.find("convention") != std::string::npos ||
                             before.find("guideline") != std::string::npos;
      std::string_view after = text::Trim(sentence.substr(colon + 1));
      if (announces && after.size() >= 8) {
        out.push_back(Excerpt(after, kRuleBytes));
        continue;
      }
    }
    // "dont close it yet", "don't merge for now": the moment's instruction, not a
    // standing one (unless it says it stands: "from now on").
    if (rule && ForTheMoment(low) && low.find("from now on") == std::string::npos &&
        low.find("going forward") == std::string::npos)
      rule = false;
    if (!rule) continue;
    // A rule whose object is what the sentence before it said ("pve1 with --check
    // --diff first. always do that for pve1") is said with that sentence.
    if (!previous.empty() && RefersBack(low)) {
      out.push_back(
          Excerpt(std::string(previous) + "; " + std::string(text::Trim(sentence)), kRuleBytes));
      continue;
    }
    // A rule of a few words ("dont add sdkconfig!!") with the sentence after it,
    // which says what it means ("only sdkconfig.defaults goes in git").
    if (std::count(sentence.begin(), sentence.end(), ' ') < 5 && pos < text.size()) {
      while (pos < text.size() && (text[pos] == '!' || text[pos] == '.')) ++pos;
      size_t next_end = sentence_end(pos);
      std::string_view next = text::Trim(text.substr(pos, next_end - pos));
      if (!next.empty() && (next_end == text.size() || text[next_end] != '?')) {
        out.push_back(
            Excerpt(std::string(text::Trim(sentence)) + "; " + std::string(next), kRuleBytes));
        pos = next_end + 1;
        continue;
      }
    }
    out.push_back(Excerpt(sentence, kRuleBytes));
  }
  return out;
}

}  // namespace lore::activity
