#include "lore/extract/extract.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

#include "activity/session_log.h"
#include "extract/cursor.h"
#include "lore/consolidate/staging.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/json/value.h"
#include "lore/sys/uuid.h"
#include "lore/testing/point.h"

namespace lore::extract {
namespace {

namespace cons = consolidate;

constexpr int64_t kSessionScanLines = 64;  // lines searched for the transcript's sessionId

// The transcript the person or the agent named: followed when a symlink (it is
// not in the store), opened without blocking, a regular file only.
Result<fs::Fd> OpenTranscript(const std::string& path) {
  auto fd = fs::OpenNamedFile(path);
  if (!fd && fd.error().code == ErrorCode::kInvalidInput) {
    Error e = std::move(fd).error();
    e.what = "the transcript is " + e.what;
    e.repair = "pass the agent's session .jsonl file";
    return Fail(std::move(e));
  }
  if (!fd) {
    Error e = std::move(fd).error();
    if (e.what.rfind("cannot open", 0) == 0) e.what.replace(0, 11, "cannot open the transcript");
    return Fail(std::move(e));
  }
  return fd;
}

Result<uint64_t> SizeOf(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  return static_cast<uint64_t>(st.st_size);
}

std::string Stem(const std::string& path) {
  std::string base = fs::Basename(path);
  size_t dot = base.rfind('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

// The transcript's session id: the first sessionId of its first lines that
// the gate of session ids takes (one it refuses is passed over), else its
// file name's stem, which must pass the gate.
Result<std::string> SessionIn(int fd, uint64_t size, const std::string& path,
                              const log::StreamLimits& limits) {
  std::string found;
  LORE_TRY(log::StreamLines(
      fd, 0, 1, size, path,
      [&](const log::StreamedLine& l) {
        if (!l.oversized) {
          const std::string id = ParseTranscriptLine(l.text, l.number).session_id;
          if (auto gated = activity::CheckSessionId(id, "sessionId", path)) found = *gated;
        }
        return found.empty() && l.number < kSessionScanLines;
      },
      limits));
  if (!found.empty()) return found;
  return activity::CheckSessionId(Stem(path),
                                  "the session id taken from the transcript's file name", path);
}

// The session id given by --session, through the gate of session ids.
Result<std::string> FlagSession(const std::string& flag) {
  return activity::CheckSessionId(flag, "the session id of --session", "");
}

// True when staging holds an entry of `session` covering exactly [first, last].
Result<bool> StagedAlready(const store::Store& store, const std::string& session, int64_t first,
                           int64_t last) {
  LORE_ASSIGN(auto files, cons::ListStaged(store));
  for (const auto& f : files) {
    std::string path = cons::StagedPath(store, f.id);
    auto text = fs::ReadFile(path, fs::Kind::kState);
    if (!text) continue;  // consumed meanwhile
    auto e = cons::ParseStagedEntry(*text, path);
    if (!e) continue;
    if (e->source.session_id == session && e->source.range.from == static_cast<uint64_t>(first) &&
        e->source.range.to == static_cast<uint64_t>(last)) {
      return true;
    }
  }
  return false;
}

// Whether the cursor still describes this file; the reason when it does not.
Result<std::string> Mismatch(int fd, uint64_t size, const Cursor& c, const std::string& path) {
  LORE_ASSIGN(Identity now, IdentityOf(fd, c.identity.prefix_bytes, path));
  if (now.dev != c.identity.dev || now.ino != c.identity.ino) {
    return std::string("the transcript is another file than the one extracted before");
  }
  if (size < c.offset) return std::string("the transcript is shorter than the extracted part");
  if (now.prefix_hash != c.identity.prefix_hash) {
    return std::string("the transcript's first bytes changed since it was extracted");
  }
  if (c.offset > 0) {
    char last = 0;
    if (::pread(fd, &last, 1, static_cast<off_t>(c.offset - 1)) != 1 || last != '\n') {
      return std::string("the transcript no longer has a line end where the cursor stands");
    }
  }
  return std::string();
}

void Count(const ParsedLine& p, Counts& c) {
  if (p.sidechain) ++c.sidechain;
  switch (p.cls) {
    case LineClass::kUsed:
      ++c.used;
      return;
    case LineClass::kHarness:
      ++c.harness;
      break;
    case LineClass::kUnknown:
      ++c.unknown;
      break;
    case LineClass::kMalformed:
      ++c.malformed;
      break;
    case LineClass::kQuiet:
      break;
  }
  ++c.skipped;
}

}  // namespace

Result<std::string> SessionOf(const std::string& transcript, const std::string& flag) {
  if (!flag.empty()) return FlagSession(flag);
  LORE_ASSIGN(fs::Fd fd, OpenTranscript(transcript));
  LORE_ASSIGN(uint64_t size, SizeOf(fd.get(), transcript));
  return SessionIn(fd.get(), size, transcript, {});
}

Result<uint64_t> Growth(const store::Store& store, const std::string& transcript,
                        const std::string& session) {
  struct stat st;
  if (::stat(transcript.c_str(), &st) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat the transcript", transcript));
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  LORE_ASSIGN(auto cursor, ReadCursor(store, session));
  if (!cursor || cursor->identity.ino != static_cast<uint64_t>(st.st_ino) ||
      cursor->identity.dev != static_cast<uint64_t>(st.st_dev) || size < cursor->offset) {
    return size;
  }
  return size - cursor->offset;
}

namespace {

// The session log's side of a run: logged events are appended in batches of
// about kLogBatchBytes, each ending with the span of lines it covers, so that
// a run over a transcript of any size holds one batch at a time.
class LogWriter {
 public:
  LogWriter(const store::Store& store, std::string session, bool dry_run)
      : store_(store), session_(std::move(session)), dry_run_(dry_run) {
    span_.session_id = session_;
  }

  void Line(const log::StreamedLine& l, const ParsedLine& p) {
    if (span_.first == 0) span_.first = l.number;
    span_.last = l.number;
    read_bytes_ += l.length + 1;
    if (!p.at.empty()) {
      if (span_.started_at.empty()) span_.started_at = p.at;
      span_.ended_at = p.at;
    }
    if (!p.branch.empty()) span_.branch = p.branch;
    if (span_.cwd.empty() && !p.cwd.empty()) span_.cwd = p.cwd;
  }

  // The event as logged (what the engine is given too), or nullopt.
  std::optional<Event> Add(const Event& e) {
    auto logged = builder_.Add(e);
    if (!logged) return logged;
    pending_bytes_ += logged->text.size() + logged->detail.size() + 64;
    batch_.push_back(*logged);
    ++events_;
    return logged;
  }

  bool Full() const { return pending_bytes_ >= kLogBatchBytes; }

  Status Flush() {
    if (span_.first == 0) return Ok();
    bytes_ += activity::FitToBudget(batch_, activity::LogBudget(read_bytes_));
    if (!dry_run_) LORE_TRY(activity::AppendSessionLog(store_, session_, span_, batch_));
    batch_.clear();
    pending_bytes_ = 0;
    read_bytes_ = 0;
    activity::Span next;
    next.session_id = session_;
    next.branch = span_.branch;
    next.cwd = span_.cwd;
    span_ = next;
    return Ok();
  }

  int64_t events() const { return events_; }
  uint64_t bytes() const { return bytes_; }

 private:
  static constexpr size_t kLogBatchBytes = size_t{1} << 20;
  const store::Store& store_;
  std::string session_;
  bool dry_run_;
  activity::LogBuilder builder_;
  activity::Span span_;
  std::vector<Event> batch_;
  size_t pending_bytes_ = 0;
  uint64_t read_bytes_ = 0;
  int64_t events_ = 0;
  uint64_t bytes_ = 0;
};

// Finishes what a run before this one left: publishes the entry its cursor
// names (or finds it published already), or, for a cursor of an earlier
// version with a pending range, moves past the range when its entry is in
// staging and reads it again otherwise. Returns what happened ("" when
// nothing was left).
Result<std::string> Recover(const store::Store& store, const std::string& stem, Cursor& cursor,
                            uint64_t size) {
  std::string what;
  if (!cursor.publish.empty()) {
    LORE_ASSIGN(bool published, cons::Publish(store, stem, cursor.publish));
    what = published ? "published" : "staged";
    cursor.publish.clear();
  }
  // A tentative entry the cursor does not name was never published: a run
  // died before moving its cursor, and this one reads the range again.
  LORE_ASSIGN(bool dropped, cons::DropTentative(store, stem));
  if (dropped && what.empty()) what = "retried";
  if (cursor.pending) {
    const Pending p = *cursor.pending;
    LORE_ASSIGN(bool staged, StagedAlready(store, cursor.session_id, p.first, p.last));
    if (staged && p.offset <= size) {
      what = "staged";
      cursor.line = p.last;
      cursor.offset = p.offset;
    } else {
      what = "retried";
    }
    cursor.pending.reset();
  }
  return what;
}

// The session log holds every line the cursor has passed, unless it lost
// its tail since (cut by a crash or by hand, moved into quarantine/ by
// `lore check --repair`, removed): then the lines from where the log really
// ends to the cursor are read again and logged as the runs that read them
// logged them, never a line twice (AppendSessionLog). The engine is not
// given them: their entry was staged already.
Status RestoreLog(const store::Store& store, const Options& o, int fd, const Cursor& cursor,
                  Outcome& out) {
  LORE_ASSIGN(int64_t through, activity::MendSessionLog(store, out.session_id, false));
  if (through >= cursor.line) return Ok();
  // Whole lines past the last span are a batch cut short too: aside with them.
  LORE_ASSIGN(through, activity::MendSessionLog(store, out.session_id, true));
  LogWriter writer(store, out.session_id, /*dry_run=*/false);
  std::optional<Error> failed;
  LORE_TRY(log::StreamLines(
      fd, 0, 1, cursor.offset, o.transcript,
      [&](const log::StreamedLine& l) {
        if (l.number <= through) return true;
        if (l.oversized) {
          writer.Line(l, ParsedLine{});
          return true;
        }
        ParsedLine p = ParseTranscriptLine(l.text, l.number);
        writer.Line(l, p);
        for (const Event& e : p.events) writer.Add(e);
        if (writer.Full()) {
          if (auto s = writer.Flush(); !s) {
            failed = s.error();
            return false;
          }
        }
        return true;
      },
      o.limits));
  if (failed) return Fail(*failed);
  LORE_TRY(writer.Flush());
  out.restored_first = through + 1;
  out.restored_last = cursor.line;
  return Ok();
}

}  // namespace

Result<Outcome> Extract(const store::Store& store, const Options& o, Engine& engine) {
  LORE_ASSIGN(fs::Fd fd, OpenTranscript(o.transcript));
  LORE_ASSIGN(const uint64_t size, SizeOf(fd.get(), o.transcript));
  Outcome out;
  if (o.session.empty()) {
    LORE_ASSIGN(out.session_id, SessionIn(fd.get(), size, o.transcript, o.limits));
  } else {
    LORE_ASSIGN(out.session_id, FlagSession(o.session));
  }
  const std::string stem = activity::SessionFileStem(out.session_id);
  // One extract per session at a time: a second waits, then sees the moved cursor.
  std::optional<fs::FileLock> lock;
  if (!o.dry_run) {
    LORE_TRY(fs::RefuseSymlink(store.Path(kCursorDir), "extract cursor folder"));
    LORE_TRY(fs::MakeDirs(store.Path(kCursorDir), 0700));
    std::string lock_path = CursorPath(store, out.session_id);
    lock_path.replace(lock_path.size() - 5, 5, ".lock");
    LORE_ASSIGN(fs::FileLock l, fs::FileLock::Acquire(lock_path, fs::LockMode::kExclusive,
                                                      std::chrono::seconds(30)));
    lock.emplace(std::move(l));
  }
  LORE_ASSIGN(std::optional<Cursor> found, ReadCursor(store, out.session_id));
  Cursor cursor;
  cursor.session_id = out.session_id;
  bool dirty = false;  // the cursor must be written even when nothing is staged
  if (found) {
    if (!o.dry_run) {
      LORE_ASSIGN(out.recovered, Recover(store, stem, *found, size));
      dirty = !out.recovered.empty();
    }
    LORE_ASSIGN(out.restarted, Mismatch(fd.get(), size, *found, o.transcript));
    if (out.restarted.empty()) {
      cursor = *found;
    } else {
      dirty = true;
    }
  } else if (!o.dry_run) {
    LORE_ASSIGN(bool dropped, cons::DropTentative(store, stem));
    if (dropped) out.recovered = "retried";
  }
  cursor.transcript = fs::Absolute(o.transcript);
  if (!o.dry_run && cursor.line > 0) LORE_TRY(RestoreLog(store, o, fd.get(), cursor, out));
  const int64_t first = cursor.line + 1;
  LogWriter writer(store, out.session_id, o.dry_run);
  std::optional<Error> failed;  // the engine's or the log's error, which ends the run
  LORE_ASSIGN(log::StreamEnd end, log::StreamLines(
                                      fd.get(), cursor.offset, first, size, o.transcript,
                                      [&](const log::StreamedLine& l) {
                                        ++out.counts.lines;
                                        if (l.oversized) {
                                          ++out.counts.oversized;
                                          ++out.counts.skipped;
                                          writer.Line(l, ParsedLine{});
                                          return true;
                                        }
                                        ParsedLine p = ParseTranscriptLine(l.text, l.number);
                                        Count(p, out.counts);
                                        writer.Line(l, p);
                                        if (!p.cwd.empty()) engine.Checkout(p.cwd);
                                        for (const Event& e : p.events) {
                                          auto logged = writer.Add(e);
                                          if (!logged) continue;
                                          if (auto s = engine.Take(*logged); !s) {
                                            failed = s.error();
                                            return false;
                                          }
                                        }
                                        if (writer.Full()) {
                                          if (auto s = writer.Flush(); !s) {
                                            failed = s.error();
                                            return false;
                                          }
                                        }
                                        return true;
                                      },
                                      o.limits));
  if (failed) return Fail(*failed);
  // The session log holds every line read before the cursor may pass them.
  LORE_TRY(writer.Flush());
  out.logged = writer.events();
  out.log_bytes = writer.bytes();
  if (end.last_line < first) {
    out.status = "nothing-new";
    if (dirty && !o.dry_run) {
      LORE_ASSIGN(cursor.identity, IdentityOf(fd.get(), cursor.offset, o.transcript));
      LORE_TRY(WriteCursor(store, cursor));
    }
    return out;
  }
  LORE_ASSIGN(Identity identity, IdentityOf(fd.get(), end.end, o.transcript));
  out.first = first;
  out.last = end.last_line;
  auto finished = engine.Finish();
  if (!finished) return Fail(finished.error());
  cons::StagedEntry entry = std::move(*finished);
  entry.source.session_id = out.session_id;
  entry.source.range = {static_cast<uint64_t>(first), static_cast<uint64_t>(end.last_line)};
  out.entry = cons::RenderStagedEntry(entry);
  if (o.dry_run) {
    out.status = "dry-run";
    return out;
  }
  cursor.identity = identity;
  cursor.line = end.last_line;
  cursor.offset = end.end;
  if (IsEmpty(entry)) {
    out.status = "nothing-new";
    LORE_TRY(WriteCursor(store, cursor));
    return out;
  }
  // Exactly once: the entry waits aside, the cursor moves past the range
  // naming it, and only then does it become visible to consolidation.
  LORE_ASSIGN(std::string text, cons::PrepareEntry(out.entry));
  out.staged_id = sys::NewUuidV7(o.now);
  LORE_TRY(cons::WriteTentative(store, stem, out.staged_id, text));
  LORE_TRY(testing::Point(testing::kExtractAfterPending));
  cursor.staged_id = out.staged_id;
  cursor.publish = out.staged_id;
  LORE_TRY(WriteCursor(store, cursor));
  LORE_TRY(testing::Point(testing::kExtractAfterStage));
  LORE_TRY(cons::Publish(store, stem, out.staged_id));
  cursor.publish.clear();
  LORE_TRY(WriteCursor(store, cursor));
  out.status = "staged";
  return out;
}

std::string OutcomeJson(const Outcome& o, bool with_entry) {
  Json j;
  j["status"] = o.status;
  j["session_id"] = o.session_id;
  j["range"] = o.first > 0 ? Json::array({o.first, o.last}) : Json();
  j["staged_id"] = o.staged_id.empty() ? Json() : Json(o.staged_id);
  const Counts& c = o.counts;
  j["counts"] = {{"lines", c.lines},         {"used", c.used},          {"skipped", c.skipped},
                 {"harness", c.harness},     {"unknown", c.unknown},    {"malformed", c.malformed},
                 {"oversized", c.oversized}, {"sidechain", c.sidechain}};
  j["session_log"] = {{"events", o.logged}, {"bytes", o.log_bytes}};
  if (!o.restarted.empty()) j["restarted"] = o.restarted;
  if (!o.recovered.empty()) j["recovered"] = o.recovered;
  if (o.restored_first > 0) j["log_restored"] = Json::array({o.restored_first, o.restored_last});
  if (with_entry && !o.entry.empty()) {
    auto parsed = Json::parse(o.entry, nullptr, false);
    j["entry"] = parsed.is_discarded() ? Json(o.entry) : parsed;
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace lore::extract
