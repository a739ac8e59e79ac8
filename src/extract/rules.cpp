#include "lore/extract/rules.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <nlohmann/json.hpp>

#include "lore/extract/excerpt.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"

namespace lore::extract {
namespace {

using consolidate::StagedAttempt;
using consolidate::StagedDecision;
using consolidate::StagedDiscussion;
using consolidate::StagedRequest;

constexpr size_t kMaxCalls = 256;           // tool calls awaiting a result
constexpr size_t kMaxAssistantKept = 8192;  // of the agent's last words

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Phrasings by which the person states a choice: the chosen thing follows.
constexpr std::array<std::string_view, 12> kChoicePhrases = {
    "let's go with ", "lets go with ", "let's use ",     "go with ",
    "we'll go with ", "i'll go with ", "we'll use ",     "i choose ",
    "i pick ",        "let's pick ",   "we decided to ", "let's do option "};

// The chosen thing after a choice phrase, up to the end of its clause.
std::string ChosenAfter(std::string_view text, size_t at) {
  std::string_view rest = text.substr(at);
  size_t end = rest.size();
  for (std::string_view stop :
       {". ", ", ", "; ", "\n", " because ", " since ", " - ", " — ", "!"}) {
    size_t p = rest.find(stop);
    if (p != std::string_view::npos) end = std::min(end, p);
  }
  std::string_view chosen = Trim(rest.substr(0, end));
  while (!chosen.empty() && (chosen.back() == '.' || chosen.back() == '?')) chosen.remove_suffix(1);
  return Excerpt(chosen, kShortExcerpt);
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

// Named options listed by the agent: "1. **SQLite** — …", "- Option A: …", "A) …".
std::vector<std::string> NamedOptions(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size() && out.size() < kMaxOptions) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    size_t skip = 0;
    if (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
        (line[1] == '.' || line[1] == ')') && line[2] == ' ') {
      skip = 3;
    } else if (StartsWith(line, "- **") || StartsWith(line, "* **")) {
      skip = 2;
    } else if (StartsWith(line, "**Option") || StartsWith(line, "Option ")) {
      skip = 0;
    } else {
      continue;
    }
    std::string_view label = line.substr(skip);
    size_t stop = label.size();
    for (std::string_view s : {":", " — ", " - ", " – ", "("}) {
      size_t p = label.find(s);
      if (p != std::string_view::npos && p > 0) stop = std::min(stop, p);
    }
    std::string cleaned;
    for (char c : label.substr(0, stop))
      if (c != '*' && c != '`') cleaned += c;
    std::string ex = Excerpt(cleaned, kShortExcerpt);
    if (!ex.empty()) out.push_back(std::move(ex));
  }
  if (out.size() < 2) out.clear();
  return out;
}

bool IsQuestion(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.empty()) return false;
  std::string low = Lower(t.substr(0, 32));
  for (std::string_view ask :
       {"can you ", "could you ", "would you ", "will you ", "please ", "can we ", "could we "}) {
    if (StartsWith(low, ask)) return false;  // a request put politely
  }
  // A question: its first line ends with '?', or it opens with a question word and holds one.
  std::string first = FirstLine(t, 4096);
  if (!first.empty() && first.back() == '?') return true;
  // Openings that are never an order: a question even without its '?'.
  for (std::string_view w :
       {"why ", "does ", "is there ", "is it ", "are there ", "should we ", "should i "}) {
    if (StartsWith(low, w)) return true;
  }
  for (std::string_view w :
       {"how ", "what ", "which ", "should ", "is ", "are ", "do ", "where ", "when "}) {
    if (StartsWith(low, w)) return t.find('?') != std::string_view::npos;
  }
  return false;
}

// A short line of the agent's answer, for a discussion's points.
std::vector<std::string> Points(std::string_view text, size_t room) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size() && out.size() < room) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || StartsWith(line, "```") || StartsWith(line, "#")) continue;
    std::string p = FirstSentence(line, kLongExcerpt);
    if (p.size() < 24) p = Excerpt(line, kLongExcerpt);  // "No." says little alone
    if (p.size() >= 8) out.push_back(std::move(p));
  }
  return out;
}

size_t Words(std::string_view s) {
  size_t n = 0;
  bool in = false;
  for (char c : s) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space && !in) ++n;
    in = !space;
  }
  return n;
}

// The agent's last sentence when it is a question ("… or treat that as empty too?").
std::string ClosingQuestion(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.empty() || t.back() != '?') return "";
  size_t start = t.find_last_of(".!\n", t.size() - 2);
  return Excerpt(start == std::string_view::npos ? t : t.substr(start + 1), kLongExcerpt);
}

// A reply that answers a yes/no question.
bool IsYesNo(const std::string& low) {
  for (std::string_view w : {"yes", "yeah", "yep", "no", "nope", "sure", "correct"}) {
    if (StartsWith(low, w) &&
        (low.size() == w.size() || !std::isalnum(static_cast<unsigned char>(low[w.size()])))) {
      return true;
    }
  }
  return false;
}

bool IsFileTool(const std::string& name) {
  return name == "Edit" || name == "Write" || name == "MultiEdit" || name == "NotebookEdit";
}

bool Wanted(const std::string& name) {
  return name == "Bash" || IsFileTool(name) || name == "ExitPlanMode" || name == "AskUserQuestion";
}

