// Bringing index.sqlite up to date with the store's files.
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "index/schema.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/log/jsonl.h"
#include "lore/store/layout.h"
#include "lore/teamsync/team.h"

namespace lore::index::internal {
namespace {

// Bytes remembered before the indexed end of a JSON Lines log, to notice a
// log that was rewritten rather than appended to.
constexpr size_t kTailBytes = 64;
// A file modified this recently may change again within the file system's
// time stamp granularity without its mtime moving: it is re-checked next time.
constexpr int64_t kRacyNanos = 1'000'000'000;

struct Indexed {
  int64_t size = 0, mtime = 0, ino = 0, done = 0, lines = 0;
  std::string tail;
};

int64_t Nanos(const struct timespec& t) { return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }

void AddIfFile(int dirfd, const char* name, const std::string& rel, Scope scope,
               const std::string& kind, bool jsonl, std::vector<SourceFile>* out) {
  struct stat st;
  if (::fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return;
  out->push_back(SourceFile{rel, scope, kind, jsonl, st.st_size, Nanos(st.st_mtim),
                            static_cast<int64_t>(st.st_ino)});
}

// The indexed files of folder `sub` of the store; a folder that is missing
// is empty, one reached through a symlink (`sub` or a parent) is an error.
Status ScanFolder(const std::string& dir, const std::string& sub, Scope scope,
                  const std::string& kind, std::vector<SourceFile>* out,
                  std::string_view ext = ".md") {
  auto fd = fs::OpenBeneath(dir, sub, O_RDONLY | O_DIRECTORY);
  if (!fd && fd.error().code != ErrorCode::kSymlink) return Ok();  // missing or not a folder
  if (!fd) return Fail(fd.error());
  LORE_ASSIGN(std::vector<fs::DirEntry> entries, fs::ListDir(fd->get(), fs::Join(dir, sub)));
  std::string rel = sub + "/";
  for (const auto& e : entries) {
    std::string_view name = e.name;
    if (name.empty() || name[0] == '.' || name.size() <= ext.size() ||
        name.substr(name.size() - ext.size()) != ext || !e.is_file) {
      continue;  // a folder, a symlink or another kind of entry is never indexed
    }
    rel.resize(sub.size() + 1);
    rel += name;
    AddIfFile(fd->get(), e.name.c_str(), rel, scope, kind, ext == ".jsonl", out);
  }
  return Ok();
}

}  // namespace

Result<std::vector<SourceFile>> ScanSources(const std::string& dir) {
  std::vector<SourceFile> out;
  out.reserve(256);
  auto root = fs::Open(dir, O_RDONLY | O_DIRECTORY);
  if (!root) return out;
  const int dfd = root->get();
  for (auto [name, scope] : {std::pair{store::kRawFile, Scope::kRaw},
                             std::pair{store::kLearningsFile, Scope::kLearnings}}) {
    const std::string rel(name);
    AddIfFile(dfd, rel.c_str(), rel, scope, "", true, &out);
  }
  // The other machines' lines, pulled by `lore sync` (docs/team.md).
  for (const auto& rel : teamsync::RemoteCopies(dir, store::kRawFile)) {
    AddIfFile(dfd, rel.c_str(), rel, Scope::kRaw, "", true, &out);
  }
  for (const auto& rel : teamsync::RemoteCopies(dir, store::kLearningsFile)) {
    AddIfFile(dfd, rel.c_str(), rel, Scope::kLearnings, "", true, &out);
  }
  root->Reset();
  if (auto memory = fs::OpenBeneath(dir, "memory", O_RDONLY | O_DIRECTORY)) {
    AddIfFile(memory->get(), "summary.md", std::string(store::kSummaryFile), Scope::kMemory,
              "summary", false, &out);
  } else if (memory.error().code == ErrorCode::kSymlink) {
    return Fail(memory.error());
  }
  LORE_TRY(ScanFolder(dir, "memory/decisions", Scope::kMemory, "decision", &out));
  LORE_TRY(ScanFolder(dir, "memory/requests", Scope::kMemory, "request", &out));
  LORE_TRY(ScanFolder(dir, "knowledge", Scope::kKnowledge, "", &out));
  LORE_TRY(ScanFolder(dir, "okf", Scope::kOkf, "", &out));
  LORE_TRY(ScanFolder(dir, "sessions", Scope::kSessions, "", &out, ".jsonl"));
  // In the order of the `files` table's key, so that IsCurrent can walk both
  // side by side (and records get ids in the same order on every machine).
  std::sort(out.begin(), out.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.rel < b.rel; });
  return out;
}

namespace {

Result<std::unordered_map<std::string, Indexed>> LoadIndexed(Db& db) {
  std::unordered_map<std::string, Indexed> out;
  LORE_ASSIGN(Stmt st, db.Prepare("SELECT path, size, mtime, ino, done, lines, tail FROM files"));
  while (true) {
    LORE_ASSIGN(bool row, st.Step());
    if (!row) break;
    out.emplace(std::string(st.Text(0)), Indexed{st.Int(1), st.Int(2), st.Int(3), st.Int(4),
                                                 st.Int(5), std::string(st.Blob(6))});
  }
  return out;
}

bool Same(const SourceFile& s, const Indexed& i) {
  return s.size == i.size && s.mtime == i.mtime && s.ino == i.ino;
}

// FTS5's longest token: its index keeps no more of one (fts5_storage.c).
constexpr size_t kFts5MaxToken = 32768;

// The distinct tokens FTS5's `ascii` tokenizer makes of `text`: runs of ASCII
// letters and digits and of any byte above 0x7F, ASCII letters lowered.
void AsciiTokens(std::string_view text, std::unordered_set<std::string>* out) {
  auto token_byte = [](unsigned char c) {
    return c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && !token_byte(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && token_byte(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) break;
    std::string t(text.substr(start, std::min(i - start, kFts5MaxToken)));
    for (char& c : t) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    out->insert(std::move(t));
  }
}

// The statements one update uses, prepared once.
struct Writer {
  Stmt insert_doc, insert_fts, delete_fts, delete_docs, count_docs, upsert_file, delete_file,
      file_tokens, add_df, drop_df;
  Db* db;
  Stemming stemming;
  UpdateStats* stats;
  // How many more (or fewer) records hold each token, in the words and the
  // author columns, since the last Flush.
  std::unordered_map<std::string, std::array<int64_t, 2>> df_change = {};

  void Count(std::string_view words, std::string_view author, int64_t by) {
    std::unordered_set<std::string> seen;
    AsciiTokens(words, &seen);
    for (const std::string& t : seen) df_change[t][0] += by;
    seen.clear();
    AsciiTokens(author, &seen);
    for (const std::string& t : seen) df_change[t][1] += by;
  }

  Status Forget(const std::string& rel) {
    LORE_TRY(count_docs.Bind(1, rel).Step());
    stats->records_removed += count_docs.Int(0);
    count_docs.Reset();
    file_tokens.Bind(1, rel);
    while (true) {
      LORE_ASSIGN(bool row, file_tokens.Step());
      if (!row) break;
      Count(file_tokens.Text(0), file_tokens.Text(1), -1);
    }
    file_tokens.Reset();
    LORE_TRY(delete_fts.Bind(1, rel).Run());
    return delete_docs.Bind(1, rel).Run();
  }

  // Writes the document counts' changes to the df table.
  Status Flush() {
    for (const auto& [token, change] : df_change) {
      if (change[0] == 0 && change[1] == 0) continue;
      LORE_TRY(add_df.Bind(1, token).Bind(2, change[0]).Bind(3, change[1]).Run());
    }
    df_change.clear();
    return drop_df.Run();
  }

  // Forgets the file's records and that it was ever indexed.
  Status ForgetFile(const std::string& rel) {
    LORE_TRY(Forget(rel));
    return delete_file.Bind(1, rel).Run();
  }

  Status Add(const Record& r) {
    auto opt = [](Stmt& st, int i, const std::string& v) {
      if (v.empty())
        st.BindNull(i);
      else
        st.Bind(i, v);
    };
    Stmt& d = insert_doc;
    d.Bind(1, r.file).Bind(2, static_cast<int64_t>(r.scope)).Bind(3, r.line).Bind(4, r.slug);
    opt(d, 5, r.kind);
    if (r.description)
      d.Bind(6, *r.description);
    else
      d.BindNull(6);
    if (r.model_invokation)
      d.Bind(7, int64_t{*r.model_invokation});
    else
      d.BindNull(7);
    opt(d, 8, r.status);
    opt(d, 9, r.replaced_by);
    opt(d, 10, r.author);
    if (r.time)
      d.Bind(11, *r.time);
    else
      d.BindNull(11);
    opt(d, 12, r.session);
    std::vector<std::string> tokens = Tokenize(r.words, stemming);
    std::string joined;
    for (const auto& t : tokens) joined += (joined.empty() ? "" : " ") + t;
    d.Bind(13, r.position).Bind(14, int64_t{TimeExpressions(r.words)});
    d.Bind(15, static_cast<int64_t>(tokens.size())).Bind(16, r.text);
    if (r.expires)
      d.Bind(17, *r.expires);
    else
      d.BindNull(17);
    bool line_record = r.scope == Scope::kRaw || r.scope == Scope::kLearnings;
    d.Bind(18, int64_t{line_record && Asks(r.words)});
    LORE_TRY(d.Run());
    int64_t id = db->LastInsertId();
    std::string tags(ScopeName(r.scope));
    if (!r.kind.empty()) tags.append(" ").append(KindTag(r.kind));
    if (r.status == "replaced") tags += " replaced";
    const std::string author = TokenString(r.author, stemming);
    insert_fts.Bind(1, id).Bind(2, joined);
    insert_fts.Bind(3, author).Bind(4, tags);
    LORE_TRY(insert_fts.Run());
    Count(joined, author, +1);
    ++stats->records_added;
    return Ok();
  }
};

Result<Writer> MakeWriter(Db& db, Stemming stemming, UpdateStats* stats) {
  LORE_ASSIGN(
      Stmt insert_doc,
      db.Prepare("INSERT INTO docs(file, scope, line, slug, kind, description, "
                 "model_invokation, status, replaced_by, author, time, session, position, "
                 "timex, len, text, expires, asks) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                 "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"));
  LORE_ASSIGN(Stmt insert_fts,
              db.Prepare("INSERT INTO fts(rowid, words, author, tags) VALUES (?1, ?2, ?3, ?4)"));
  LORE_ASSIGN(Stmt delete_fts,
              db.Prepare("DELETE FROM fts WHERE rowid IN (SELECT id FROM docs WHERE file = ?1)"));
  LORE_ASSIGN(Stmt delete_docs, db.Prepare("DELETE FROM docs WHERE file = ?1"));
  LORE_ASSIGN(Stmt count_docs, db.Prepare("SELECT count(*) FROM docs WHERE file = ?1"));
  LORE_ASSIGN(Stmt upsert_file,
              db.Prepare("INSERT OR REPLACE INTO files(path, size, mtime, ino, done, lines, tail) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"));
  LORE_ASSIGN(Stmt delete_file, db.Prepare("DELETE FROM files WHERE path = ?1"));
  LORE_ASSIGN(Stmt file_tokens, db.Prepare("SELECT words, author FROM fts WHERE rowid IN "
                                           "(SELECT id FROM docs WHERE file = ?1)"));
  LORE_ASSIGN(Stmt add_df,
              db.Prepare("INSERT INTO df(term, words, author) VALUES (?1, ?2, ?3) "
                         "ON CONFLICT(term) DO UPDATE SET words = words + excluded.words, "
                         "author = author + excluded.author"));
  LORE_ASSIGN(Stmt drop_df, db.Prepare("DELETE FROM df WHERE words <= 0 AND author <= 0"));
  return Writer{std::move(insert_doc),
                std::move(insert_fts),
                std::move(delete_fts),
                std::move(delete_docs),
                std::move(count_docs),
                std::move(upsert_file),
                std::move(delete_file),
                std::move(file_tokens),
                std::move(add_df),
                std::move(drop_df),
                &db,
                stemming,
                stats};
}

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

Status Remember(Writer& w, const std::string& rel, const struct stat& st, int64_t done,
                int64_t lines, std::string_view tail) {
  int64_t mtime = Nanos(st.st_mtim);
  if (NowNanos() - mtime < kRacyNanos) mtime = -1;  // look again next time
  Stmt& u = w.upsert_file;
  u.Bind(1, rel).Bind(2, static_cast<int64_t>(st.st_size)).Bind(3, mtime);
  u.Bind(4, static_cast<int64_t>(st.st_ino)).Bind(5, done).Bind(6, lines).Bind(7, tail);
  return u.Run();
}

Result<std::string> ReadRange(int fd, int64_t from, int64_t to, const std::string& path) {
  std::string buf(static_cast<size_t>(to - from), '\0');
  size_t got = 0;
  while (got < buf.size()) {
    ssize_t n = ::pread(fd, buf.data() + got, buf.size() - got, from + static_cast<int64_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot read", path));
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  buf.resize(got);
  return buf;
}

struct Opened {
  fs::Fd fd;
  struct stat st;
};

// The source file opened, with its status; nullopt when it is gone.
Result<std::optional<Opened>> OpenSource(const std::string& dir, const std::string& rel) {
  const std::string path = fs::Join(dir, rel);
  auto fd = fs::OpenBeneath(dir, rel, O_RDONLY);
  if (!fd && fd.error().code == ErrorCode::kNotFound) return std::nullopt;
  if (!fd) return Fail(fd.error());
  Opened out{std::move(*fd), {}};
  if (::fstat(out.fd.get(), &out.st) != 0)
    return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  return out;
}

// Indexes a JSON Lines log: from where the last update stopped when the log
// only grew, else from its start. Only complete lines are indexed.
Status IndexLog(Writer& w, const std::string& dir, const SourceFile& src, const Indexed* old) {
  std::string path = fs::Join(dir, src.rel);
  LORE_ASSIGN(std::optional<Opened> opened, OpenSource(dir, src.rel));
  if (!opened) return w.ForgetFile(src.rel);
  auto& [fd, st] = *opened;
  int64_t start = 0, lines = 0;
  if (old && old->ino == static_cast<int64_t>(st.st_ino) && st.st_size >= old->done) {
    int64_t from = old->done - static_cast<int64_t>(old->tail.size());
    LORE_ASSIGN(std::string tail, ReadRange(fd.get(), from, old->done, path));
    if (tail == old->tail) start = old->done, lines = old->lines;
  }
  if (start == 0) LORE_TRY(w.Forget(src.rel));
  LORE_ASSIGN(std::string data, ReadRange(fd.get(), start, st.st_size, path));
  size_t end = data.rfind('\n');
  end = end == std::string::npos ? 0 : end + 1;  // a partial last line waits
  log::LineScanner lines_in(std::string_view(data).substr(0, end), lines + 1);
  log::Line line;
  while (lines_in.Next(&line)) {
    lines = line.number;
    if (log::IsBlank(line.text)) continue;
    Record r = FromJsonLine(src.scope, src.rel, line.number, line.text);
    if (src.scope == Scope::kSessions && r.words.empty()) continue;  // a span, a bare result
    LORE_TRY(w.Add(r));
  }
  int64_t done = start + static_cast<int64_t>(end);
  LORE_ASSIGN(std::string tail,
              ReadRange(fd.get(), std::max<int64_t>(0, done - kTailBytes), done, path));
  return Remember(w, src.rel, st, done, lines, tail);
}

Status IndexMarkdown(Writer& w, const std::string& dir, const SourceFile& src) {
  std::string path = fs::Join(dir, src.rel);
  LORE_ASSIGN(std::optional<Opened> opened, OpenSource(dir, src.rel));
  if (!opened) return w.ForgetFile(src.rel);
  auto& [fd, st] = *opened;
  LORE_ASSIGN(std::string content,
              fs::ReadAll(fd.get(), path,
                          src.rel == store::kIndexFile ? fs::Kind::kIndexPage : fs::Kind::kRecord));
  LORE_TRY(w.Forget(src.rel));
  LORE_TRY(w.Add(FromMarkdown(src.scope, src.rel, src.kind, content)));
  return Remember(w, src.rel, st, static_cast<int64_t>(content.size()), 0, {});
}

}  // namespace

std::string TokenizerName(Stemming s) {
  // 2: compounds joined; 3: "won" a word ("won't" a stop word), and the
  // irregular verb forms read as their verb (english)
  switch (s) {
    case Stemming::kOff:
      return "plain-3";
    case Stemming::kSnowballEnglish:
      return "snowball-english-3";
    case Stemming::kEnglish:
      return "english-3";
  }
  return "plain-3";
}

std::string KindTag(std::string_view kind) {
  static const char* hex = "0123456789abcdef";
  std::string out = "k";
  for (unsigned char c : kind) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

Status CreateSchema(Db& db) {
  return db.Exec(R"sql(
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE files(path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
                       ino INTEGER NOT NULL, done INTEGER NOT NULL, lines INTEGER NOT NULL,
                       tail BLOB) WITHOUT ROWID;
    CREATE TABLE docs(id INTEGER PRIMARY KEY, file TEXT NOT NULL, scope INTEGER NOT NULL,
                      line INTEGER NOT NULL, slug TEXT NOT NULL, kind TEXT, description TEXT,
                      model_invokation INTEGER, status TEXT, replaced_by TEXT, author TEXT,
                      time INTEGER, session TEXT, position INTEGER NOT NULL, timex INTEGER NOT NULL,
                      len INTEGER NOT NULL, text TEXT NOT NULL, expires INTEGER,
                      asks INTEGER NOT NULL);
    CREATE INDEX docs_file ON docs(file);
    CREATE INDEX docs_expires ON docs(expires) WHERE expires IS NOT NULL;
    CREATE INDEX docs_session ON docs(file, session, position) WHERE session IS NOT NULL;
    CREATE INDEX docs_time ON docs(time) WHERE time IS NOT NULL;
    CREATE VIRTUAL TABLE fts USING fts5(words, author, tags, tokenize = 'ascii');
    CREATE VIRTUAL TABLE fts_terms USING fts5vocab(fts, 'col');
    CREATE TABLE df(term TEXT PRIMARY KEY, words INTEGER NOT NULL,
                    author INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE learned(key TEXT PRIMARY KEY, generation INTEGER NOT NULL,
                         value TEXT NOT NULL) WITHOUT ROWID;
  )sql");
}

Status DropSchema(Db& db) {
  return db.Exec(
      "DROP TABLE IF EXISTS learned; DROP TABLE IF EXISTS df; DROP TABLE IF EXISTS fts_terms; DROP "
      "TABLE IF EXISTS fts; "
      "DROP TABLE IF EXISTS docs; "
      "DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS meta;");
}

// Walks `files` in key order beside `sources` (sorted by ScanSources), with
// no map and no copies: this runs before every search's answer.
Result<bool> IsCurrent(Db& db, const std::vector<SourceFile>& sources) {
  auto by_path = [](const SourceFile& a, const SourceFile& b) { return a.rel < b.rel; };
  if (!std::is_sorted(sources.begin(), sources.end(), by_path)) {
    std::vector<SourceFile> sorted = sources;
    std::sort(sorted.begin(), sorted.end(), by_path);
    return IsCurrent(db, sorted);
  }
  LORE_ASSIGN(Stmt st, db.Prepare("SELECT path, size, mtime, ino FROM files ORDER BY path"));
  size_t i = 0;
  while (true) {
    LORE_ASSIGN(bool row, st.Step());
    if (!row) break;
    if (i == sources.size()) return false;  // a file is gone
    const SourceFile& s = sources[i++];
    if (st.Text(0) != s.rel || s.size != st.Int(1) || s.mtime != st.Int(2) || s.ino != st.Int(3))
      return false;
  }
  return i == sources.size();  // else: a file is new
}

Result<UpdateStats> Update(Db& db, const std::string& dir, Stemming stemming, bool from_scratch) {
  UpdateStats stats;
  if (!from_scratch) {
    // Cheap path first: no write lock unless something changed.
    LORE_ASSIGN(std::vector<SourceFile> sources, ScanSources(dir));
    stats.files_seen = static_cast<int64_t>(sources.size());
    LORE_ASSIGN(bool current, IsCurrent(db, sources));
    if (current) return stats;
  }
  LORE_ASSIGN(Transaction tx, Transaction::Begin(db));
  if (from_scratch) {
    LORE_TRY(db.Exec("DELETE FROM fts; DELETE FROM docs; DELETE FROM files; DELETE FROM df;"));
    stats.rebuilt = true;
  }
  // Look again under the write lock: another process may have done the work.
  LORE_ASSIGN(std::vector<SourceFile> sources, ScanSources(dir));
  LORE_ASSIGN(auto indexed, LoadIndexed(db));
  stats.files_seen = static_cast<int64_t>(sources.size());
  LORE_ASSIGN(Writer w, MakeWriter(db, stemming, &stats));
  for (const auto& src : sources) {
    auto it = indexed.find(src.rel);
    const Indexed* old = it == indexed.end() ? nullptr : &it->second;
    if (old && Same(src, *old)) {
      indexed.erase(it);
      continue;
    }
    ++stats.files_indexed;
    LORE_TRY(src.jsonl ? IndexLog(w, dir, src, old) : IndexMarkdown(w, dir, src));
    if (old) indexed.erase(src.rel);
  }
  for (const auto& [rel, old] : indexed) {  // gone from disk
    ++stats.files_removed;
    LORE_TRY(w.ForgetFile(rel));
  }
  LORE_TRY(w.Flush());
  if (from_scratch || stats.files_indexed > 0 || stats.files_removed > 0) {
    // The records changed: what was learned from them is out of date.
    LORE_TRY(db.Exec(
        "INSERT INTO meta(key, value) VALUES ('generation', '1') ON CONFLICT(key) DO UPDATE "
        "SET value = CAST(value AS INTEGER) + 1; DELETE FROM learned;"));
  }
  LORE_TRY(tx.Commit());
  // Fold the write-ahead log back into the database and empty it, so that
  // the next short-lived process does not have to read it (best effort: a
  // reader may hold it, and the next writer tries again).
  (void)db.Exec("PRAGMA wal_checkpoint(TRUNCATE)");
  return stats;
}

}  // namespace lore::index::internal

namespace lore::index {

Result<std::vector<SourceFile>> ScanSources(const std::string& store_dir) {
  return internal::ScanSources(store_dir);
}

}  // namespace lore::index
