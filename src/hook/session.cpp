#include "lore/hook/session.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

#include "lore/doc/frontmatter.h"
#include "lore/extract/extract.h"
#include "lore/fs/fd.h"
#include "lore/hook/payload.h"
#include "lore/json/field.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"
#include "lore/text/utf8.h"

namespace lore::hook {
namespace {

using Json = nlohmann::ordered_json;

struct Limits {
  size_t summary_lines, summary_bytes;
  bool digest;  // include okf/index.md's body
};

constexpr Limits kStartup{20, 2000, false};
constexpr Limits kAfterCompact{80, 8000, true};

bool StoreExists(const store::Store& s) {
  struct stat st;
  return ::lstat(s.dir().c_str(), &st) == 0;
}

std::string Text(const Json& j, const char* key) { return json::StringOr(j, key, ""); }

// The body of a Markdown file with frontmatter: at most `max_lines` lines
// and `max_bytes` bytes (cut at a line), blank runs squeezed. A missing file
// is empty.
Result<std::string> BodyHead(const std::string& path, size_t max_lines, size_t max_bytes) {
  if (!fs::Exists(path)) return std::string();
  LORE_ASSIGN(std::string text, fs::ReadFile(path));
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(text, path));
  std::string out;
  size_t lines = 0, pos = 0;
  std::string_view body = split.body;
  bool blank = true;
  while (pos < body.size() && lines < max_lines) {
    size_t end = body.find('\n', pos);
    if (end == std::string_view::npos) end = body.size();
    std::string_view line = body.substr(pos, end - pos);
    pos = end + 1;
    bool is_blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (is_blank && blank) continue;
    if (out.size() + line.size() + 1 > max_bytes) {
      out += "…\n";
      break;
    }
    out.append(line);
    out += '\n';
    blank = is_blank;
    ++lines;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// True when `dir` holds a staged entry (<id>.json); cheap: one readdir.
bool HasStagedEntries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (!d) return false;
  bool found = false;
  while (dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name.size() > 5 && name[0] != '.' && name.substr(name.size() - 5) == ".json") {
      found = true;
      break;
    }
  }
  ::closedir(d);
  return found;
}

// `s` as one word of a POSIX shell: bare when it holds only characters no
// shell treats specially, else in single quotes (a quote as '\'').
std::string ShellWord(std::string_view s) {
  const bool bare = !s.empty() && s.front() != '-' && s.front() != '~' &&
                    s.find_first_not_of(
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                        "0123456789_@%+=:,./-") == std::string_view::npos;
  if (bare) return std::string(s);
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Said to the agent: commands that work exactly as printed (the review of
// seed 000 happens in the chat, one AskUserQuestion per batch).
std::string PendingLine(int64_t pending, std::string_view repo) {
  return std::to_string(pending) +
         (pending == 1 ? " proposed learning awaits" : " proposed learnings await") +
         " review by the person. When they agree, run the /lore-review command, or: lore review " +
         ShellWord(repo) +
         " --batches --json, ask each batch's input with AskUserQuestion in "
         "order, then pipe the picks to: lore review " +
         ShellWord(repo) + " --session <this session's id> --answers -";
}

}  // namespace

Payload ParsePayload(std::string_view input, std::string* problem) {
  Payload p;
  if (input.find_first_not_of(" \t\r\n") == std::string_view::npos) return p;
  auto parsed = json::ParseOrdered(input, PayloadLimits());
  if (!parsed || !parsed->is_object()) {
    *problem = "hook payload on standard input is not a JSON object" +
               (parsed ? std::string() : " (" + parsed.error().what + ")");
    return p;
  }
  const Json& j = *parsed;
  p.cwd = Text(j, "cwd");
  p.source = Text(j, "source");
  p.trigger = Text(j, "trigger");
  p.session_id = Text(j, "session_id");
  p.transcript_path = Text(j, "transcript_path");
  return p;
}

Result<int64_t> PendingProposals(const store::Store& store) {
  LORE_ASSIGN(proposals::QueueScan scan, proposals::ReadQueue(store.Path("proposals.jsonl")));
  return static_cast<int64_t>(scan.records.size());
}

Result<std::string> SessionStartContext(const store::Store& store, std::string_view source,
                                        std::string_view repo) {
  if (!StoreExists(store)) return std::string();
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  const Limits& lim = source == "compact" ? kAfterCompact : kStartup;
  LORE_ASSIGN(std::string summary,
              BodyHead(store.Path("memory/summary.md"), lim.summary_lines, lim.summary_bytes));
  LORE_ASSIGN(std::string digest, BodyHead(store.index_path(), 60, 4096));
  LORE_ASSIGN(int64_t pending, PendingProposals(store));
  if (summary.empty() && digest.empty() && pending == 0) return std::string();

  std::string out = "lore memory for " + store.key() + ": the distilled digest is " +
                    store.index_path() +
                    " (read it, and the pages it links, before work that touches past reviews, "
                    "decisions or conventions). To look something up, use the `search` tool of "
                    "lore's MCP server (scope all, memory, knowledge, learnings, raw or okf) or "
                    "run: lore search " +
                    std::string(repo) + " <words>.";
  if (!summary.empty()) out += "\n\nSummary (memory/summary.md):\n" + summary;
  if (lim.digest && !digest.empty()) out += "\n\nDigest (okf/index.md):\n" + digest;
  if (pending > 0) out += "\n\n" + PendingLine(pending, repo);
  return out;
}

std::string SessionStartJson(std::string_view context) {
  Json out;
  out["hookSpecificOutput"]["hookEventName"] = "SessionStart";
  out["hookSpecificOutput"]["additionalContext"] = std::string(context);
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<Command> FlushCommand(const store::Store& store, const std::string& lore_binary,
                             std::string_view repo) {
  if (!StoreExists(store)) return Command{};
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  if (!HasStagedEntries(store.Path("staging"))) return Command{};  // nothing to flush
  return Command{lore_binary, "consolidate", std::string(repo), "--flush", "--foreground"};
}

namespace {

Status CheckTranscript(const std::string& path) {
  if (path.empty()) {
    return Fail(ErrorCode::kInvalidInput, "hook payload has no transcript_path", "<stdin>", 0,
                "nothing was extracted; the agent must send transcript_path");
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot read the transcript", path));
  }
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kInvalidInput, "the transcript is not a regular file", path, 0,
                "nothing was extracted");
  }
  if (::access(path.c_str(), R_OK) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot read the transcript", path));
  }
  return Ok();
}

}  // namespace

Result<Command> ExtractCommand(const store::Store& store, const std::string& lore_binary,
                               std::string_view repo, const Payload& payload,
                               bool then_consolidate, int64_t min_growth_bytes) {
  LORE_ASSIGN(bool grown, TranscriptGrown(store, payload, min_growth_bytes));
  if (!grown) return Command{};  // not enough new: no process to start
  if (StoreExists(store)) LORE_TRY(store.Check(store::RawCheck::kSkip));
  Command argv{lore_binary, "extract", std::string(repo), "--transcript", payload.transcript_path};
  if (!payload.session_id.empty()) argv.insert(argv.end(), {"--session", payload.session_id});
  if (then_consolidate) argv.push_back("--then-consolidate");
  return argv;
}

Result<bool> TranscriptGrown(const store::Store& store, const Payload& payload,
                             int64_t threshold_bytes) {
  LORE_TRY(CheckTranscript(payload.transcript_path));
  std::string session = payload.session_id;
  if (session.empty()) {
    LORE_ASSIGN(session, extract::SessionOf(payload.transcript_path, ""));
  }
  LORE_ASSIGN(uint64_t grown, extract::Growth(store, payload.transcript_path, session));
  return grown >= static_cast<uint64_t>(threshold_bytes);
}

Result<std::string> SessionEndReminder(const store::Store& store, std::string_view repo,
                                       std::string_view session_id) {
  if (!StoreExists(store)) return std::string();
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  LORE_ASSIGN(int64_t pending, PendingProposals(store));
  if (pending == 0) return std::string();
  const bool blank = session_id.find_first_not_of(" \t\r\n") == std::string_view::npos;
  const std::string command = "lore review " + ShellWord(repo) + " --session " +
                              ShellWord(blank ? std::string_view("manual-review") : session_id);
  Json out;
  out["systemMessage"] =
      "lore: " + std::to_string(pending) +
      (pending == 1 ? " proposed learning awaits" : " proposed learnings await") +
      " review; in a terminal, run: " + command;
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace lore::hook
