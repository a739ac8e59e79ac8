#include "lore/extract/transcript.h"

#include <array>

#include <nlohmann/json.hpp>

#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/redact/redact.h"
#include "lore/text/utf8.h"

namespace lore::extract {
namespace {

using Json = nlohmann::json;

std::string_view TrimFront(std::string_view s) {
  size_t i = s.find_first_not_of(" \t\r\n");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

// Text the harness appends inside a typed turn: cut it off.
std::string WithoutReminders(std::string_view s) {
  size_t cut = s.find("<system-reminder>");
  return std::string(cut == std::string_view::npos ? s : s.substr(0, cut));
}

// How much of a tool result is cleaned of secrets before its first
// kMaxResultText bytes are kept: room for a secret that crosses the cut.
constexpr size_t kCleanedResultText = kMaxResultText + 1024;

// A tool result's content (a string or text blocks), its first kMaxResultText
// bytes, private spans and secrets removed.
std::string ResultText(const Json& content) {
  std::string out;
  auto add = [&out](const std::string& s) {
    if (!out.empty()) out += '\n';
    out += s.substr(0, kCleanedResultText - std::min(out.size(), kCleanedResultText));
  };
  if (content.is_string()) {
    add(content.get<std::string>());
  } else if (content.is_array()) {
    for (const Json& b : content) {
      if (out.size() >= kCleanedResultText) break;
      if (auto t = json::String(b, "text")) add(*t);
    }
  }
  // Cleaned before the cut, so that a secret across the cut is still found.
  return std::string(text::PrefixBytes(redact::Clean(out), kMaxResultText));
}

// What identifies a tool call: a shell command, a file, a plan, questions.
std::string ToolDetail(const std::string& name, const Json& input) {
  if (name == "Bash") return json::StringOr(input, "command", "");
  if (name == "ExitPlanMode") return json::StringOr(input, "plan", "");
  if (name == "AskUserQuestion") {
    const Json* q = json::Find(input, "questions");
    return q ? q->dump(-1, ' ', false, Json::error_handler_t::replace) : "";
  }
  for (const char* key : {"file_path", "notebook_path", "path"}) {
    if (auto s = json::String(input, key)) return *s;
  }
  return "";
}

void UserEvents(const Json& j, const Json& content, int64_t number, bool side, ParsedLine* out) {
  const Json* tur = json::Find(j, "toolUseResult");
  auto person = [&](std::string_view text) {
    if (IsHarnessText(text)) return;
    std::string t = WithoutReminders(text);
    if (TrimFront(t).empty()) return;
    out->events.push_back(MakeEvent(EventKind::kPersonText, number, side, std::move(t)));
  };
  if (content.is_string()) return person(content.get<std::string>());
  if (!content.is_array()) return;
  for (const Json& b : content) {
    std::string type = json::StringOr(b, "type", "");
    if (type == "text") {
      if (auto t = json::String(b, "text")) person(*t);
    } else if (type == "tool_result") {
      Event e = MakeEvent(EventKind::kToolResult, number, side);
      e.tool_id = json::StringOr(b, "tool_use_id", "");
      if (const Json* c = json::Find(b, "content")) e.text = ResultText(*c);
      e.is_error = json::Bool(b, "is_error").value_or(false);
      if (tur) {
        for (const char* key : {"exitCode", "exit_code", "returnCode"}) {
          if (auto code = json::Int(*tur, key)) e.exit_code = code;
        }
      }
      out->events.push_back(std::move(e));
    }
  }
}

void AssistantEvents(const Json& content, int64_t number, bool side, ParsedLine* out) {
  if (content.is_string()) {
    out->events.push_back(
        MakeEvent(EventKind::kAssistantText, number, side, content.get<std::string>()));
    return;
  }
  if (!content.is_array()) return;
  for (const Json& b : content) {
    std::string type = json::StringOr(b, "type", "");
    if (type == "text") {
      if (auto t = json::String(b, "text")) {
        out->events.push_back(MakeEvent(EventKind::kAssistantText, number, side, *t));
      }
    } else if (type == "tool_use") {
      Event e = MakeEvent(EventKind::kToolUse, number, side);
      e.tool_name = json::StringOr(b, "name", "");
      e.tool_id = json::StringOr(b, "id", "");
      if (const Json* in = json::Find(b, "input")) e.detail = ToolDetail(e.tool_name, *in);
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
  const Json& j = *parsed;
  out.session_id = json::StringOr(j, "sessionId", "");
  const std::string type = json::StringOr(j, "type", "");
  const bool side = json::Bool(j, "isSidechain").value_or(false);
  out.sidechain = side;
  const Json* message = json::Find(j, "message");
  const Json* content = message ? json::Find(*message, "content") : nullptr;
  if (type == "user") {
    if (json::Bool(j, "isMeta").value_or(false) ||
        json::Bool(j, "isCompactSummary").value_or(false)) {
      out.cls = LineClass::kHarness;
      return out;
    }
    if (content) UserEvents(j, *content, number, side, &out);
    if (out.events.empty()) out.cls = LineClass::kHarness;
  } else if (type == "assistant") {
    if (content) AssistantEvents(*content, number, side, &out);
  } else if (type == "system" || type == "summary" || type == "progress" ||
             type == "file-history-snapshot" || type == "queue-operation") {
    return out;
  } else {
    out.cls = LineClass::kUnknown;
    return out;
  }
  if (!out.events.empty()) out.cls = LineClass::kUsed;
  // Nothing of a private span or a secret goes further: not into an excerpt,
  // a dry run's output or what the LLM engine sends to a model. A span runs
  // across the text blocks of the message.
  redact::MessageCleaner texts;
  for (Event& e : out.events) {
    if (e.kind != EventKind::kToolResult) e.text = texts.Next(e.text);
    e.detail = redact::Clean(e.detail);
  }
  return out;
}

}  // namespace lore::extract
