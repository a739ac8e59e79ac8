#include "lore/hook/session.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include <nlohmann/json.hpp>

#include "activity/card.h"
#include "activity/session_log.h"
#include "doc/frontmatter.h"
#include "hook/payload.h"
#include "lore/app/counts.h"
#include "lore/consolidate/run_state.h"
#include "lore/extract/extract.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/dump_js.h"
#include "lore/json/field.h"
#include "lore/json/value.h"
#include "lore/learnings/file.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/queue.h"
#include "lore/store/layout.h"
#include "lore/text/time.h"
#include "lore/text/utf8.h"
#include "recall/recall.h"
#include "text/hash.h"
#include "text/lines.h"

namespace lore::hook {
namespace {

// How much of the SessionStart context the briefing may take, and what the
// index of the rest may take beside it.
constexpr size_t kContextMax = 8000;           // characters: about 2,000 tokens
constexpr size_t kSummaryReadMax = 64 * 1024;  // bytes of memory/summary.md read at most
constexpr size_t kRecordIndexMax = 1200;       // characters of the records' index at most
constexpr size_t kKeptMax = 2000;              // bytes of the kept learnings at most

bool StoreExists(const store::Store& s) { return fs::Exists(s.dir()); }

std::string Text(const Json& j, const char* key) { return json::StringOr(j, key, ""); }

// The body of the Markdown file `rel` of the store `dir`, with frontmatter,
// read up to kSummaryReadMax bytes (never through a symlink in the store),
// invalid UTF-8 replaced (before anything else looks at the text), lore's
// briefing markers dropped and blank runs squeezed. A missing file is empty.
Result<std::string> Body(const std::string& dir, const std::string& rel) {
  const std::string path = fs::Join(dir, rel);
  auto fd = fs::OpenBeneath(dir, rel, O_RDONLY);
  if (!fd && fd.error().code == ErrorCode::kNotFound) return std::string();
  if (!fd) return Fail(fd.error());
  std::string text(kSummaryReadMax + 4, '\0');  // a few bytes more, to cut at a character
  LORE_ASSIGN(size_t got, fs::ReadAt(fd->get(), text.data(), text.size(), 0, path));
  text.resize(got);
  if (!text::IsValidUtf8(text)) text = text::ReplaceInvalidUtf8(text);
  if (text.size() > kSummaryReadMax) text.resize(text::PrefixBytes(text, kSummaryReadMax).size());
  LORE_ASSIGN(auto split, doc::SplitFrontmatter(text, path));
  std::string out;
  bool blank = true;
  for (std::string_view line : text::Lines(split.body)) {
    if (line.rfind("<!-- lore:briefing", 0) == 0 || line.rfind("<!-- /lore:briefing", 0) == 0)
      continue;
    bool is_blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
    if (is_blank && blank) continue;
    out.append(line);
    out += '\n';
    blank = is_blank;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

// `text` cut at a line end to at most `max` bytes (a cut is marked).
std::string Fit(std::string text, size_t max) {
  if (text.size() <= max) return text;
  std::string_view cut = text::PrefixBytes(text, max > 40 ? max - 40 : 0);
  size_t nl = cut.rfind('\n');
  if (nl != std::string_view::npos) cut = cut.substr(0, nl);
  return std::string(cut) + "\n(… the rest is in memory/summary.md)";
}

std::string Plural(int64_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// One line when the last background work failed: memory may be stale.
std::string StaleLine(const store::Store& store) {
  auto first_line = [](const std::string& s) {
    std::string line = s.substr(0, s.find('\n'));
    return line.size() > 300 ? std::string(text::PrefixBytes(line, 300)) + "…" : line;
  };
  if (auto last = consolidate::ReadLastRun(store); last && *last) {
    const auto& r = **last;
    if (r.outcome == "failed") {
      return "lore: memory may be stale: the last consolidation failed at " + r.finished_at + ": " +
             first_line(r.error) + " (lore status shows it).";
    }
  }
  if (auto f = extract::LastExtractFailure(store); f && *f) {
    return "lore: memory may be stale: extracting session " + (*f)->session_id.substr(0, 8) +
           " failed at " + (*f)->at + ": " + first_line((*f)->error) + " (lore status shows it).";
  }
  if (auto last = consolidate::ReadLastRun(store); last && *last && !(*last)->distill_error.empty())
    return "lore: okf/ was not refreshed after the last consolidation: " +
           first_line((*last)->distill_error) + ".";
  return "";
}

// The index of what more memory holds, with the way to reach it.
std::string MoreLine(const store::Store& store, const app::StoreCounts& c, std::string_view repo) {
  std::vector<std::string> parts;
  if (c.decisions) parts.push_back(Plural(c.decisions, "decision", "decisions"));
  if (c.requests) parts.push_back(Plural(c.requests, "request", "requests"));
  if (c.knowledge) {
    std::string k = Plural(c.knowledge, "knowledge page", "knowledge pages");
    if (c.gotchas) k += " (" + Plural(c.gotchas, "gotcha", "gotchas") + ")";
    parts.push_back(k);
  }
  if (c.sessions) parts.push_back(Plural(c.sessions, "session log", "session logs"));
  if (auto has = store.HasContent(); has && *has)
    parts.push_back("the distilled digest " + store.index_path());
  std::string list;
  for (size_t i = 0; i < parts.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  std::string out = list.empty() ? "Look things up in lore's memory"
                                 : "More in lore's memory: " + list + ". Look details up";
  out +=
      " with the `search` tool of lore's MCP server (scopes all, memory, knowledge, sessions, "
      "learnings, raw, okf) or run: lore search " +
      std::string(repo) + " <words>.";
  return out;
}

// True when folder `rel` of the store `dir` holds a staged entry (<id>.json);
// cheap: one readdir. A staging folder reached through a symlink holds none.
bool HasStagedEntries(const std::string& dir, const std::string& rel) {
  auto entries = fs::ListDirBeneath(dir, rel);
  if (!entries) return false;
  for (const auto& e : *entries) {
    std::string_view name = e.name;
    if (name.size() > 5 && name[0] != '.' && name.substr(name.size() - 5) == ".json") return true;
  }
  return false;
}

}  // namespace

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

namespace {

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

// `s` on one line for the context: control characters (line ends, escapes)
// as spaces, runs of spaces as one, cut to `max` bytes at a character.
std::string ContextLine(std::string_view s, size_t max) {
  std::string out;
  for (char c : s) {
    const bool space = static_cast<unsigned char>(c) < 0x20 || c == 0x7f || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > max) out = std::string(text::PrefixBytes(out, max)) + "…";
  return out;
}

// The learnings the person reviewed and kept that are live, the surest first
// (confidence, then confirmations, then the file's order): what the person
// approved is the highest trust lore has, so it comes first in the context
// and is counted. At most `max` bytes; the rest is counted and named.
std::string KeptLearnings(const store::Store& store, std::string_view repo, size_t max) {
  auto scan = learnings::ReadLearnings(store.learnings_path());
  if (!scan) return "(the kept learnings are left out: " + scan.error().Format() + ")";
  const auto now = std::chrono::system_clock::now();
  struct Kept {
    double confidence;
    int64_t occurrences;
    size_t order;
    std::string line;
  };
  std::vector<Kept> kept;
  for (size_t i = 0; i < scan->lines.size(); ++i) {
    const learnings::Line& l = scan->lines[i];
    if (!l.object || !learnings::IsLive(l.facts, now)) continue;
    auto j = learnings::ParseLine(*scan, l);
    if (!j) continue;
    std::string line = "- ";
    if (!l.facts.type.empty()) line += "[" + ContextLine(l.facts.type, 40) + "] ";
    line += ContextLine(l.facts.subject, 160);
    if (std::string insight = json::StringOr(*j, "insight", ""); !insight.empty())
      line += ": " + ContextLine(insight, 400);
    kept.push_back(
        {l.facts.confidence.value_or(0), l.facts.occurrences.value_or(1), i, std::move(line)});
  }
  if (kept.empty()) return "";
  std::stable_sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) {
    if (a.confidence != b.confidence) return a.confidence > b.confidence;
    if (a.occurrences != b.occurrences) return a.occurrences > b.occurrences;
    return a.order < b.order;
  });
  std::string out = "## What the person reviewed and kept (" +
                    Plural(static_cast<int64_t>(kept.size()), "learning", "learnings") +
                    "; their own word, above everything below)\n";
  size_t shown = 0;
  for (const auto& k : kept) {
    if (out.size() + k.line.size() + 80 > max) break;
    out += k.line + "\n";
    ++shown;
  }
  if (shown < kept.size())
    out += "- (" + std::to_string(kept.size() - shown) + " more: lore learnings " +
           ShellWord(repo) + ")\n";
  out.pop_back();
  return out;
}

constexpr uint64_t kGlanceLogMax = uint64_t{4} << 20;  // bytes of a session log read for its card

// The latest session at a glance, read off its session log (its ends first,
// then the one log whole when it is not too big): when it ran, what the
// person asked for, the agent's last words, what it left to do. "" when
// there is no session log or it cannot be read.
std::string LastSession(const store::Store& store) {
  auto logs = activity::ListSessionLogs(store);
  if (!logs || logs->empty()) return "";
  const activity::SessionFile* latest = nullptr;
  std::string latest_end;
  for (const auto& f : *logs) {
    auto ends = activity::ReadLogEnds(f.path);
    if (!ends) continue;
    if (!latest || ends->ended_at > latest_end) {
      latest = &f;
      latest_end = ends->ended_at;
    }
  }
  if (!latest) return "";
  std::string out = "## The latest session";
  if (!latest_end.empty()) out += " (ended " + latest_end + ")";
  if (static_cast<uint64_t>(latest->bytes) > kGlanceLogMax) return "";
  auto log = activity::ReadSessionLog(latest->path, latest->stem);
  if (!log) return "";
  const activity::SessionCard card = activity::ReadCard(*log);
  if (card.task.empty() && card.closing.empty()) return "";
  if (!card.branch.empty()) out += ", on " + ContextLine(card.branch, 80);
  out += "\n";
  if (!card.task.empty()) out += "- Asked: " + ContextLine(card.task, 400) + "\n";
  if (!card.closing.empty())
    out += "- Last words of the agent: " + ContextLine(card.closing, 600) + "\n";
  if (!card.open_todos.empty()) {
    std::string todos;
    for (size_t i = 0; i < card.open_todos.size() && i < 5; ++i)
      todos += (i ? "; " : "") + ContextLine(card.open_todos[i], 120);
    out +=
        card.todos_before_last_request
            ? "- Not ticked off on its todo list, last written before a later request: " + todos +
                  "\n"
            : "- Left to do: " + todos + "\n";
  }
  out.pop_back();
  return out;
}

// What the context says instead of the briefing when memory/summary.md was
// never built (or was removed): that, how to build it, and the latest session.
std::string NoBriefing(const store::Store& store, std::string_view repo) {
  std::string out =
      "No briefing has been built yet (memory/summary.md is missing): run lore "
      "consolidate " +
      ShellWord(repo) + " to build it. Until then, this is what memory holds.";
  if (std::string last = LastSession(store); !last.empty()) out += "\n\n" + last;
  return out;
}

}  // namespace

Payload ParsePayload(std::string_view input, std::optional<Error>* problem) {
  Payload p;
  if (input.find_first_not_of(" \t\r\n") == std::string_view::npos) return p;
  auto parsed = json::ParseOrdered(input, PayloadLimits());
  if (!parsed || !parsed->is_object()) {
    *problem = Error{ErrorCode::kInvalidInput,
                     "hook payload on standard input is not a JSON object" +
                         (parsed ? std::string() : " (" + parsed.error().what + ")"),
                     "<stdin>", 0,
                     "the agent must send its hook JSON object on standard input; using the "
                     "current directory"};
    return p;
  }
  const Json& j = *parsed;
  p.cwd = Text(j, "cwd");
  p.source = Text(j, "source");
  p.trigger = Text(j, "trigger");
  if (auto id = PayloadSessionId(j)) {
    p.session_id = std::move(*id);
  } else {
    *problem = std::move(id).error();
  }
  p.transcript_path = Text(j, "transcript_path");
  p.prompt = Text(j, "prompt");
  p.tool_name = Text(j, "tool_name");
  if (auto it = j.find("tool_input"); it != j.end() && it->is_object()) {
    p.file_path = Text(*it, "file_path");
    if (p.file_path.empty()) p.file_path = Text(*it, "notebook_path");
  }
  return p;
}

Result<int64_t> PendingProposals(const store::Store& store) {
  LORE_ASSIGN(proposals::QueueScan scan, proposals::ReadQueue(store.proposals_path()));
  return static_cast<int64_t>(scan.records.size());
}

Result<std::string> SessionStartContext(const store::Store& store, std::string_view source,
                                        std::string_view repo) {
  if (!StoreExists(store)) return std::string();
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  // A summary that cannot be read (its frontmatter malformed, a permission
  // denial) costs the briefing, never the rest: the pointer, the pending
  // count and the stale line are still given, with one line saying why.
  auto body = Body(store.dir(), std::string(store::kSummaryFile));
  std::string briefing =
      body ? std::move(*body) : "(the briefing is left out: " + body.error().Format() + ")";
  auto pending = PendingProposals(store);
  const std::string stale = StaleLine(store);
  const std::string kept = KeptLearnings(store, repo, kKeptMax);
  // No briefing built yet (never consolidated, or summary.md removed): what
  // the store holds still makes a start-up context, saying so and how to
  // build one.
  // What the folders hold is counted once, when first needed (one readdir each).
  std::optional<app::StoreCounts> counts;
  if (body && briefing.empty() && !fs::Exists(fs::Join(store.dir(), store::kSummaryFile))) {
    LORE_ASSIGN(counts, app::CountStore(store, app::kCountFolders));
    if (counts->HoldsMemory() || !kept.empty()) briefing = NoBriefing(store, repo);
  }
  if (briefing.empty() && kept.empty() && (!pending || *pending == 0) && stale.empty())
    return std::string();
  if (!counts) {
    LORE_ASSIGN(counts, app::CountStore(store, app::kCountFolders));
  }
  const std::string more = MoreLine(store, *counts, repo);
  std::string tail;
  // The records one line each with their size (progressive disclosure: the
  // agent opens what it needs). Settings or a usage log that cannot be read
  // cost this index only.
  if (auto settings = recall::LoadSettings(store)) {
    if (auto index = recall::RecordIndex(store, *settings, std::chrono::system_clock::now(),
                                         kRecordIndexMax);
        index && !index->empty()) {
      tail += "\n\n" + *index;
    }
  }
  tail += "\n\n" + more;
  if (pending && *pending > 0) tail += "\n\n" + PendingLine(*pending, repo);
  if (!stale.empty()) tail += "\n\n" + stale;
  std::string head = "lore memory for " + store.key() +
                     (source == "compact" ? " (after the compaction)" : "") + ":";
  if (!kept.empty()) head += "\n\n" + kept;
  size_t room =
      kContextMax > head.size() + tail.size() + 2 ? kContextMax - head.size() - tail.size() - 2 : 0;
  std::string out = head;
  if (!briefing.empty()) out += "\n\n" + Fit(std::move(briefing), room);
  out += tail;
  return out;
}

std::string ContextJson(std::string_view event, std::string_view context) {
  Json out;
  out["hookSpecificOutput"]["hookEventName"] = std::string(event);
  out["hookSpecificOutput"]["additionalContext"] = std::string(context);
  // Valid UTF-8 (all but never otherwise) is written alike by both.
  if (text::IsValidUtf8(event) && text::IsValidUtf8(context)) return json::DumpJs(out);
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string SessionStartJson(std::string_view context) {
  return ContextJson("SessionStart", context);
}

Result<Command> FlushCommand(const store::Store& store, const std::string& lore_binary,
                             std::string_view repo) {
  if (!StoreExists(store)) return Command{};
  LORE_TRY(store.Check(store::RawCheck::kSkip));
  if (!HasStagedEntries(store.dir(), "staging")) return Command{};  // nothing to flush
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
                               std::string_view repo, const Payload& payload, bool then_consolidate,
                               int64_t min_growth_bytes) {
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

bool FirstWarning(const store::Env& env, std::string_view cause, std::string_view session_id,
                  std::chrono::system_clock::time_point now) {
  const std::string root = store::CacheRoot(env);
  if (root.empty()) return true;
  const std::string dir = fs::Join(root, "warned");
  if (!fs::MakeDirs(dir, 0700)) return true;
  std::string key(cause);
  key += '\0';
  key += session_id.empty() ? "day " + text::UtcDate(now) : std::string(session_id);
  const std::string marker =
      fs::Join(dir, std::string(cause) + "-" + text::Hex(text::Fnv1a64(key)));
  if (fs::Exists(marker)) return false;
  (void)fs::Open(marker, O_WRONLY | O_CREAT, 0600);
  return true;
}

std::string SessionIdInHead(std::string_view head) {
  constexpr std::string_view kKey = "\"session_id\"";
  const size_t at = head.find(kKey);
  if (at == std::string_view::npos) return "";
  size_t pos = head.find_first_not_of(" \t\r\n", at + kKey.size());
  if (pos == std::string_view::npos || head[pos] != ':') return "";
  pos = head.find_first_not_of(" \t\r\n", pos + 1);
  if (pos == std::string_view::npos || head[pos] != '"') return "";
  const size_t end = head.find('"', pos + 1);
  if (end == std::string_view::npos) return "";
  auto id = activity::CheckSessionId(head.substr(pos + 1, end - pos - 1), "session_id", "<stdin>");
  return id ? *id : "";
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
