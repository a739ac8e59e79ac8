#include "app/check_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "activity/session_log.h"
#include "doc/frontmatter.h"
#include "extract/cursor.h"
#include "fs/temp_name.h"
#include "log/stream_scan.h"
#include "log/torn_tail.h"
#include "lore/config/config.h"
#include "lore/consolidate/staged_entry.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/fs/tree.h"
#include "lore/index/index.h"
#include "lore/json/reader.h"
#include "lore/learnings/file.h"
#include "lore/lint/scan.h"
#include "lore/proposals/queue.h"
#include "lore/store/layout.h"
#include "store/quarantine.h"

namespace lore::app {
namespace {

constexpr const char* kRepairCommand = "run 'lore check --repair'";
constexpr const char* kBadLineRepair =
    "fix that line's JSON by hand or move it to another file (lore skips it meanwhile)";
constexpr const char* kSessionLineRepair =
    "the session log is lore's own file: move the bad line out, or remove the file and run lore "
    "extract again while the transcript exists";

// What a file of the store is, by its place (docs/formats.md).
enum class FileKind {
  kOther,       // not read here: records (the lint scan reads them), locks, raw.jsonl, ...
  kOkfPage,     // okf/<page>.md
  kConfig,      // config.toml
  kLearnings,   // learnings.jsonl, learnings-archive.jsonl
  kQueue,       // proposals.jsonl, proposals-archive.jsonl, proposals.rejected.jsonl
  kLog,         // events.jsonl, usage.jsonl, the team's logs
  kSessionLog,  // sessions/<session>.jsonl
  kCursor,      // extract/<session>.json
  kStaged,      // staging/<id>.json, staging/.pending/<session>.json
  kState,       // lore's other JSON state files
  kIndex,       // index.sqlite
};

struct StoreFile {
  std::string rel;
  FileKind kind = FileKind::kOther;
};

bool HasSuffix(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool HasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

FileKind Classify(std::string_view rel) {
  const std::string_view name = rel.substr(rel.rfind('/') + 1);
  const std::string_view dir =
      rel.size() > name.size() ? rel.substr(0, rel.size() - name.size() - 1) : "";
  if (fs::ParseTempName(name)) return FileKind::kOther;  // a leftover: store/leftovers.h
  if (dir.empty()) {
    if (rel == store::kConfigFile) return FileKind::kConfig;
    if (rel == store::kLearningsFile || rel == store::kLearningsArchiveFile)
      return FileKind::kLearnings;
    if (rel == store::kProposalsFile || rel == store::kProposalsArchiveFile ||
        rel == store::kProposalsRejectedFile) {
      return FileKind::kQueue;
    }
    if (rel == store::kEventsFile || rel == "usage.jsonl") return FileKind::kLog;
    if (rel == index::kIndexFile) return FileKind::kIndex;
    if (HasPrefix(name, "proposals-summary-") && HasSuffix(name, ".json")) return FileKind::kState;
    return FileKind::kOther;
  }
  if (dir == "okf")
    return HasSuffix(name, ".md") && name != "index.md" ? FileKind::kOkfPage : FileKind::kOther;
  if (dir == "sessions")
    return HasSuffix(name, ".jsonl") ? FileKind::kSessionLog : FileKind::kOther;
  if (dir == "extract") {
    if (name == ".failed.json") return FileKind::kState;
    return name[0] != '.' && HasSuffix(name, ".json") ? FileKind::kCursor : FileKind::kOther;
  }
  // Staged entries are named by their id (36 characters), tentative ones by
  // the session's file stem and their id (consolidate/staging.cpp).
  constexpr size_t kIdJson = 36 + 5;
  if (dir == "staging") {
    if (name == ".consolidation.state.json") return FileKind::kState;
    return name.size() == kIdJson && HasSuffix(name, ".json") ? FileKind::kStaged
                                                              : FileKind::kOther;
  }
  if (dir == "staging/.pending") {
    return name.size() > kIdJson + 1 && name[name.size() - kIdJson - 1] == '.' &&
                   HasSuffix(name, ".json")
               ? FileKind::kStaged
               : FileKind::kOther;
  }
  if (dir == "reports") return HasSuffix(name, ".json") ? FileKind::kState : FileKind::kOther;
  if (HasPrefix(dir, "team")) {
    if (HasSuffix(name, ".jsonl")) return FileKind::kLog;
    if (name[0] != '.' && HasSuffix(name, ".json")) return FileKind::kState;
  }
  return FileKind::kOther;
}

// The store's files by kind, and a problem for every symlink and special
// file (never followed, never opened). quarantine/ holds what is known to be
// broken: only its symlinks and special files are reported.
struct Inventory {
  std::vector<StoreFile> files;
  std::vector<Error> problems;
  std::set<std::string> reported;  // paths with a problem already
};

Inventory Take(const store::Store& store) {
  Inventory inv;
  auto walk = fs::WalkTree(store.dir());
  if (!walk) {
    inv.problems.push_back(walk.error());
    return inv;
  }
  for (const fs::TreeEntry& e : *walk) {
    const std::string path = store.Path(e.rel);
    if (e.type == fs::EntryType::kSymlink) {
      inv.problems.push_back(Error{ErrorCode::kSymlink,
                                   "symlink in the store (lore never follows it)", path, 0,
                                   "replace it with the real file or folder, or move it out of "
                                   "the store; lore check --repair leaves it alone"});
      inv.reported.insert(path);
    } else if (e.type == fs::EntryType::kOther) {
      auto st = fs::LStat(path);
      Error err = st ? fs::NotRegularError(st->st_mode, path)
                     : Error{ErrorCode::kCorrupt, "not a regular file", path, 0, ""};
      err.what += " in the store";
      err.repair =
          "move it out of the store; lore never opens it, and lore check --repair leaves it alone";
      inv.problems.push_back(std::move(err));
      inv.reported.insert(path);
    } else if (e.type == fs::EntryType::kFile &&
               !HasPrefix(e.rel, std::string(store::kQuarantineDir) + "/")) {
      inv.files.push_back({e.rel, Classify(e.rel)});
    }
  }
  return inv;
}

// A torn tail of the log `path` by `rule`, as an Error at its line `line`.
std::optional<Error> TornTail(const std::string& path, const log::CutRule& rule, int64_t line) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) return fd.error();
  if (auto s = fs::LockFd(fd->get(), fs::LockMode::kShared, path); !s) return s.error();
  auto keep = rule(fd->get(), path);
  if (!keep) return keep.error();
  if (!*keep) return std::nullopt;
  return log::TornTailError(path, line);
}

// A log's problems: its torn tail (by `rule`), then the malformed lines the
// module's reader found (`bad`: line number and what), the torn one left out.
void LogProblems(const std::string& path, const log::CutRule& rule,
                 const std::vector<std::pair<int64_t, std::string>>& bad, int64_t last_line,
                 const char* repair, std::vector<Error>* out) {
  std::optional<Error> torn = TornTail(path, rule, last_line);
  for (const auto& [line, what] : bad) {
    if (torn && line == last_line) continue;
    out->push_back(Error{ErrorCode::kCorrupt, "malformed line (" + what + ")", path, line, repair});
  }
  if (torn) out->push_back(std::move(*torn));
}

// Why a line the queue's reader refused is malformed.
std::string Why(std::string_view text) {
  log::Line line{1, text.substr(0, text.size() - (HasSuffix(text, "\n") ? 1 : 0)),
                 HasSuffix(text, "\n")};
  if (auto what = log::CheckObjectLine(line)) return *what;
  return "not read by JSON.parse's rules, or longer than 1 MiB";
}

void CheckLearnings(const std::string& path, std::vector<Error>* out) {
  auto scan = learnings::ReadLearnings(path);
  if (!scan) return out->push_back(scan.error());
  std::vector<std::pair<int64_t, std::string>> bad;
  for (const auto& l : scan->lines) {
    if (!l.object && !l.blank) bad.emplace_back(l.span.line, Why(scan->Text(l.span)));
  }
  const int64_t last = scan->lines.empty() ? 0 : scan->lines.back().span.line;
  LogProblems(path, log::TornTailStart, bad, last, kBadLineRepair, out);
}

void CheckQueue(const std::string& path, std::vector<Error>* out) {
  auto scan = proposals::ReadQueue(path);
  if (!scan) return out->push_back(scan.error());
  std::vector<std::pair<int64_t, std::string>> bad;
  int64_t last = 0;
  for (const auto& s : scan->malformed) bad.emplace_back(s.line, Why(scan->Text(s)));
  for (const auto& s : scan->malformed) last = std::max(last, s.line);
  for (const auto& s : scan->blank) last = std::max(last, s.line);
  for (const auto& e : scan->records) last = std::max(last, e.span.line);
  LogProblems(path, log::TornTailStart, bad, last, kBadLineRepair, out);
}

// A log read by the one streaming checker of JSON Lines (log/stream_scan.h).
void CheckStreamedLog(const std::string& path, const log::CutRule& rule, const char* repair,
                      std::vector<Error>* out) {
  auto fd = fs::Open(path, O_RDONLY);
  if (!fd) return out->push_back(fd.error());
  struct stat st;
  if (::fstat(fd->get(), &st) != 0)
    return out->push_back(fs::ErrnoError(errno, "cannot stat", path));
  auto scan = log::ScanFd(fd->get(), static_cast<uint64_t>(st.st_size), path, 1000);
  if (!scan) return out->push_back(scan.error());
  std::vector<std::pair<int64_t, std::string>> bad;
  for (const auto& p : scan->problems) bad.emplace_back(p.line, p.what);
  LogProblems(path, rule, bad, scan->lines, repair, out);
}

void CheckCursor(const std::string& path, std::vector<Error>* out) {
  if (auto c = extract::ReadCursorFile(path); !c) {
    Error e = c.error();
    e.repair = std::string(kRepairCommand) +
               ": it moves the cursor into quarantine/, and the next extract of that session "
               "starts from the transcript's first line (the session log never takes a line twice)";
    out->push_back(std::move(e));
  }
}

void CheckStaged(const std::string& path, std::vector<Error>* out) {
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (!text) return out->push_back(text.error());
  if (auto e = consolidate::ParseStagedEntry(*text, path); !e) {
    Error err = e.error();
    err.repair =
        "the next lore consolidate sets it aside in staging/.invalid/; or move it there now";
    out->push_back(std::move(err));
  }
}

void CheckState(const std::string& path, std::vector<Error>* out) {
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (!text) return out->push_back(text.error());
  json::Limits limits;
  limits.max_bytes = fs::Cap(fs::Kind::kState);
  json::Source src;
  src.path = path;
  auto j = json::Parse(*text, limits, src);
  if (j && j->is_object()) return;
  Error e = j ? Error{ErrorCode::kCorrupt, "lore state file is not a JSON object", path, 0, ""}
              : j.error();
  e.code = ErrorCode::kCorrupt;
  e.repair =
      "lore's own state file: restore it from a backup, or move it out of the store "
      "(docs/formats.md says what writes it)";
  out->push_back(std::move(e));
}

void CheckOkfPage(const std::string& path, std::vector<Error>* out) {
  auto text = fs::ReadFile(path, fs::Kind::kRecord);
  if (!text) return out->push_back(text.error());
  if (auto split = doc::SplitFrontmatter(*text, path); !split) {
    Error e = split.error();
    e.repair += "; or run lore distill, which rewrites the pages it made";
    out->push_back(std::move(e));
  }
}

// The search index: derived, so an index of another version is no problem
// (the next search replaces it); one that cannot be opened is.
std::optional<Error> IndexProblem(const store::Store& store) {
  auto idx = index::Index::OpenExisting(store.dir());
  if (idx || idx.error().code == ErrorCode::kNotFound || idx.error().code == ErrorCode::kSymlink ||
      idx.error().what.find("another version") != std::string::npos) {
    return std::nullopt;
  }
  Error e = idx.error();
  e.code = ErrorCode::kCorrupt;
  e.what = "search index cannot be read (" + e.what + ")";
  e.path = store.Path(index::kIndexFile);
  e.line = 0;
  e.repair = std::string(kRepairCommand) +
             ": it deletes the index, which lore derives from the store's files and the next "
             "search rebuilds";
  return e;
}

// True when `path` is, or is below, a path in `reported`.
bool Reported(const std::set<std::string>& reported, const std::string& path) {
  for (std::string p = path; !p.empty() && p != "/"; p = fs::Dirname(p)) {
    if (reported.count(p)) return true;
  }
  return false;
}

// Records that cannot be read or parsed (the lint scan's "unreadable" and
// "frontmatter" errors); `lore lint` lists the rest of the linter's rules.
void CheckRecords(const store::Store& store, const std::set<std::string>& reported,
                  std::vector<Error>* out) {
  auto linted = lint::LintStoreAt(store.dir(), lint::Checks::kReadable);
  if (!linted) return out->push_back(linted.error());
  for (const lint::Finding& f : linted->report.findings) {
    if (f.rule != "unreadable" && f.rule != "frontmatter") continue;
    if (Reported(reported, f.path)) continue;
    out->push_back(Error{ErrorCode::kCorrupt, f.message, f.path, f.line,
                         f.repair + " ('lore lint' lists every finding)"});
  }
}

log::CutRule RuleFor(FileKind kind) {
  return kind == FileKind::kSessionLog ? log::CutRule(activity::UnfinishedAppend)
                                       : log::CutRule(log::TornTailStart);
}

bool IsLog(FileKind kind) {
  return kind == FileKind::kLearnings || kind == FileKind::kQueue || kind == FileKind::kLog ||
         kind == FileKind::kSessionLog;
}

}  // namespace

