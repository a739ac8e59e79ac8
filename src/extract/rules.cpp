#include "lore/extract/rules.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <nlohmann/json.hpp>

#include "activity/excerpt.h"
#include "activity/instructions.h"
#include "activity/turns.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::extract {
namespace {

using activity::Excerpt;
using activity::FirstLine;
using activity::FirstPath;
using activity::FirstSentence;
using activity::MainSentence;
using consolidate::ItemOrigin;
using consolidate::StagedAttempt;
using consolidate::StagedDecision;
using consolidate::StagedDiscussion;
using consolidate::StagedOutcome;
using consolidate::StagedRequest;

constexpr size_t kMaxCalls = 256;           // tool calls awaiting a result
constexpr size_t kMaxAssistantKept = 8192;  // of the agent's last words
constexpr size_t kShortReplyWords = 12;     // a reply this short can answer a question
constexpr size_t kMaxCandidates = 512;      // items of one list held before the ranking

ItemOrigin Origin(int64_t first, int64_t last, const std::string& at) {
  ItemOrigin o;
  if (first > 0 && last >= first)
    o.lines = doc::Range{static_cast<uint64_t>(first), static_cast<uint64_t>(last)};
  o.at = at;
  return o;
}

// Phrasings by which the person states a choice: the chosen thing follows.
constexpr std::array<std::string_view, 12> kChoicePhrases = {
    "let's go with ", "lets go with ", "let's use ",     "go with ",
    "we'll go with ", "i'll go with ", "we'll use ",     "i choose ",
    "i pick ",        "let's pick ",   "we decided to ", "let's do option "};

// The chosen thing after a choice phrase, up to the end of its clause.
std::string ChosenAfter(std::string_view text, size_t at) {
  std::string_view rest = text.substr(at, 1024);
  // The first stop outside parentheses: "your plan (dedupe inside the migration,
  // then resolve + deploy)" is one choice.
  size_t end = rest.size();
  int depth = 0;
  for (size_t i = 0; i < rest.size() && end == rest.size(); ++i) {
    if (rest[i] == '(') ++depth;
    if (rest[i] == ')' && depth > 0) --depth;
    if (depth > 0) continue;
    for (std::string_view stop :
         {". ", ", ", "; ", "\n", " because ", " since ", " - ", " \u2014 ", "!"}) {
      if (rest.substr(i).starts_with(stop)) {
        end = i;
        break;
      }
    }
  }
  std::string_view chosen = text::Trim(rest.substr(0, end));
  while (!chosen.empty() && (chosen.back() == '.' || chosen.back() == '?')) chosen.remove_suffix(1);
  // "your plan (X)", "the second one (X)": what the parentheses say is what was chosen.
  size_t open = chosen.find(" (");
  if (open != std::string_view::npos && chosen.ends_with(")") &&
      std::count(chosen.begin(), chosen.begin() + static_cast<long>(open), ' ') <= 2) {
    const std::string head = text::AsciiLower(chosen.substr(0, open));
    for (std::string_view pointer : {"your ", "the ", "that ", "this ", "what you "}) {
      if (head.starts_with(pointer)) {
        chosen = text::Trim(chosen.substr(open + 2, chosen.size() - open - 3));
        break;
      }
    }
  }
  return Excerpt(chosen, kShortExcerpt);
}

// "1. do x\n2. do y": the person's own list, not a pick among the agent's options.
bool OwnList(std::string_view text) {
  for (std::string_view next : {"\n2.", "\n2)", "\nb)", "\nb.", "\n- "}) {
    if (text.find(next) != std::string_view::npos) return true;
  }
  return false;
}

// A reply that opens with a pick among `options` and goes on with its reason
// ("option b. we deploy several times a day, in memory retries would evaporate",
// "1. mobile shouldnt depend on whats inside the cursor"): the option's index and
// the reason, when the words before the first stop pick one and three or more
// words follow.
std::optional<std::pair<size_t, std::string>> PickAndReason(
    std::string_view text, const std::vector<std::string>& options,
    const std::vector<std::string>& markers) {
  if (options.empty()) return std::nullopt;
  std::string_view t = text::Trim(text.substr(0, 4096));
  if (OwnList(t)) return std::nullopt;
  size_t stop = std::string_view::npos;
  for (std::string_view s : {". ", ", ", ": ", "; ", " - ", " \u2014 ", "\n"}) {
    size_t at = t.find(s);
    if (at != std::string_view::npos && at > 0 && (stop == std::string_view::npos || at < stop))
      stop = at;
  }
  if (stop == std::string_view::npos) return std::nullopt;
  std::string_view head = t.substr(0, stop);
  std::string_view rest = text::Trim(t.substr(stop + 1));
  while (!rest.empty() && (rest.front() == '-' || rest.front() == ' ')) rest.remove_prefix(1);
  if (activity::WordCount(head) > 3 || activity::WordCount(rest) < 3) return std::nullopt;
  auto i = activity::ChosenOption(head, options, markers);
  if (!i) return std::nullopt;
  return std::make_pair(*i, Excerpt(rest, kLongExcerpt));
}

// Where a choice phrase starts in `low` (the lower-cased text), at a word start.
std::optional<size_t> FindChoice(const std::string& low, size_t* len) {
  for (std::string_view p : kChoicePhrases) {
    size_t at = low.find(p);
    while (at != std::string::npos) {
      if (at == 0 || !std::isalnum(static_cast<unsigned char>(low[at - 1]))) {
        *len = p.size();
        return at;
      }
      at = low.find(p, at + 1);
    }
  }
  return std::nullopt;
}

// A reply that answers a yes/no question.
bool IsYesNo(const std::string& low) {
  for (std::string_view w : {"yes", "yeah", "yep", "no", "nope", "sure", "correct"}) {
    if (low.starts_with(w) &&
        (low.size() == w.size() || !std::isalnum(static_cast<unsigned char>(low[w.size()])))) {
      return true;
    }
  }
  return false;
}

// True when `question` offers to do something the agent could just go and do
// ("Want me to install ccusage for you?", "Should I push and open the PR?"):
// a yes to it is consent, and what was then done shows in the outcomes; not a
// choice of how something should be ("Should I treat an empty cart as zero?").
bool OffersToAct(std::string_view question) {
  std::string q = text::AsciiLower(question.substr(0, 400));
  size_t at = std::string::npos;
  size_t len = 0;
  for (std::string_view offer : {"want me to ", "would you like me to ", "shall i ", "should i ",
                                 "can i ", "may i ", "do you want me to "}) {
    size_t p = q.rfind(offer);
    if (p != std::string::npos && (at == std::string::npos || p > at)) at = p, len = offer.size();
  }
  if (at == std::string::npos) return false;
  std::string_view rest = std::string_view(q).substr(at + len);
  if (rest.starts_with("also ")) rest.remove_prefix(5);
  if (rest.starts_with("go ahead")) return true;
  std::string_view verb = rest.substr(0, rest.find_first_of(" ,.?!"));
  for (std::string_view v :
       {"install",  "push",   "commit",  "open",  "create", "run",    "proceed",
        "continue", "start",  "deploy",  "merge", "apply",  "delete", "remove",
        "restart",  "update", "upgrade", "add",   "set",    "fix",    "make",
        "write",    "clean",  "rebuild", "retry", "check",  "test"}) {
    if (verb == v) return true;
  }
  return false;
}

// True when the words of a short reply (past "yes", "let's", …) are in the
// question: the person picked one of the things it named.
bool NamedIn(std::string_view reply, std::string_view question) {
  std::string r = text::AsciiLower(reply), q = text::AsciiLower(question);
  for (std::string_view lead : {"yes, ", "yes ", "ok, ", "ok ", "let's ", "please "}) {
    if (r.starts_with(lead)) r = r.substr(lead.size());
  }
  while (!r.empty() && (r.back() == '.' || r.back() == '!')) r.pop_back();
  return r.size() >= 3 && q.find(r) != std::string::npos;
}

bool Wanted(const std::string& name) {
  return name == "Bash" || activity::IsFileEditTool(name) || name == "ExitPlanMode" ||
         name == "AskUserQuestion" || name == "Task" || name == "Agent" || name == "WebFetch";
}

// What a call did, in words; a file below `checkout` by its path relative to it.
std::string Action(const std::string& tool, const std::string& detail, std::string_view checkout) {
  if (tool == "Bash") return FirstLine(detail, kLongExcerpt);
  if (tool == "ExitPlanMode") return "the plan: " + FirstLine(detail, kShortExcerpt);
  std::string_view path = detail;
  if (!checkout.empty() && path.size() > checkout.size() + 1 && path.starts_with(checkout) &&
      path[checkout.size()] == '/')
    path.remove_prefix(checkout.size() + 1);
  return tool + " " + Excerpt(path, kLongExcerpt - tool.size() - 1);
}

// The plan's title (first non-blank line without '#') and the rest's first sentences.
StagedDecision PlanDecision(std::string_view plan) {
  StagedDecision d;
  std::string_view rest = plan;
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    std::string_view line = text::Trim(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    while (!line.empty() && (line.front() == '#' || line.front() == ' ')) line.remove_prefix(1);
    if (!line.empty()) {
      d.chosen = Excerpt(line, kShortExcerpt);
      break;
    }
  }
  d.rationale = Excerpt(rest, kLongExcerpt);
  return d;
}

// The answers of an AskUserQuestion result: `"question"="answer"` pairs.
std::vector<StagedDecision> AnsweredQuestions(const std::string& questions_json,
                                              std::string_view result) {
  std::vector<StagedDecision> out;
  json::Limits lim;
  auto qs = json::Parse(questions_json, lim);
  if (!qs || !qs->is_array()) return out;
  for (const auto& q : *qs) {
    std::string question = json::StringOr(q, "question", "");
    if (question.empty()) continue;
    std::string key = "\"" + activity::Excerpt(question, 4096) + "\"=\"";
    size_t at = result.find(key);
    if (at == std::string_view::npos) {
      // The result squeezes white space the question may hold: match on its start.
      std::string head = "\"" + activity::Excerpt(question, 60);
      at = result.find(head);
      if (at == std::string_view::npos) continue;
      at = result.find("\"=\"", at);
      if (at == std::string_view::npos) continue;
      key = "\"=\"";
    }
    size_t start = at + key.size();
    size_t end = result.find('"', start);
    if (end == std::string_view::npos) continue;
    StagedDecision d;
    if (const auto* opts = json::Find(q, "options"); opts && opts->is_array()) {
      for (const auto& o : *opts) {
        std::string label = json::StringOr(o, "label", "");
        if (!label.empty() && d.options.size() < kMaxOptions)
          d.options.push_back(Excerpt(label, kShortExcerpt));
      }
    }
    d.chosen = Excerpt(result.substr(start, end - start), kShortExcerpt);
    d.rationale = Excerpt(question, kLongExcerpt);
    if (!d.chosen.empty()) out.push_back(std::move(d));
  }
  return out;
}

// One item of any list, for ranking.
struct Ranked {
  int rank;      // lower first
  int64_t line;  // transcript order within a rank
  size_t bytes;
  size_t index;  // into its list
  char list;     // 'a' attempts, 'o' outcomes, 'd' decisions, 'q' requests, 's' discussions
};

size_t Bytes(const StagedDecision& d) {
  size_t n = d.chosen.size() + d.rationale.size() + 48;
  for (const auto& o : d.options) n += o.size() + 3;
  return n;
}
size_t Bytes(const StagedDiscussion& d) {
  size_t n = d.topic.size() + 32;
  for (const auto& p : d.points) n += p.size() + 3;
  return n;
}
size_t Bytes(const StagedAttempt& a) {
  size_t n = a.action.size() + a.result.size() + a.cause.size() + a.fix.size() + 80;
  for (const auto& f : a.files) n += f.size() + 3;
  return n;
}
size_t Bytes(const StagedRequest& q) {
  return q.intent.size() + q.summary.size() + (q.target ? q.target->size() : 0) + 48;
}
size_t Bytes(const StagedOutcome& o) { return o.what.size() + o.detail.size() + 64; }

template <class T>
int64_t LineOf(const T& item) {
  return item.origin.lines ? static_cast<int64_t>(item.origin.lines->from) : 0;
}

template <class T>
std::vector<T> Keep(std::vector<T>& list, const std::vector<bool>& keep) {
  std::vector<T> out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (keep[i]) out.push_back(std::move(list[i]));
  }
  return out;
}

