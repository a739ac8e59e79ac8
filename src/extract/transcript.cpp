#include "lore/extract/transcript.h"

#include <array>

#include <nlohmann/json.hpp>

#include "activity/clean.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/text/time.h"
#include "lore/text/utf8.h"
#include "redact/redact.h"

namespace lore::extract {
namespace {

using activity::Classify;
using activity::Readable;
using activity::WithoutHarness;

constexpr size_t kMaxDetail = 8192;   // of a tool call's input, before the session log's caps
constexpr size_t kResultTail = 1024;  // of a long result, its last bytes are kept too

std::string_view TrimFront(std::string_view s) {
  size_t i = s.find_first_not_of(" \t\r\n");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

// The text between <tag> and </tag> in `s`, or nullopt.
std::optional<std::string_view> Tagged(std::string_view s, std::string_view tag) {
  std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  size_t a = s.find(open);
  if (a == std::string_view::npos) return std::nullopt;
  a += open.size();
  size_t b = s.find(close, a);
  if (b == std::string_view::npos) return std::nullopt;
  return s.substr(a, b - a);
}

// Slash commands that steer the session itself, not the work.
bool SessionCommand(std::string_view name) {
  static constexpr std::array<std::string_view, 20> kCommands = {
      "/clear",  "/exit", "/compact",     "/resume", "/login",  "/logout",  "/cost",
      "/status", "/help", "/config",      "/model",  "/doctor", "/context", "/usage",
      "/ide",    "/vim",  "/permissions", "/hooks",  "/rewind", "/quit"};
  for (auto c : kCommands) {
    if (name == c) return true;
  }
  return false;
}

// What the person did when the harness wrapped it: a slash command with its
// arguments ("/review-pr 12") or a shell command they ran ("! git push").
// Empty when the text is harness text with nothing of theirs.
std::string PersonAction(std::string_view text) {
  std::string_view t = TrimFront(text);
  if (t.starts_with("<command-name>") || t.starts_with("<command-message>")) {
    auto name = Tagged(t, "command-name");
    if (!name || SessionCommand(*name)) return "";
    std::string out(*name);
    if (auto args = Tagged(t, "command-args"); args && !TrimFront(*args).empty())
      out += " " + std::string(*args);
    return out;
  }
  if (t.starts_with("<bash-input>")) {
    if (auto cmd = Tagged(t, "bash-input")) return "! " + std::string(*cmd);
  }
  return "";
}

// Cleans a text: private spans and secrets removed, then escapes, control
// characters and the harness's words. The text blocks of one message go
// through one `message` cleaner, so that a <private> span may run across
// them. A text that is empty afterwards gives no event.
std::string CleanText(std::string_view raw, redact::MessageCleaner* message = nullptr) {
  return WithoutHarness(Readable(message ? message->Next(raw) : redact::Clean(raw)));
}

// A tool result's content (a string or text blocks): its first and last
// bytes when long, cleaned (secrets before the cut, so that one across the
// cut is still found).
std::string ResultText(const SortedJson& content) {
  std::string out;
  auto add = [&out](std::string_view s) {
    if (!out.empty()) out += '\n';
    out += s;
  };
  if (content.is_string()) {
    add(content.get_ref<const std::string&>());
  } else if (content.is_array()) {
    for (const SortedJson& b : content) {
      if (const SortedJson* t = json::Find(b, "text"); t && t->is_string())
        add(t->get_ref<const std::string&>());
    }
  }
  // Cleaned in two slices with room around each cut, so that a long output
  // costs no more than its ends and a secret across a cut is still found.
  constexpr size_t kRoom = 1024;
  if (out.size() <= kMaxResultText + kRoom) {
    std::string clean = CleanText(out);
    if (clean.size() <= kMaxResultText) return clean;
    out = std::move(clean);
  }
  const size_t head_bytes = kMaxResultText - kResultTail - 8;
  std::string head = CleanText(text::PrefixBytes(out, head_bytes + kRoom));
  head.resize(text::PrefixBytes(head, head_bytes).size());
  std::string_view raw_tail = std::string_view(out).substr(out.size() - (kResultTail + kRoom));
  std::string tail = CleanText(raw_tail);
  std::string_view t = tail;
  if (t.size() > kResultTail) t = t.substr(t.size() - kResultTail);
  while (!t.empty() && (static_cast<unsigned char>(t.front()) & 0xC0) == 0x80)
    t.remove_prefix(1);  // start on a code point
  return head + "\n…\n" + std::string(t);
}

// A todo list as "[x] done; [>] doing; [ ] to do".
std::string TodoList(const SortedJson& todos) {
  std::string out;
  if (!todos.is_array()) return out;
  for (const SortedJson& t : todos) {
    std::string content = json::StringOr(t, "content", "");
    if (content.empty()) continue;
    std::string status = json::StringOr(t, "status", "");
    const char* mark = status == "completed" ? "[x] " : status == "in_progress" ? "[>] " : "[ ] ";
    if (!out.empty()) out += "\n";
    out += mark + content;
  }
  return out;
}

// What a file-writing call (activity::IsFileEditTool) puts in the file: an
// edit's new text (each of a MultiEdit's, one per line), a new file's
// contents, a notebook cell's source.
std::string EditChange(const std::string& name, const SortedJson& input) {
  if (name == "Edit") return json::StringOr(input, "new_string", "");
  if (name == "Write") return json::StringOr(input, "content", "");
  if (name == "NotebookEdit") return json::StringOr(input, "new_source", "");
  std::string out;
  if (const SortedJson* edits = json::Find(input, "edits"); edits && edits->is_array()) {
    for (const SortedJson& e : *edits) {
      std::string n = json::StringOr(e, "new_string", "");
      if (n.empty() || out.size() > kMaxDetail) continue;
      out += (out.empty() ? "" : "\n") + n;
    }
  }
  return out;
}

// What identifies a tool call: a shell command, a file, a plan, questions, a
// todo list, a search. `note`: the agent's own description of it.
std::string ToolDetail(const std::string& name, const SortedJson& input, std::string* note) {
  *note = json::StringOr(input, "description", "");
  if (name == "Bash") return json::StringOr(input, "command", "");
  if (name == "ExitPlanMode") return json::StringOr(input, "plan", "");
  if (name == "AskUserQuestion") {
    const SortedJson* q = json::Find(input, "questions");
    return q ? q->dump(-1, ' ', false, SortedJson::error_handler_t::replace) : "";
  }
  if (name == "TodoWrite") {
    const SortedJson* t = json::Find(input, "todos");
    return t ? TodoList(*t) : "";
  }
  if (name == "Task" || name == "Agent") return json::StringOr(input, "prompt", "");
  if (name == "WebFetch") return json::StringOr(input, "url", "");
  if (name == "WebSearch") return json::StringOr(input, "query", "");
  if (name == "Grep" || name == "Glob") {
    std::string p = json::StringOr(input, "pattern", "");
    std::string where = json::StringOr(input, "path", "");
    return where.empty() ? p : p + " in " + where;
  }
  for (const char* key : {"file_path", "notebook_path", "path"}) {
    if (auto s = json::String(input, key)) return *s;
  }
  if (name.starts_with("mcp__"))
    return input.dump(-1, ' ', false, SortedJson::error_handler_t::replace);
  return "";
}

Event Make(EventKind kind, int64_t number, const ParsedLine& line) {
  Event e;
  e.kind = kind;
  e.line = number;
  e.sidechain = line.sidechain;
  e.at = line.at;
  return e;
}

void PersonEvent(std::string_view raw, int64_t number, ParsedLine* out,
                 redact::MessageCleaner* message = nullptr) {
  std::string_view t = TrimFront(raw);
  if (t.starts_with("[Request interrupted by user") || t.starts_with("[Request cancelled")) {
    out->events.push_back(Make(EventKind::kInterrupt, number, *out));
    return;
  }
  std::string text;
  if (IsHarnessText(raw)) {
    text = PersonAction(raw);
    if (text.empty()) return;
  } else {
    text = std::string(raw);
  }
  text = CleanText(text, message);
  if (TrimFront(text).empty()) return;
  Event e = Make(EventKind::kPersonText, number, *out);
  e.text = std::move(text);
  out->events.push_back(std::move(e));
}

void ResultEvent(const SortedJson& j, const SortedJson& b, int64_t number, ParsedLine* out) {
  Event e = Make(EventKind::kToolResult, number, *out);
  e.tool_id = json::StringOr(b, "tool_use_id", "");
  std::string raw;
  if (const SortedJson* c = json::Find(b, "content")) {
    if (c->is_string()) {
      raw = std::string(text::PrefixBytes(c->get<std::string>(), 1024));
    } else if (c->is_array() && !c->empty()) {
      raw = std::string(text::PrefixBytes(json::StringOr((*c)[0], "text", ""), 1024));
    }
    e.text = ResultText(*c);
  }
  const bool is_error = json::Bool(b, "is_error").value_or(false);
  bool interrupted = false;
  if (const SortedJson* tur = json::Find(j, "toolUseResult"); tur && tur->is_object()) {
    for (const char* key : {"exitCode", "exit_code", "returnCode"}) {
      if (auto code = json::Int(*tur, key)) e.exit_code = code;
    }
    interrupted = json::Bool(*tur, "interrupted").value_or(false);
  }
  // The command is not known here: a search's "no match" is told apart when
  // the result meets its call (activity/session_log.cpp).
  e.status = interrupted ? ResultStatus::kInterrupted
                         : Classify(raw, is_error, e.exit_code, "", &e.reason);
  if (e.status != ResultStatus::kOk && e.status != ResultStatus::kFailed) e.text.clear();
  e.reason = CleanText(e.reason);
  out->events.push_back(std::move(e));
}

void UserEvents(const SortedJson& j, const SortedJson& content, int64_t number, ParsedLine* out) {
  if (content.is_string()) return PersonEvent(content.get<std::string>(), number, out);
  if (!content.is_array()) return;
  redact::MessageCleaner message;
  for (const SortedJson& b : content) {
    std::string type = json::StringOr(b, "type", "");
    if (type == "text") {
      if (auto t = json::String(b, "text")) PersonEvent(*t, number, out, &message);
    } else if (type == "tool_result") {
      ResultEvent(j, b, number, out);
    }
  }
}

// The model's summary after a compaction, without the harness's preamble and
// its closing instruction to the model.
void CompactionEvent(const SortedJson& content, int64_t number, ParsedLine* out) {
  std::string text;
  if (content.is_string()) {
    text = content.get<std::string>();
  } else if (content.is_array()) {
    for (const SortedJson& b : content) {
      if (auto t = json::String(b, "text")) text += (text.empty() ? "" : "\n") + *t;
    }
  }
  constexpr std::string_view kBelow = "summarized below:";
  if (size_t at = text.find(kBelow); at != std::string::npos && at < 400)
    text.erase(0, at + kBelow.size());
  else if (TrimFront(text).starts_with("This session is being continued"))
    text.erase(0, text.find('\n') == std::string::npos ? text.size() : text.find('\n'));
  if (size_t at = text.find("Please continue the conversation from where"); at != std::string::npos)
    text.erase(at);
  text = CleanText(text);
  if (TrimFront(text).empty()) return;
  Event e = Make(EventKind::kCompaction, number, *out);
  e.text = std::move(text);
  out->events.push_back(std::move(e));
}

void AssistantEvents(const SortedJson& content, int64_t number, ParsedLine* out) {
  redact::MessageCleaner message;
  auto say = [&](std::string_view raw) {
    std::string text = CleanText(raw, &message);
    if (TrimFront(text).empty()) return;
    Event e = Make(EventKind::kAssistantText, number, *out);
    e.text = std::move(text);
    out->events.push_back(std::move(e));
  };
  if (content.is_string()) return say(content.get<std::string>());
  if (!content.is_array()) return;
  for (const SortedJson& b : content) {
    std::string type = json::StringOr(b, "type", "");
    if (type == "text") {
      if (auto t = json::String(b, "text")) say(*t);
    } else if (type == "tool_use") {
      Event e = Make(EventKind::kToolUse, number, *out);
      e.tool_name = json::StringOr(b, "name", "");
      e.tool_id = json::StringOr(b, "id", "");
      if (const SortedJson* in = json::Find(b, "input")) {
        std::string detail = ToolDetail(e.tool_name, *in, &e.note);
        e.detail = CleanText(text::PrefixBytes(detail, kMaxDetail));
        e.note = CleanText(text::PrefixBytes(e.note, 1024));
        if (activity::IsFileEditTool(e.tool_name)) {
          e.text = CleanText(text::PrefixBytes(EditChange(e.tool_name, *in), kMaxDetail));
        }
      }
      out->events.push_back(std::move(e));
    }
  }
}

}  // namespace

bool IsHarnessText(std::string_view text) {
  static constexpr std::array<std::string_view, 16> kPrefixes = {
      "<command-name>",
      "<command-message>",
      "<command-args>",
      "<local-command-stdout>",
      "<local-command-stderr>",
      "<local-command-caveat>",
      "<bash-input>",
      "<bash-stdout>",
      "<bash-stderr>",
      "<system-reminder>",
      "<user-prompt-submit-hook>",
      "<task-notification>",
      "This session is being continued from a previous conversation",
      "[Request interrupted by user",
      "Caveat: The messages below were generated",
      "[Request cancelled"};
  std::string_view t = TrimFront(text);
  for (std::string_view p : kPrefixes) {
    if (t.substr(0, p.size()) == p) return true;
  }
  return false;
}

ParsedLine ParseTranscriptLine(std::string_view text, int64_t number) {
  ParsedLine out;
  if (TrimFront(text).empty()) return out;  // blank: quiet
  auto parsed = json::Parse(text, json::ForeignLogLine());
  if (!parsed || !parsed->is_object()) {
    out.cls = LineClass::kMalformed;
    return out;
  }
  const SortedJson& j = *parsed;
  out.session_id = json::StringOr(j, "sessionId", "");
  // Where the session ran reaches the session log, the briefing and the
  // next session's context: through the gate of one-line fields.
  out.branch = activity::CleanLine(json::StringOr(j, "gitBranch", ""), kMaxBranchBytes);
  out.cwd = activity::CleanLine(json::StringOr(j, "cwd", ""), kMaxCwdBytes);
  if (auto ts = json::String(j, "timestamp")) {
    if (auto t = text::ParseIso(*ts)) out.at = text::UtcSeconds(*t);
  }
  const std::string type = json::StringOr(j, "type", "");
  out.sidechain = json::Bool(j, "isSidechain").value_or(false);
  const SortedJson* message = json::Find(j, "message");
  const SortedJson* content = message ? json::Find(*message, "content") : nullptr;
  if (type == "user") {
    if (json::Bool(j, "isCompactSummary").value_or(false)) {
      if (content) CompactionEvent(*content, number, &out);
      out.cls = out.events.empty() ? LineClass::kHarness : LineClass::kUsed;
      return out;
    }
    if (json::Bool(j, "isMeta").value_or(false)) {
      out.cls = LineClass::kHarness;
      return out;
    }
    if (content) UserEvents(j, *content, number, &out);
    if (out.events.empty()) out.cls = LineClass::kHarness;
  } else if (type == "assistant") {
    // Claude Code's own words in the agent's place ("API Error: 401 …", "You're out of extra
    // usage"): the model "<synthetic>", never the agent's report or diagnosis.
    if (json::Bool(j, "isApiErrorMessage").value_or(false) ||
        (message && json::StringOr(*message, "model", "") == "<synthetic>")) {
      out.cls = LineClass::kHarness;
      return out;
    }
    if (content) AssistantEvents(*content, number, &out);
  } else if (type == "system" || type == "summary" || type == "progress" ||
             type == "file-history-snapshot" || type == "queue-operation") {
    return out;
  } else {
    out.cls = LineClass::kUnknown;
    return out;
  }
  if (!out.events.empty()) out.cls = LineClass::kUsed;
  return out;
}

}  // namespace lore::extract
