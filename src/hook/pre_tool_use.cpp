#include "lore/hook/pre_tool_use.h"

#include <algorithm>

#include "hook/payload.h"
#include "lore/fs/fd.h"
#include "lore/json/dump_js.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/record.h"
#include "lore/text/utf8.h"
#include "proposals/append_file.h"
#include "redact/redact.h"

namespace lore::hook {
namespace {

constexpr std::string_view kSensitive[] = {"insight", "subject", "evidence", "content", "reason"};
constexpr std::string_view kWrappers[] = {"env",   "sudo", "command", "exec",
                                          "nohup", "time", "nice"};

bool IsAssignment(std::string_view w) {
  size_t eq = w.find('=');
  if (eq == 0 || eq == std::string_view::npos) return false;
  return std::all_of(w.begin(), w.begin() + static_cast<long>(eq), [](char c) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  });
}

std::string_view Base(std::string_view p) {
  size_t slash = p.rfind('/');
  return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

bool IsWrapper(std::string_view w) {
  return std::find(std::begin(kWrappers), std::end(kWrappers), w) != std::end(kWrappers);
}

// The index of the word after "propose" in the first simple command that
// runs `lore propose`; nullopt when none does.
std::optional<size_t> ProposeAt(const std::vector<Word>& w) {
  size_t i = 0;
  while (i < w.size()) {
    size_t end = i;
    while (end < w.size() && !w[end].op) ++end;  // one simple command: [i, end)
    size_t j = i;
    bool wrapped = false;
    while (j < end) {
      const std::string& v = w[j].value;
      if (IsAssignment(v) || IsWrapper(v) || (wrapped && !v.empty() && v[0] == '-')) {
        wrapped = wrapped || IsWrapper(v);
        ++j;
        continue;
      }
      break;
    }
    if (j + 1 < end && Base(w[j].value) == "lore" && w[j + 1].value == "propose") return j + 2;
    i = end + 1;
  }
  return std::nullopt;
}

}  // namespace

bool InvokesPropose(const std::vector<Word>& words) { return ProposeAt(words).has_value(); }

std::string Redact(std::string_view command) {
  const std::vector<Word> words = SplitWords(command);
  struct Cut {
    size_t begin, end;
    std::string with;
  };
  std::vector<Cut> cuts;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i].op) continue;
    const std::string& v = words[i].value;
    for (std::string_view flag : kSensitive) {
      const std::string name = "--" + std::string(flag);
      if (v == name && i + 1 < words.size() && !words[i + 1].op) {
        cuts.push_back({words[i + 1].begin, words[i + 1].end, "[REDACTED]"});
        ++i;
        break;
      }
      if (v.rfind(name + "=", 0) == 0) {
        cuts.push_back({words[i].begin, words[i].end, name + "=[REDACTED]"});
        break;
      }
    }
  }
  std::string out(command);
  for (auto it = cuts.rbegin(); it != cuts.rend(); ++it) {
    out.replace(it->begin, it->end - it->begin, it->with);
  }
  return out;
}

std::optional<std::string> WaveOf(const std::vector<Word>& words, std::string_view env_wave) {
  const size_t after = ProposeAt(words).value_or(words.size());
  for (size_t i = after; i < words.size() && !words[i].op; ++i) {
    const std::string& v = words[i].value;
    if (v == "--wave" && i + 1 < words.size() && !words[i + 1].op) return words[i + 1].value;
    if (v.rfind("--wave=", 0) == 0) return v.substr(7);
  }
  std::optional<std::string> assigned;
  for (size_t i = 0; i < after && i < words.size(); ++i) {
    if (words[i].value.rfind("LORE_WAVE=", 0) == 0) assigned = words[i].value.substr(10);
  }
  if (assigned && !assigned->empty()) return assigned;
  if (!env_wave.empty()) return std::string(env_wave);
  return std::nullopt;
}

std::optional<Json> ProposeEvent(const Json& payload, std::string_view env_wave,
                                 std::string_view process_cwd, text::TimePoint now) {
  if (!payload.is_object() || !payload.contains("tool_input")) return std::nullopt;
  const Json& input = payload["tool_input"];
  if (!input.is_object() || !input.contains("command") || !input["command"].is_string())
    return std::nullopt;
  const std::string& command = input["command"].get_ref<const std::string&>();
  const std::vector<Word> words = SplitWords(command);
  if (!InvokesPropose(words)) return std::nullopt;
  // The flags' values are hidden; secrets elsewhere in the command too.
  std::string argv = redact::Clean(Redact(command));
  if (text::IsValidUtf8(argv)) argv = std::string(text::PrefixCodePoints(argv, kArgvMax));
  // Every other string of the event comes from the payload or the
  // environment: it passes the redactor too.
  auto cleaned = [](const std::string& s) { return Json(redact::Clean(s)); };
  Json e = Json::object();
  e["timestamp"] = text::UtcMillis(now);
  e["event"] = "memory.propose_invoked";
  // The session id passes the gate of ids (hook/payload.h); one it refuses
  // is left out (null), as the session hooks of the same session leave it out.
  auto id = PayloadSessionId(payload);
  e["session_id"] = id && payload.contains("session_id") && payload["session_id"].is_string()
                        ? Json(std::move(*id))
                        : Json(nullptr);
  auto wave = WaveOf(words, env_wave);
  e["wave"] = wave ? Json(proposals::CleanWave(*wave)) : Json(nullptr);
  e["argv_truncated"] = argv;
  e["cwd"] = cleaned(payload.contains("cwd") && payload["cwd"].is_string()
                         ? payload["cwd"].get_ref<const std::string&>()
                         : std::string(process_cwd));
  e["exit_code"] = nullptr;
  return e;
}

Result<bool> RecordPreToolUse(std::string_view payload, const store::Env& env,
                              std::string_view env_wave, std::string_view process_cwd,
                              text::TimePoint now) {
  auto parsed = json::ParseOrdered(payload, PayloadLimits());
  if (!parsed) {
    return Fail(ErrorCode::kInvalidInput, "hook payload is " + parsed.error().what, "<stdin>", 0,
                "the agent must send its hook JSON object on standard input");
  }
  const Json& j = *parsed;
  auto event = ProposeEvent(j, env_wave, process_cwd, now);
  if (!event) return false;
  // The store of the payload's own cwd (the event holds it cleaned).
  const std::string cwd = j.contains("cwd") && j["cwd"].is_string() ? j["cwd"].get<std::string>()
                                                                    : std::string(process_cwd);
  LORE_ASSIGN(store::Store store, store::Store::Locate(cwd, env, store::Store::Folder::kWorkedIn));
  LORE_TRY(store.Ensure(now, store::RawCheck::kSkip));
  const auto paths = proposals::Paths::InStore(store.dir());
  // One write under an flock, without fdatasync: the hook must stay within
  // 2 ms and a sync alone costs ~3 ms on a disk. A process crash loses
  // nothing (the bytes are in the page cache); a power cut may lose the last
  // audit events. The lock is waited for a few milliseconds at most.
  auto events = proposals::AppendFile::Open(paths.events, kEventsLockWait);
  if (!events && events.error().code == ErrorCode::kBusy) {
    return Fail(ErrorCode::kBusy,
                "events.jsonl is locked by another lore process: the audit event of this "
                "propose call is not recorded",
                paths.events, 0, "nothing to do: the process that holds it loses nothing");
  }
  if (!events) return tl::unexpected(events.error());
  LORE_TRY(events->Append(json::DumpJs(*event) + "\n"));
  return true;
}

}  // namespace lore::hook
