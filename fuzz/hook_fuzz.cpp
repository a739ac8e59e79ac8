// Hook payloads (hook/session.h, hook/pre_tool_use.h): the pure parts of the
// hooks, on the bytes an agent sends. The input is tried as a whole payload
// and as the shell command of a Bash tool call. Word spans lie inside the
// command in order, redaction is idempotent, and the audit event dumps as
// one line that parses back.
#include <chrono>

#include "check.h"
#include "lore/hook/pre_tool_use.h"
#include "lore/hook/session.h"
#include "lore/hook/shell_words.h"
#include "lore/json/dump_js.h"
#include "lore/text/utf8.h"

namespace {

using lore::Json;
const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1767225600));

void CheckWords(std::string_view command) {
  const auto words = lore::hook::SplitWords(command);
  size_t at = 0;
  for (const auto& w : words) {
    LORE_FUZZ_CHECK(w.begin >= at && w.begin <= w.end && w.end <= command.size());
    at = w.end;
  }
  (void)lore::hook::InvokesPropose(words);
  (void)lore::hook::WaveOf(words, "env-wave");
  const std::string once = lore::hook::Redact(command);
  LORE_FUZZ_CHECK(lore::hook::Redact(once) == once);
}

void CheckEvent(const Json& payload) {
  auto event = lore::hook::ProposeEvent(payload, "env-wave", "/work/repo", kNow);
  if (!event) return;
  LORE_FUZZ_CHECK((*event)["cwd"].is_string());
  const std::string line = lore::json::DumpJs(*event);
  LORE_FUZZ_CHECK(line.find('\n') == std::string::npos);
  Json back = Json::parse(line, nullptr, false);
  LORE_FUZZ_CHECK(!back.is_discarded() && back.is_object());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input = lore::fuzz::Input(data, size);
  std::optional<lore::Error> problem;
  lore::hook::Payload p = lore::hook::ParsePayload(input, &problem);
  // The session id passed the gate of ids: bounded, one line, no control
  // character, usable as a file name's part.
  LORE_FUZZ_CHECK(p.session_id.size() <= 200);
  for (unsigned char c : p.session_id) LORE_FUZZ_CHECK(c >= 0x20 && c != 0x7F);
  LORE_FUZZ_CHECK(p.session_id.find('/') == std::string::npos);
  const std::string start = lore::hook::SessionStartJson(p.cwd + p.source + p.session_id);
  LORE_FUZZ_CHECK(!Json::parse(start, nullptr, false).is_discarded());

  Json payload = Json::parse(input, nullptr, false);
  if (!payload.is_discarded()) CheckEvent(payload);

  CheckWords(input);
  if (lore::text::IsValidUtf8(input)) {
    Json call{{"session_id", "s1"},
              {"tool_name", "Bash"},
              {"tool_input", Json{{"command", std::string(input)}}}};
    CheckEvent(call);
  }
  return 0;
}
