#include "lore/extract/model_io.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "activity/excerpt.h"
#include "lore/extract/engine.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "redact/redact.h"

namespace lore::extract {
namespace {

using activity::Excerpt;
using activity::FirstErrorLine;
using activity::FirstLine;

bool WantedInDigest(const std::string& name) {
  return name == "Bash" || activity::IsFileEditTool(name) || name == "ExitPlanMode" ||
         name == "AskUserQuestion";
}

std::string_view Unfenced(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return {};
  s = s.substr(a);
  if (s.substr(0, 3) != "```") return s;
  size_t nl = s.find('\n');
  size_t close = s.rfind("```");
  if (nl == std::string_view::npos || close <= nl) return s;
  return s.substr(nl + 1, close - nl - 1);
}

template <class T>
void Append(std::vector<T>& into, std::vector<T>& more) {
  for (auto& x : more) {
    if (into.size() >= kMaxItems) return;
    into.push_back(std::move(x));
  }
}

}  // namespace

std::string Digester::Line(const Event& e) {
  if (e.sidechain) return "";
  const std::string at = "[L" + std::to_string(e.line) + "] ";
  switch (e.kind) {
    case EventKind::kPersonText:
      return redact::Clean(at + "person: " + Excerpt(e.text, kDigestTextBytes));
    case EventKind::kAssistantText:
      return redact::Clean(at + "agent: " + Excerpt(e.text, kDigestTextBytes));
    case EventKind::kCompaction:
      return redact::Clean(at +
                           "summary of the earlier context: " + Excerpt(e.text, kDigestTextBytes));
    case EventKind::kInterrupt:
      return at + "person: (interrupted the agent)";
    case EventKind::kToolUse:
      if (!WantedInDigest(e.tool_name)) return "";
      if (wanted_.size() >= 256) wanted_.pop_front();
      wanted_.push_back(e.tool_id);
      return redact::Clean(
          at + "tool " + e.tool_name + ": " +
          Excerpt(e.detail, e.tool_name == "ExitPlanMode" ? kDigestTextBytes : kDigestDetailBytes));
    case EventKind::kToolResult: {
      auto it = std::find(wanted_.begin(), wanted_.end(), e.tool_id);
      if (it == wanted_.end()) return "";
      wanted_.erase(it);
      if (e.status == ResultStatus::kRejected) return at + "result: declined by the person";
      if (e.status == ResultStatus::kInterrupted) return at + "result: interrupted by the person";
      if (e.status == ResultStatus::kDenied) return at + "result: not permitted";
      bool failed = e.failed();
      std::string line = failed ? FirstErrorLine(e.text, kDigestDetailBytes)
                                : FirstLine(e.text, kDigestDetailBytes);
      return redact::Clean(at + (failed ? "result (failed): " : "result: ") + line);
    }
  }
  return "";
}

std::string ExtractSystemPrompt() {
  return "You read a digest of an AI coding agent's session transcript and extract what a "
         "later session must remember. Each digest line is \"[L<line>] <who>: <text>\"; "
         "\"person\" lines are what the person typed, \"agent\" lines what the agent said, "
         "\"tool\" lines the agent's tool calls and \"result\" lines their outcome.\n"
         "Rules: every string you write is a short verbatim excerpt of the digest (never a "
         "word that is not there); an empty list is a fine answer; do not write sources or "
         "line numbers (lore sets them); at most 20 items per list.\n"
         "- requests: what the person asked for: {\"intent\": short excerpt, \"target\": the "
         "file or component named, or null, \"summary\": longer excerpt}\n"
         "- attempts: shell commands and file edits with their outcome: {\"action\", "
         "\"result\" (the first meaningful error line when it failed), \"succeeded\": true|false}\n"
         "- decisions: only choices stated explicitly (a plan the person approved, a choice "
         "between named options): {\"options\": [..], \"chosen\", \"rationale\"}\n"
         "- discussions: the person's questions that got an answer: {\"topic\", \"points\": "
         "[..]}\n"
         "Answer with exactly one JSON object and nothing else: {\"decisions\": [], "
         "\"discussions\": [], \"attempts\": [], \"requests\": []}";
}

Result<consolidate::StagedEntry> ParseModelAnswer(std::string_view answer) {
  std::string_view body = Unfenced(answer);
  json::Limits lim;
  lim.max_bytes = consolidate::kMaxStagedEntryBytes;
  lim.max_depth = 16;
  auto parsed = json::ParseOrdered(body, lim);
  if (!parsed) {
    return Fail(ErrorCode::kInvalidInput,
                "the answer is not one JSON object (" + parsed.error().what + ")");
  }
  if (!parsed->is_object()) {
    return Fail(ErrorCode::kInvalidInput, "the answer is JSON but not an object");
  }
  Json j = std::move(*parsed);
  j.erase("source");
  Json full;
  full["source"] = {{"session_id", "model"}, {"range", {1, 1}}};
  for (auto& [k, v] : j.items()) full[k] = v;
  auto entry = consolidate::ParseStagedEntry(full.dump(), "<model answer>");
  if (!entry) return Fail(ErrorCode::kInvalidInput, entry.error().what);
  entry->source = {};
  return entry;
}

void MergeLists(consolidate::StagedEntry& into, consolidate::StagedEntry more) {
  Append(into.decisions, more.decisions);
  Append(into.discussions, more.discussions);
  Append(into.attempts, more.attempts);
  Append(into.requests, more.requests);
  Append(into.outcomes, more.outcomes);
}

}  // namespace lore::extract