std::vector<Error> CheckFiles(const store::Store& store) {
  Inventory inv = Take(store);
  std::vector<Error> out = std::move(inv.problems);
  CheckRecords(store, inv.reported, &out);
  for (const StoreFile& f : inv.files) {
    const std::string path = store.Path(f.rel);
    switch (f.kind) {
      case FileKind::kOkfPage:
        CheckOkfPage(path, &out);
        break;
      case FileKind::kConfig:
        if (auto c = config::Config::Load(path); !c) out.push_back(c.error());
        break;
      case FileKind::kLearnings:
        CheckLearnings(path, &out);
        break;
      case FileKind::kQueue:
        CheckQueue(path, &out);
        break;
      case FileKind::kLog:
        CheckStreamedLog(path, log::TornTailStart, kBadLineRepair, &out);
        break;
      case FileKind::kSessionLog:
        CheckStreamedLog(path, activity::UnfinishedAppend, kSessionLineRepair, &out);
        break;
      case FileKind::kCursor:
        CheckCursor(path, &out);
        break;
      case FileKind::kStaged:
        CheckStaged(path, &out);
        break;
      case FileKind::kState:
        CheckState(path, &out);
        break;
      case FileKind::kIndex:
        if (auto e = IndexProblem(store)) out.push_back(std::move(*e));
        break;
      case FileKind::kOther:
        break;
    }
  }
  return out;
}

