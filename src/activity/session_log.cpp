#include "activity/session_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "activity/about.h"
#include "activity/clean.h"
#include "activity/defines.h"
#include "activity/excerpt.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "lore/log/checked_log.h"
#include "lore/log/line_stream.h"
#include "lore/text/utf8.h"
#include "redact/redact.h"
#include "store/quarantine.h"
#include "text/hash.h"

namespace lore::activity {
namespace {

constexpr size_t kMaxPendingCalls = 256;         // calls awaiting their result
constexpr size_t kIdBytes = 12;                  // of a tool call's id, enough to pair it
constexpr size_t kMaxLogLine = size_t{1} << 20;  // a longer line is not one of ours
constexpr size_t kTailRead = 64 * 1024;          // bytes read from a log's end for its last span

struct TurnName {
  EventKind kind;
  std::string_view name;
};
constexpr TurnName kTurns[] = {
    {EventKind::kPersonText, "person"},     {EventKind::kAssistantText, "agent"},
    {EventKind::kToolUse, "tool"},          {EventKind::kToolResult, "result"},
    {EventKind::kCompaction, "compaction"}, {EventKind::kInterrupt, "interrupt"},
};

std::string_view TurnOf(EventKind k) {
  for (const auto& t : kTurns) {
    if (t.kind == k) return t.name;
  }
  return "person";
}

// The id's last kIdBytes bytes at most, starting on a character: an id cut
// inside a UTF-8 sequence would not read back as itself from the log.
std::string ShortId(std::string_view id) {
  if (id.size() <= kIdBytes) return std::string(id);
  size_t from = id.size() - kIdBytes;
  while (from < id.size() && (static_cast<unsigned char>(id[from]) & 0xC0) == 0x80) ++from;
  return std::string(id.substr(from));
}

size_t InputCap(const LogCaps& c, std::string_view tool) {
  if (tool == "Bash") return c.command;
  if (tool == "ExitPlanMode") return c.plan;
  if (tool == "AskUserQuestion") return c.questions;
  if (tool == "TodoWrite") return c.todos;
  return c.input;
}

bool KeepsAnswer(std::string_view tool) {
  return tool == "Task" || tool == "Agent" || tool == "AskUserQuestion";
}

}  // namespace

std::optional<Event> LogBuilder::Add(const Event& in) {
  if (in.sidechain) return std::nullopt;
  Event e = in;
  switch (e.kind) {
    case EventKind::kPersonText:
      e.text = Cut(e.text, caps_.person);
      break;
    case EventKind::kAssistantText:
      e.text = Cut(e.text, caps_.agent);
      break;
    case EventKind::kCompaction:
      e.text = Cut(e.text, caps_.compaction);
      break;
    case EventKind::kInterrupt:
      e.text.clear();
      break;
    case EventKind::kToolUse: {
      if (calls_.size() >= kMaxPendingCalls) calls_.pop_front();
      calls_.push_back({e.tool_id, e.tool_name, e.detail});
      e.tool_id = ShortId(e.tool_id);
      e.detail = Cut(e.detail, InputCap(caps_, e.tool_name));
      e.note = Cut(e.note, caps_.note);
      if (IsFileEditTool(e.tool_name)) {
        // What it defined, from all of what it wrote; the text itself cut to its start.
        e.defines = DefinedNames(e.detail, e.text, caps_.defines);
        e.text = Cut(e.text, caps_.change);
      } else {
        e.text.clear();
      }
      break;
    }
    case EventKind::kToolResult: {
      Call call;
      auto it = std::find_if(calls_.begin(), calls_.end(),
                             [&](const Call& c) { return c.id == e.tool_id; });
      if (it != calls_.end()) {
        call = std::move(*it);
        calls_.erase(it);
      }
      e.tool_id = ShortId(e.tool_id);
      e.tool_name.clear();  // the call names the tool
      if (e.status == ResultStatus::kFailed && call.tool == "Bash")
        e.status = Classify(e.text, true, e.exit_code, call.detail);
      else if (e.status == ResultStatus::kOk && call.tool == "Bash" &&
               MaskedFailure(call.detail, e.text))
        e.status = ResultStatus::kFailed;
      if (e.status == ResultStatus::kFailed) {
        e.text = FailureLines(e.text, caps_.failure);
      } else if (e.status != ResultStatus::kOk) {
        e.text.clear();
      } else {
        // A README or manifest read: what it says the project is (a line), not its contents.
        if (std::string file = DescribingFile(call.tool, call.detail); !file.empty())
          e.about = AboutProject(file, e.text);
        if (call.tool == "Bash") {
          e.text = HeadTail(e.text, caps_.output);
        } else if (KeepsAnswer(call.tool)) {
          e.text = Cut(e.text, caps_.answer);
        } else {
          e.text.clear();  // a file's contents, a search's hits: never kept
        }
      }
      e.reason = Cut(e.reason, caps_.reason);
      break;
    }
  }
  return e;
}

size_t LogBudget(uint64_t read_bytes) {
  return std::max<size_t>(32 * 1024, static_cast<size_t>(read_bytes * 25 / 100));
}

size_t FitToBudget(std::vector<Event>& events, size_t budget) {
  auto total = [&] {
    size_t n = 0;
    for (const auto& e : events) n += RenderEvent(e).size() + 1;
    return n;
  };
  auto words = [](const Event& e) {
    return e.kind == EventKind::kPersonText || e.kind == EventKind::kAssistantText ||
           e.kind == EventKind::kCompaction;
  };
  size_t bytes = total();
  // What the calls did gives way first (their inputs, outputs and notes), what
  // the person and the agent said last: a closing summary cut to its first
  // lines loses what a question a week later asks for.
  for (size_t cap : {2000, 1000, 500, 250, 120}) {
    if (bytes <= budget) return bytes;
    for (auto& e : events) {
      if (words(e)) continue;
      e.text = Cut(e.text, cap);
      e.detail = Cut(e.detail, cap);
      e.defines = Cut(e.defines, std::min<size_t>(cap, 400));
      e.note = Cut(e.note, std::min<size_t>(cap, 200));
    }
    bytes = total();
  }
  if (bytes > budget) {
    for (auto& e : events) {
      if (e.kind == EventKind::kToolResult && e.status == ResultStatus::kOk) e.text.clear();
    }
    bytes = total();
  }
  // Then what was said along the way, before what the person said and the
  // agent's report at the end of each of its turns (its last words before the
  // person speaks again): the closing summary is what a week later asks for.
  std::vector<bool> kept(events.size(), false);
  bool reply_seen = false;
  for (size_t i = events.size(); i-- > 0;) {
    const Event& e = events[i];
    if (e.kind == EventKind::kPersonText) {
      kept[i] = true;
      reply_seen = false;
    } else if (e.kind == EventKind::kAssistantText && !reply_seen) {
      kept[i] = true;
      reply_seen = true;
    }
  }
  for (bool last : {false, true}) {
    for (size_t cap : {2000, 1000, 500, 250, 120}) {
      if (bytes <= budget) return bytes;
      for (size_t i = 0; i < events.size(); ++i) {
        if (words(events[i]) && kept[i] == last) events[i].text = Cut(events[i].text, cap);
      }
      bytes = total();
    }
  }
  return bytes;
}

std::string RenderEvent(const Event& e) {
  Json j;
  j["turn"] = TurnOf(e.kind);
  j["line"] = e.line;
  if (!e.at.empty()) j["at"] = e.at;
  if (e.kind == EventKind::kToolUse) {
    j["tool"] = e.tool_name;
    j["id"] = e.tool_id;
    if (!e.detail.empty()) j["input"] = e.detail;
    if (!e.note.empty()) j["note"] = e.note;
    if (!e.text.empty()) j["change"] = e.text;
    if (!e.defines.empty()) j["defines"] = e.defines;
  } else if (e.kind == EventKind::kToolResult) {
    j["id"] = e.tool_id;
    j["status"] = StatusName(e.status);
    if (e.exit_code) j["exit"] = *e.exit_code;
    if (!e.reason.empty()) j["reason"] = e.reason;
    if (!e.text.empty()) j["text"] = e.text;
    if (!e.about.empty()) j["about"] = e.about;
  } else if (!e.text.empty()) {
    j["text"] = e.text;
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string RenderSpan(const Span& s) {
  Json j;
  j["turn"] = "span";
  if (!s.session_id.empty()) j["session_id"] = redact::Clean(s.session_id);
  j["lines"] = Json::array({s.first, s.last});
  if (!s.started_at.empty()) j["started_at"] = s.started_at;
  if (!s.ended_at.empty()) j["ended_at"] = s.ended_at;
  if (!s.branch.empty()) j["branch"] = s.branch;
  if (!s.cwd.empty()) j["cwd"] = s.cwd;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool ParseLogLine(std::string_view text, LogLine* out) {
  json::Limits limits;
  limits.max_bytes = kMaxLogLine;
  limits.max_depth = 8;
  auto parsed = json::ParseOrdered(text, limits);
  if (!parsed || !parsed->is_object()) return false;
  const Json& j = *parsed;
  const std::string turn = json::StringOr(j, "turn", "");
  if (turn == "span") {
    const Json* lines = json::Find(j, "lines");
    if (!lines || !lines->is_array() || lines->size() != 2) return false;
    auto a = json::AsInt((*lines)[0], 0), b = json::AsInt((*lines)[1], 0);
    if (!a || !b || *a > *b) return false;
    out->is_span = true;
    out->span = Span{*a,
                     *b,
                     json::StringOr(j, "session_id", ""),
                     json::StringOr(j, "started_at", ""),
                     json::StringOr(j, "ended_at", ""),
                     json::StringOr(j, "branch", ""),
                     json::StringOr(j, "cwd", "")};
    return true;
  }
  Event e;
  bool known = false;
  for (const auto& t : kTurns) {
    if (t.name == turn) {
      e.kind = t.kind;
      known = true;
    }
  }
  auto line = json::Int(j, "line", 0);
  if (!known || !line) return false;
  e.line = *line;
  e.at = json::StringOr(j, "at", "");
  e.text = json::StringOr(j, "text", "");
  if (e.kind == EventKind::kToolUse) {
    e.tool_name = json::StringOr(j, "tool", "");
    e.tool_id = json::StringOr(j, "id", "");
    e.detail = json::StringOr(j, "input", "");
    e.note = json::StringOr(j, "note", "");
    e.text = json::StringOr(j, "change", "");
    e.defines = json::StringOr(j, "defines", "");
  } else if (e.kind == EventKind::kToolResult) {
    e.tool_id = json::StringOr(j, "id", "");
    e.status = ParseStatus(json::StringOr(j, "status", "ok")).value_or(ResultStatus::kOk);
    e.exit_code = json::Int(j, "exit");
    e.reason = json::StringOr(j, "reason", "");
    e.about = json::StringOr(j, "about", "");
  }
  out->is_span = false;
  out->event = std::move(e);
  return true;
}

Result<std::string> CheckSessionId(std::string_view id, std::string_view name,
                                   const std::string& path) {
  if (id.empty()) return std::string();
  auto refuse = [&](std::string_view why) -> Result<std::string> {
    return Fail(ErrorCode::kInvalidInput, std::string(name).append(" ").append(why), path, 0,
                "a session id is one line of at most " + std::to_string(kMaxSessionIdBytes) +
                    " bytes of text without control characters, '/' or '..'");
  };
  // The length first: the secret scan of an id is quadratic in its length.
  if (id.size() > kMaxSessionIdBytes) {
    return refuse("is longer than " + std::to_string(kMaxSessionIdBytes) + " bytes");
  }
  if (!text::IsValidUtf8(id)) return refuse("is not valid UTF-8");
  for (size_t i = 0; i < id.size(); ++i) {
    const auto c = static_cast<unsigned char>(id[i]);
    const bool c1 = c == 0xC2 && i + 1 < id.size() &&
                    static_cast<unsigned char>(id[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(id[i + 1]) <= 0x9F;
    if (c < 0x20 || c == 0x7F || c1) return refuse("holds a control character");
  }
  if (id.find_first_not_of(' ') == std::string_view::npos) return refuse("is blank");
  std::string cleaned = redact::CleanId(id);
  if (cleaned.find_first_not_of(' ') == std::string::npos)
    return refuse("is blank once its private spans are dropped");
  // What lore keeps must be usable as a file name's part.
  if (cleaned.find('/') != std::string::npos || cleaned.find("..") != std::string::npos)
    return refuse("holds '/' or '..'");
  if (cleaned.size() > kMaxSessionIdBytes) {
    return refuse("is longer than " + std::to_string(kMaxSessionIdBytes) +
                  " bytes once its secrets are replaced");
  }
  return cleaned;
}

std::string SessionFileStem(std::string_view raw_id) {
  // A secret pasted as an id never reaches a file name.
  const std::string cleaned = redact::CleanName(raw_id);
  const std::string_view id = cleaned;
  std::string plain;
  for (char c : id) {
    bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    plain += ok ? c : '_';
  }
  if (plain == id && !plain.empty() && plain.size() <= 100) return plain;
  // FNV-1a 64 of the whole id tells apart ids whose plain characters agree.
  return plain.substr(0, 60) + "-" + text::Hex(text::Fnv1a64(id));
}

std::string SessionLogPath(const store::Store& store, std::string_view session_id) {
  return fs::Join(store.Path(kSessionsDir), SessionFileStem(session_id) + ".jsonl");
}

Result<int64_t> LoggedThrough(const std::string& path) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return int64_t{0};
    return tl::unexpected(fd.error());
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  // The last line of a complete append is its span: read it from the end.
  const uint64_t from = size > kTailRead ? size - kTailRead : 0;
  std::string tail(static_cast<size_t>(size - from), '\0');
  LORE_ASSIGN(size_t got, fs::ReadAt(fd->get(), tail.data(), tail.size(), from, path));
  tail.resize(got);
  if (!tail.empty() && tail.back() == '\n') {
    size_t start = tail.rfind('\n', tail.size() - 2);
    std::string_view last = std::string_view(tail).substr(
        start == std::string::npos ? 0 : start + 1,
        tail.size() - 1 - (start == std::string::npos ? 0 : start + 1));
    LogLine l;
    if ((start != std::string::npos || from == 0) && ParseLogLine(last, &l) && l.is_span)
      return l.span.last;
  }
  // No span at the end (a foreign line, or an append cut short): the
  // largest span anywhere in the log.
  int64_t through = 0;
  LORE_TRY(log::StreamLines(
      fd->get(), 0, 1, size, path,
      [&](const log::StreamedLine& sl) {
        LogLine l;
        if (!sl.oversized && ParseLogLine(sl.text, &l) && l.is_span)
          through = std::max(through, l.span.last);
        return true;
      },
      log::StreamLimits{log::kScanChunkBytes, kMaxLogLine}));
  return through;
}

Result<LogEnds> ReadLogEnds(const std::string& path) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY | O_NONBLOCK));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  LogEnds out;
  if (!S_ISREG(st.st_mode) || st.st_size == 0) return out;
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  constexpr size_t kEnd = 8192;
  std::string head(static_cast<size_t>(std::min<uint64_t>(size, kEnd)), '\0');
  LORE_ASSIGN(size_t got, fs::ReadAt(fd.get(), head.data(), head.size(), 0, path));
  head.resize(got);
  size_t pos = 0;
  while (pos < head.size()) {
    size_t nl = head.find('\n', pos);
    if (nl == std::string::npos) break;
    LogLine l;
    if (ParseLogLine(std::string_view(head).substr(pos, nl - pos), &l)) {
      out.started_at = l.is_span ? l.span.started_at : l.event.at;
      if (!out.started_at.empty()) break;
    }
    pos = nl + 1;
  }
  const uint64_t from = size > kEnd ? size - kEnd : 0;
  std::string tail(static_cast<size_t>(size - from), '\0');
  LORE_ASSIGN(got, fs::ReadAt(fd.get(), tail.data(), tail.size(), from, path));
  tail.resize(got);
  while (!tail.empty() && tail.back() == '\n') tail.pop_back();
  size_t start = tail.rfind('\n');
  LogLine l;
  if ((start != std::string::npos || from == 0) &&
      ParseLogLine(std::string_view(tail).substr(start == std::string::npos ? 0 : start + 1), &l) &&
      l.is_span) {
    out.ended_at = l.span.ended_at;
    out.last_line = l.span.last;
    if (out.started_at.empty()) out.started_at = l.span.started_at;
  }
  if (out.ended_at.empty()) out.ended_at = out.started_at;
  return out;
}

namespace {

// The offset just past the log's last span line within its first `size`
// bytes; 0 when it has none.
Result<uint64_t> EndOfLastSpan(int fd, uint64_t size, const std::string& path) {
  uint64_t keep = 0;
  LORE_TRY(log::StreamLines(
      fd, 0, 1, size, path,
      [&](const log::StreamedLine& sl) {
        LogLine l;
        if (!sl.oversized && ParseLogLine(sl.text, &l) && l.is_span) keep = sl.end;
        return true;
      },
      log::StreamLimits{log::kScanChunkBytes, kMaxLogLine}));
  return keep;
}

}  // namespace

Result<std::optional<uint64_t>> UnfinishedAppend(int fd, const std::string& path) {
  LORE_ASSIGN(const std::optional<uint64_t> size, fs::UnterminatedSize(fd, path));
  if (!size) return std::optional<uint64_t>();
  LORE_ASSIGN(const uint64_t keep, EndOfLastSpan(fd, *size, path));
  return std::optional<uint64_t>(keep);
}

Result<std::optional<uint64_t>> AfterLastSpan(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  LORE_ASSIGN(const uint64_t keep, EndOfLastSpan(fd, size, path));
  if (keep >= size) return std::optional<uint64_t>();
  return std::optional<uint64_t>(keep);
}

std::string SessionLogRel(std::string_view session_id) {
  return std::string(kSessionsDir) + "/" + SessionFileStem(session_id) + ".jsonl";
}

Result<int64_t> MendSessionLog(const store::Store& store, std::string_view session_id,
                               bool after_last_span) {
  const std::string rel = SessionLogRel(session_id);
  const std::string path = store.Path(rel);
  if (!fs::Exists(path)) return int64_t{0};
  LORE_TRY(store::QuarantineTornTail(
      store, rel, after_last_span ? log::CutRule(AfterLastSpan) : log::CutRule(UnfinishedAppend)));
  return LoggedThrough(path);
}

Status AppendSessionLog(const store::Store& store, std::string_view session_id, Span span,
                        const std::vector<Event>& events) {
  const std::string dir = store.Path(kSessionsDir);
  LORE_TRY(fs::RefuseSymlink(dir, "sessions folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  const std::string path = SessionLogPath(store, session_id);
  {
    // Created empty when missing, never through a symlink.
    auto fd = fs::Open(path, O_WRONLY | O_CREAT, 0600);
    if (!fd) return tl::unexpected(fd.error());
  }
  // A batch an append left unfinished never happened: its bytes are moved
  // into quarantine/ (never deleted), under the log's own lock, before
  // anything is appended.
  LORE_ASSIGN(int64_t through, MendSessionLog(store, session_id, false));
  span.first = std::max(span.first, through + 1);
  if (span.first > span.last) return Ok();
  std::vector<std::string> lines;
  lines.reserve(events.size() + 1);
  for (const Event& e : events) {
    if (e.line >= span.first) lines.push_back(RenderEvent(e));
  }
  lines.push_back(RenderSpan(span));
  log::LogPaths paths{path, "",
                      "the session log is lore's own file: move the bad line out, or remove the "
                      "file and run lore extract again while the transcript exists",
                      "", true};
  LORE_TRY(log::AppendLines(paths, lines));
  return Ok();
}

Result<SessionLog> ReadSessionLog(const std::string& path, std::string_view session_id) {
  LORE_ASSIGN(fs::Fd fd, fs::Open(path, O_RDONLY | O_NONBLOCK));
  struct stat st;
  if (::fstat(fd.get(), &st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  if (!S_ISREG(st.st_mode)) {
    return Fail(ErrorCode::kCorrupt, "session log is not a regular file", path, 0,
                "move it out of sessions/");
  }
  SessionLog out;
  out.session_id = std::string(session_id);
  bool named = false;  // the first span's session id replaces the file's name
  LORE_TRY(log::StreamLines(
      fd.get(), 0, 1, static_cast<uint64_t>(st.st_size), path,
      [&](const log::StreamedLine& sl) {
        LogLine l;
        if (sl.oversized || !ParseLogLine(sl.text, &l)) {
          if (!sl.text.empty() || sl.oversized) ++out.skipped;
          return true;
        }
        if (l.is_span) {
          if (!named && !l.span.session_id.empty()) {
            out.session_id = l.span.session_id;
            named = true;
          }
          out.spans.push_back(std::move(l.span));
        } else
          out.events.push_back(std::move(l.event));
        return true;
      },
      log::StreamLimits{log::kScanChunkBytes, kMaxLogLine}));
  return out;
}

Result<std::vector<SessionFile>> ListSessionLogs(const store::Store& store) {
  std::vector<SessionFile> out;
  const std::string dir = store.Path(kSessionsDir);
  LORE_TRY(fs::RefuseSymlink(dir, "sessions folder"));
  LORE_ASSIGN(auto entries, fs::ListExisting(store.dir(), kSessionsDir, fs::ListStat::kFull));
  for (const auto& e : entries) {
    std::string_view name = e.name;
    if (!e.is_file || name.size() < 7 || name[0] == '.' || !name.ends_with(".jsonl")) continue;
    out.push_back({fs::Join(dir, name), std::string(name.substr(0, name.size() - 6)), e.size});
  }
  return out;
}

}  // namespace lore::activity