// The person answers the agent's numbered questions ("1.A  2. native look
// 3. B"): a decision per answer, titled by the option its letter picks or by
// the person's own words, its reason the question.
std::vector<StagedDecision> InterviewDecisions(
    const std::string& reply, const std::vector<activity::NumberedQuestion>& questions,
    const ItemOrigin& origin) {
  std::vector<StagedDecision> out;
  if (questions.empty()) return out;
  std::vector<int> numbers;
  for (const auto& q : questions) numbers.push_back(q.number);
  const std::vector<activity::NumberedAnswer> answers = activity::NumberedAnswers(reply, numbers);
  if (answers.size() < 2) return out;
  for (const auto& a : answers) {
    const auto q =
        std::find_if(questions.begin(), questions.end(),
                     [&](const activity::NumberedQuestion& x) { return x.number == a.number; });
    StagedDecision d;
    const std::vector<size_t> picked = activity::PickedLetters(a.text, *q);
    // The question's options name the decision (its topic, "csv-or-parquet");
    // a pick of several keeps only the others, so that it is not "over" itself.
    for (size_t i = 0; i < q->options.size(); ++i) {
      const bool chosen = std::find(picked.begin(), picked.end(), i) != picked.end();
      if (chosen) d.chosen += (d.chosen.empty() ? "" : " + ") + q->options[i];
      if (!chosen || picked.size() == 1) d.options.push_back(q->options[i]);
    }
    if (picked.empty()) d.chosen = a.text;
    d.chosen = Excerpt(d.chosen, kShortExcerpt);
    if (d.options.size() > kMaxOptions) d.options.resize(kMaxOptions);
    d.rationale = q->title;
    d.origin = origin;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

bool IsEmpty(const consolidate::StagedEntry& e) {
  return e.decisions.empty() && e.discussions.empty() && e.attempts.empty() && e.requests.empty() &&
         e.outcomes.empty();
}

template <class T>
void RulesEngine::Push(std::vector<T>& list, T item) {
  if (list.size() >= kMaxCandidates) {
    ++dropped_;
    return;
  }
  list.push_back(std::move(item));
}

void RulesEngine::CloseDiscussion() {
  if (open_ && !open_->points.empty()) Push(entry_.discussions, std::move(*open_));
  open_.reset();
}

void RulesEngine::Person(const Event& e) {
  CloseDiscussion();
  awaiting_reason_.reset();
  if (declined_ && *declined_ < entry_.decisions.size()) {
    const std::string own = activity::OwnWords(e.text);
    if (!own.empty() && !activity::IsAcknowledgement(own))
      entry_.decisions[*declined_].rationale = Excerpt(own, kLongExcerpt);
  }
  declined_.reset();
  const std::string& text = e.text;
  const std::string low = text::AsciiLower(text.substr(0, 4096));
  const std::string asked = activity::ClosingQuestion(last_assistant_);
  std::vector<std::string> markers;
  const std::vector<std::string> options = activity::ListedOptions(last_assistant_, 9, &markers);
  const std::vector<activity::NumberedQuestion> interview =
      activity::NumberedQuestions(last_assistant_);
  // The question the options answer: the closing one, else the agent's first
  // sentence when it asks (its first words are otherwise no reason: "I'd be
  // happy to add that!").
  std::string opening = FirstSentence(last_assistant_, kLongExcerpt);
  if (opening.empty() || opening.back() != '?') opening.clear();
  const std::string question = asked.empty() ? Excerpt(opening, kLongExcerpt) : asked;
  const int64_t agent_line = last_assistant_line_;
  const std::string offered = std::move(last_assistant_);
  last_assistant_.clear();
  const ItemOrigin own = Origin(e.line, e.line, e.at);
  const ItemOrigin with_question = Origin(agent_line > 0 ? agent_line : e.line, e.line, e.at);
  if (auto asked_back = InterviewDecisions(text, interview, with_question); !asked_back.empty()) {
    for (auto& d : asked_back) Push(entry_.decisions, std::move(d));
    return;
  }
  size_t len = 0;
  if (auto at = FindChoice(low, &len)) {
    StagedDecision d;
    d.chosen = ChosenAfter(text, *at + len);
    d.options = options;
    if (d.options.size() > kMaxOptions) d.options.resize(kMaxOptions);
    d.rationale = Excerpt(text, kLongExcerpt);
    d.origin = own;
    if (!d.chosen.empty()) return Push(entry_.decisions, std::move(d));
  }
  const bool short_reply = activity::WordCount(text) <= kShortReplyWords;
  const bool choice_question =
      !options.empty() || text::AsciiLower(asked).find(" or ") != std::string::npos;
  // A pick with the person's own reason after it, however long: their reason
  // before the agent's.
  if (auto picked = PickAndReason(text, options, markers)) {
    StagedDecision d;
    d.options = options;
    if (d.options.size() > kMaxOptions) d.options.resize(kMaxOptions);
    d.chosen = Excerpt(options[picked->first], kShortExcerpt);
    d.rationale = std::move(picked->second);
    d.origin = with_question;
    return Push(entry_.decisions, std::move(d));
  }
  if (short_reply && choice_question && !OwnList(text)) {
    // "2", "B", "yes, force push": the person picks from what the agent offered.
    if (auto i = activity::ChosenOption(text, options, markers)) {
      StagedDecision d;
      d.options = options;
      if (d.options.size() > kMaxOptions) d.options.resize(kMaxOptions);
      d.chosen = Excerpt(options[*i], kShortExcerpt);
      // The agent's own recommendation of the option picked is its reason; else the question,
      // or the agent's next words when they speak of the choice.
      d.rationale = activity::Recommendation(offered, options, markers, *i);
      const bool recommended = !d.rationale.empty();
      if (!recommended) d.rationale = question;
      d.origin = with_question;
      if (!recommended && entry_.decisions.size() < kMaxCandidates)
        awaiting_reason_ = entry_.decisions.size();
      return Push(entry_.decisions, std::move(d));
    }
    if (!asked.empty() && !activity::IsQuestion(text) && NamedIn(text, asked)) {
      // "force push" to "Should I force push or rebase?": a choice it named.
      StagedDecision d;
      d.chosen = Excerpt(text, kShortExcerpt);
      d.rationale = asked;
      d.origin = with_question;
      return Push(entry_.decisions, std::move(d));
    }
  }
  if (!asked.empty() && short_reply && IsYesNo(low)) {
    // A yes to an offer to act is consent, neither a decision nor a new task.
    if (!low.starts_with("no") && OffersToAct(asked)) return;
    // The person settles the agent's question: "yes, treat it as empty".
    StagedDecision d;
    d.chosen = Excerpt(text, kShortExcerpt);
    d.rationale = asked;
    d.origin = with_question;
    return Push(entry_.decisions, std::move(d));
  }
  if (activity::IsQuestion(text)) {
    open_ = StagedDiscussion{Excerpt(text, kShortExcerpt), {}, own};
    return;
  }
  if (activity::IsAcknowledgement(text)) return;  // "ok", "thanks", "continue"
  // "3" to options no line shows (the agent's list was in a line that did not parse): an
  // answer whose question is lost, never a task.
  if (activity::IsOptionAnswer(text)) return;
  StagedRequest r;
  r.intent = MainSentence(text, kShortExcerpt);
  r.summary = Excerpt(text, kLongExcerpt);
  if (std::string path = FirstPath(text); !path.empty()) r.target = Excerpt(path, kShortExcerpt);
  r.origin = own;
  if (r.intent.empty() || r.summary.empty()) return;
  for (const auto& q : entry_.requests) {
    if (q.summary == r.summary) return;  // said again
  }
  Push(entry_.requests, std::move(r));
}

void RulesEngine::Assistant(const Event& e) {
  last_assistant_ = e.text.substr(0, kMaxAssistantKept);
  last_assistant_line_ = e.line;
  if (awaiting_reason_ && *awaiting_reason_ < entry_.decisions.size()) {
    // The agent's first words after the person picked an option, when they speak of the
    // choice (name it, or say why), are the decision's reason: the question it answered
    // ("Which one?") says less.
    StagedDecision& d = entry_.decisions[*awaiting_reason_];
    const std::string said = activity::Diagnosis(e.text, kLongExcerpt);
    const std::string low = text::AsciiLower(said);
    const std::string chosen = text::AsciiLower(d.chosen);
    const std::string first_word = chosen.substr(0, chosen.find(' '));
    bool speaks = first_word.size() >= 3 && low.find(first_word) != std::string::npos;
    for (std::string_view w : {"because", "since ", "going with", "went with", "chose", "option"})
      speaks = speaks || low.find(w) != std::string::npos;
    if (!said.empty() && speaks) d.rationale = said;
  }
  awaiting_reason_.reset();
  if (!open_ || open_->points.size() >= kMaxPoints) return;
  for (std::string_view raw : text::Lines(e.text)) {
    if (open_->points.size() >= kMaxPoints) break;
    std::string_view line = text::Trim(raw);
    if (line.empty() || line.starts_with("```") || line.starts_with("#")) continue;
    std::string p = FirstSentence(line, kLongExcerpt);
    if (p.size() < 24) p = Excerpt(line, kLongExcerpt);  // "No." says little alone
    if (p.size() >= 8) open_->points.push_back(std::move(p));
  }
  if (open_->origin.lines) open_->origin.lines->to = static_cast<uint64_t>(e.line);
}

void RulesEngine::OnResult(const Event& e) {
  auto it =
      std::find_if(calls_.begin(), calls_.end(), [&](const Call& c) { return c.id == e.tool_id; });
  if (it == calls_.end()) return;
  Call call = std::move(*it);
  calls_.erase(it);
  const ItemOrigin origin = Origin(call.line, e.line, e.at);
  if (e.status == ResultStatus::kRejected) {
    // The person declined the action: a decision, never a failure. (Declining
    // the agent's questions only means they answered otherwise, in the chat.)
    if (call.name == "AskUserQuestion") return;
    StagedDecision d;
    d.chosen = Excerpt(
        "Declined: " + (call.note.empty() ? Action(call.name, call.detail, checkout_) : call.note),
        kShortExcerpt);
    d.rationale =
        !e.reason.empty() ? Excerpt(e.reason, kLongExcerpt) : Excerpt(call.intent, kLongExcerpt);
    d.origin = origin;
    // With no reason given with the refusal, the person's next words give it
    // ("dont touch that file. we never edit a migration once its merged").
    if (e.reason.empty() && entry_.decisions.size() < kMaxCandidates)
      declined_ = entry_.decisions.size();
    Push(entry_.decisions, std::move(d));
    return;
  }
  if (e.status != ResultStatus::kOk) return;
  if (call.name == "ExitPlanMode") {
    if (call.detail.empty()) return;
    StagedDecision d = PlanDecision(call.detail);
    d.origin = origin;
    if (!d.chosen.empty()) Push(entry_.decisions, std::move(d));
  } else if (call.name == "AskUserQuestion") {
    for (auto& d : AnsweredQuestions(call.detail, e.text)) {
      d.origin = origin;
      Push(entry_.decisions, std::move(d));
    }
  }
}

Status RulesEngine::Take(const Event& e) {
  // A subagent's branch holds the agent's prompt to it and its own steps, not
  // the person's words; its answer comes back to the main thread as a tool result.
  if (e.sidechain) return Ok();
  if (!e.at.empty()) {
    if (first_at_.empty() || e.at < first_at_) first_at_ = e.at;
    if (e.at > last_at_) last_at_ = e.at;
  }
  episodes_.Take(e);
  outcomes_.Take(e);
  switch (e.kind) {
    case EventKind::kPersonText:
      Person(e);
      break;
    case EventKind::kAssistantText:
      Assistant(e);
      break;
    case EventKind::kToolUse:
      if (!Wanted(e.tool_name)) break;
      if (calls_.size() >= kMaxCalls) calls_.pop_front();
      calls_.push_back({e.tool_id, e.tool_name, e.detail, e.note, e.line,
                        FirstSentence(last_assistant_, kLongExcerpt)});
      break;
    case EventKind::kToolResult:
      OnResult(e);
      break;
    case EventKind::kCompaction:
    case EventKind::kInterrupt:
      CloseDiscussion();
      break;
  }
  return Ok();
}

Result<consolidate::StagedEntry> RulesEngine::Finish() {
  CloseDiscussion();
  for (const auto& ep : episodes_.Finish()) {
    StagedAttempt a;
    a.action = Excerpt(ep.action, kLongExcerpt);
    a.result = activity::Cut(ep.error, kLongExcerpt);  // lines kept: its signature reads them
    a.succeeded = false;
    a.cause = ep.cause;
    a.fix = Excerpt(ep.fix, kLongExcerpt);
    a.files = ep.files;
    a.origin = Origin(ep.first_line, ep.last_line, ep.at);
    if (!a.action.empty()) entry_.attempts.push_back(std::move(a));
  }
  for (const auto& o : outcomes_.Finish()) {
    StagedOutcome x;
    x.kind = o.kind;
    x.what = o.what;
    x.ok = o.ok;
    x.detail = o.detail;
    x.origin = Origin(o.first_line, o.last_line, o.at);
    if (!x.what.empty()) entry_.outcomes.push_back(std::move(x));
  }
  // Rank every item and keep the best within the budget.
  std::vector<Ranked> all;
  for (size_t i = 0; i < entry_.attempts.size(); ++i) {
    const auto& a = entry_.attempts[i];
    all.push_back({a.fix.empty() ? 3 : 0, LineOf(a), Bytes(a), i, 'a'});
  }
  for (size_t i = 0; i < entry_.outcomes.size(); ++i)
    all.push_back({1, LineOf(entry_.outcomes[i]), Bytes(entry_.outcomes[i]), i, 'o'});
  for (size_t i = 0; i < entry_.decisions.size(); ++i)
    all.push_back({2, LineOf(entry_.decisions[i]), Bytes(entry_.decisions[i]), i, 'd'});
  for (size_t i = 0; i < entry_.requests.size(); ++i)
    all.push_back({4, LineOf(entry_.requests[i]), Bytes(entry_.requests[i]), i, 'q'});
  for (size_t i = 0; i < entry_.discussions.size(); ++i)
    all.push_back({5, LineOf(entry_.discussions[i]), Bytes(entry_.discussions[i]), i, 's'});
  std::stable_sort(all.begin(), all.end(), [](const Ranked& a, const Ranked& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.line < b.line;
  });
  std::vector<bool> ka(entry_.attempts.size()), ko(entry_.outcomes.size()),
      kd(entry_.decisions.size()), kq(entry_.requests.size()), ks(entry_.discussions.size());
  size_t used = 0;
  for (const Ranked& r : all) {
    if (used + r.bytes > kEntryBudget) {
      ++dropped_;
      continue;
    }
    used += r.bytes;
    switch (r.list) {
      case 'a':
        ka[r.index] = true;
        break;
      case 'o':
        ko[r.index] = true;
        break;
      case 'd':
        kd[r.index] = true;
        break;
      case 'q':
        kq[r.index] = true;
        break;
      default:
        ks[r.index] = true;
        break;
    }
  }
  entry_.attempts = Keep(entry_.attempts, ka);
  entry_.outcomes = Keep(entry_.outcomes, ko);
  entry_.decisions = Keep(entry_.decisions, kd);
  entry_.requests = Keep(entry_.requests, kq);
  entry_.discussions = Keep(entry_.discussions, ks);
  entry_.started_at = first_at_;
  entry_.ended_at = last_at_;
  return std::move(entry_);
}

}  // namespace lore::extract