// The plan's title (first non-blank line without '#') and the rest's first sentences.
StagedDecision PlanDecision(std::string_view plan) {
  StagedDecision d;
  std::string_view rest = plan;
  while (!rest.empty()) {
    size_t end = rest.find('\n');
    std::string_view line = Trim(rest.substr(0, end));
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
    std::string key = "\"" + question + "\"=\"";
    size_t at = result.find(key);
    if (at == std::string_view::npos) continue;
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

}  // namespace

bool IsEmpty(const consolidate::StagedEntry& e) {
  return e.decisions.empty() && e.discussions.empty() && e.attempts.empty() && e.requests.empty();
}

template <class T>
void RulesEngine::Push(std::vector<T>& list, T item) {
  if (list.size() >= kMaxItems) {
    ++dropped_;
    return;
  }
  list.push_back(std::move(item));
}

void RulesEngine::CloseDiscussion() {
  if (open_ && !open_->points.empty()) Push(entry_.discussions, std::move(*open_));
  open_.reset();
}

void RulesEngine::Person(const std::string& text) {
  CloseDiscussion();
  const std::string low = Lower(text);
  size_t len = 0;
  if (auto at = FindChoice(low, &len)) {
    StagedDecision d;
    d.chosen = ChosenAfter(text, *at + len);
    d.options = NamedOptions(last_assistant_);
    d.rationale = Excerpt(text, kLongExcerpt);
    if (!d.chosen.empty()) return Push(entry_.decisions, std::move(d));
  }
  if (std::string asked = ClosingQuestion(last_assistant_); !asked.empty() && IsYesNo(low)) {
    // The person settles the agent's question: "yes, treat it as empty".
    StagedDecision d;
    d.chosen = Excerpt(text, kShortExcerpt);
    d.rationale = asked;
    last_assistant_.clear();
    return Push(entry_.decisions, std::move(d));
  }
  last_assistant_.clear();
  if (IsQuestion(text)) {
    open_ = StagedDiscussion{Excerpt(text, kShortExcerpt), {}};
    return;
  }
  // "ok", "thanks", "continue": nothing to remember.
  if (Words(text) < 3 && FirstPath(text).empty()) return;
  StagedRequest r;
  r.intent = MainSentence(text, kShortExcerpt);
  r.summary = Excerpt(text, kLongExcerpt);
  if (std::string path = FirstPath(text); !path.empty()) r.target = Excerpt(path, kShortExcerpt);
  if (r.intent.empty() || r.summary.empty()) return;
  for (const auto& q : entry_.requests) {
    if (q.summary == r.summary) return;  // said again
  }
  Push(entry_.requests, std::move(r));
}

void RulesEngine::Assistant(const std::string& text) {
  last_assistant_ = text.substr(0, kMaxAssistantKept);
  if (!open_ || open_->points.size() >= kMaxPoints) return;
  for (auto& p : Points(text, kMaxPoints - open_->points.size()))
    open_->points.push_back(std::move(p));
}

void RulesEngine::OnResult(const Event& e) {
  auto it =
      std::find_if(calls_.begin(), calls_.end(), [&](const Call& c) { return c.id == e.tool_id; });
  if (it == calls_.end()) return;
  Call call = std::move(*it);
  calls_.erase(it);
  bool exit_failed = e.exit_code && *e.exit_code != 0;
  if (StartsWith(Trim(e.text), "Exit code ") && !StartsWith(Trim(e.text), "Exit code 0"))
    exit_failed = true;
  if (call.name == "Bash") {
    StagedAttempt a;
    a.action = FirstLine(call.detail, kLongExcerpt);
    a.succeeded = !e.is_error && !exit_failed;
    a.result = a.succeeded ? FirstLine(e.text, kLongExcerpt) : FirstErrorLine(e.text, kLongExcerpt);
    if (!a.action.empty()) Push(entry_.attempts, std::move(a));
  } else if (IsFileTool(call.name)) {
    StagedAttempt a;
    a.action = call.name + " " + Excerpt(call.detail, kLongExcerpt - call.name.size() - 1);
    a.succeeded = !e.is_error;
    a.result = a.succeeded ? "" : FirstErrorLine(e.text, kLongExcerpt);
    Push(entry_.attempts, std::move(a));
  } else if (call.name == "ExitPlanMode") {
    if (e.is_error || call.detail.empty()) return;  // the person did not approve it
    StagedDecision d = PlanDecision(call.detail);
    if (!d.chosen.empty()) Push(entry_.decisions, std::move(d));
  } else if (call.name == "AskUserQuestion") {
    if (e.is_error) return;
    for (auto& d : AnsweredQuestions(call.detail, e.text)) Push(entry_.decisions, std::move(d));
  }
}

Status RulesEngine::Take(const Event& e) {
  // A subagent's branch holds the agent's prompt to it and its own steps, not
  // the person's words; its answer comes back to the main thread as a tool result.
  if (e.sidechain) return Ok();
  switch (e.kind) {
    case EventKind::kPersonText:
      Person(e.text);
      break;
    case EventKind::kAssistantText:
      Assistant(e.text);
      break;
    case EventKind::kToolUse:
      if (!Wanted(e.tool_name)) break;
      if (calls_.size() >= kMaxCalls) calls_.pop_front();
      calls_.push_back({e.tool_id, e.tool_name, e.detail});
      break;
    case EventKind::kToolResult:
      OnResult(e);
      break;
  }
  return Ok();
}

Result<consolidate::StagedEntry> RulesEngine::Finish() {
  CloseDiscussion();
  return std::move(entry_);
}

}  // namespace lore::extract