lore::Status RepairFiles(const store::Store& store, std::vector<std::string>* done) {
  lore::Status first = Ok();
  auto keep_first = [&](lore::Status s) {
    if (!s && first) first = std::move(s);
  };
  auto quarantine = [&](std::string_view rel, const log::CutRule& rule) {
    auto moved = store::QuarantineTornTail(store, rel, rule);
    if (!moved) return keep_first(tl::unexpected(moved.error()));
    if (*moved)
      done->push_back("quarantined the torn last line of " + store.Path(rel) + ": " + **moved);
  };
  if (auto st = fs::LStat(store.raw_path()); st && S_ISREG(st->st_mode)) {
    quarantine(store::kRawFile, log::TornTailStart);
  }
  for (const StoreFile& f : Take(store).files) {
    if (IsLog(f.kind)) {
      quarantine(f.rel, RuleFor(f.kind));
    } else if (f.kind == FileKind::kCursor) {
      if (extract::ReadCursorFile(store.Path(f.rel))) continue;
      auto to = store::MoveToQuarantine(store, f.rel);
      if (!to)
        keep_first(tl::unexpected(to.error()));
      else
        done->push_back("moved the unreadable cursor " + store.Path(f.rel) + " to " + *to);
    } else if (f.kind == FileKind::kIndex && IndexProblem(store)) {
      for (const char* suffix : {"", "-wal", "-shm"}) {
        const std::string path = store.Path(std::string(index::kIndexFile) + suffix);
        if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
          keep_first(tl::unexpected(fs::ErrnoError(errno, "cannot remove", path)));
        }
      }
      done->push_back("removed the unreadable search index " + store.Path(f.rel) +
                      " (derived: the next search rebuilds it)");
    }
  }
  return first;
}

}  // namespace lore::app
