#include "lore/index/index.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cstring>

#include "index/schema.h"
#include "lore/fs/fd.h"

namespace lore::index {
namespace {

// FTS5 auxiliary function lore_tf(fts): for the current row, a blob of
// int64 record count, int64 total text tokens, then one int32 per query
// phrase: its occurrences in the text column. Ranking is computed from these
// in C++ (search/ranking), which FTS5's bm25() cannot express (its k1 and b
// are fixed). The record's length is not read here (a lookup per row); the
// ranker reads it for the few records that need it.
void LoreTf(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int,
            sqlite3_value**) {
  int phrases = api->xPhraseCount(fts);
  // The totals are the same for every row of a query: read them once and
  // keep them as the query's auxiliary data.
  auto* totals = static_cast<int64_t*>(api->xGetAuxdata(fts, 0));
  if (totals == nullptr) {
    sqlite3_int64 rows = 0, total = 0;
    if (api->xRowCount(fts, &rows) != SQLITE_OK ||
        api->xColumnTotalSize(fts, 0, &total) != SQLITE_OK) {
      sqlite3_result_error(ctx, "lore_tf: cannot read the totals", -1);
      return;
    }
    totals = static_cast<int64_t*>(sqlite3_malloc(2 * sizeof(int64_t)));
    if (totals == nullptr || api->xSetAuxdata(fts, totals, sqlite3_free) != SQLITE_OK) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    totals[0] = rows;
    totals[1] = total;
  }
  int insts = 0;
  if (api->xInstCount(fts, &insts) != SQLITE_OK) {
    sqlite3_result_error(ctx, "lore_tf: cannot read the row", -1);
    return;
  }
  phrases = std::min(phrases, static_cast<int>(kMaxFindTokens));
  struct {
    int64_t rows, total;
    int32_t tf[kMaxFindTokens];
  } out{totals[0], totals[1], {}};
  for (int i = 0; i < insts; ++i) {
    int phrase = 0, col = 0, off = 0;
    if (api->xInst(fts, i, &phrase, &col, &off) == SQLITE_OK && col == 0 && phrase < phrases) {
      ++out.tf[phrase];
    }
  }
  sqlite3_result_blob(ctx, &out, 16 + 4 * phrases, SQLITE_TRANSIENT);
}

Status RegisterFunctions(Db& db) {
  fts5_api* api = nullptr;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(db.get(), "SELECT fts5(?1)", -1, &st, nullptr) == SQLITE_OK) {
    sqlite3_bind_pointer(st, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(st);
  }
  sqlite3_finalize(st);
  if (api == nullptr ||
      api->xCreateFunction(api, "lore_tf", nullptr, LoreTf, nullptr) != SQLITE_OK) {
    return Fail(ErrorCode::kInternal, "SQLite lacks FTS5", db.path(), 0,
                "build lore against an SQLite with FTS5 enabled");
  }
  return Ok();
}

Result<int64_t> UserVersion(Db& db) {
  LORE_ASSIGN(Stmt st, db.Prepare("PRAGMA user_version"));
  LORE_ASSIGN(bool row, st.Step());
  return row ? st.Int(0) : 0;
}

Result<std::string> Meta(Db& db, std::string_view key) {
  LORE_ASSIGN(Stmt st, db.Prepare("SELECT value FROM meta WHERE key = ?1"));
  st.Bind(1, key);
  LORE_ASSIGN(bool row, st.Step());
  return row ? std::string(st.Text(0)) : std::string();
}

Result<bool> SchemaCurrent(Db& db, Stemming stemming) {
  LORE_ASSIGN(int64_t v, UserVersion(db));
  if (v != internal::kSchemaVersion) return false;
  LORE_ASSIGN(std::string tok, Meta(db, "tokenizer"));
  return tok == internal::TokenizerName(stemming);
}

// Creates the schema, or replaces one of another version or tokenizer.
// Returns true when the index was (re)created empty.
Result<bool> PrepareSchema(Db& db, Stemming stemming) {
  auto current = [&]() { return SchemaCurrent(db, stemming); };
  LORE_ASSIGN(bool ok, current());
  if (ok) return false;
  LORE_ASSIGN(Transaction tx, Transaction::Begin(db));
  LORE_ASSIGN(ok, current());  // another process may have done it meanwhile
  if (ok) return false;
  LORE_TRY(internal::DropSchema(db));
  LORE_TRY(internal::CreateSchema(db));
  LORE_ASSIGN(Stmt st, db.Prepare("INSERT INTO meta(key, value) VALUES ('tokenizer', ?1)"));
  LORE_TRY(st.Bind(1, internal::TokenizerName(stemming)).Run());
  LORE_TRY(db.Exec("PRAGMA user_version = " + std::to_string(internal::kSchemaVersion)));
  LORE_TRY(tx.Commit());
  return true;
}

void RemoveIndexFiles(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) ::unlink((path + suffix).c_str());
}

Result<Db> OpenDb(const std::string& path) { return Db::Open(path, /*create=*/true); }

}  // namespace

bool IsWriteFailure(const Error& e) {
  return e.code == ErrorCode::kPermission || e.code == ErrorCode::kIo;
}

struct Index::Impl {
  Impl(std::string d, std::string p, IndexOptions o, Db database)
      : dir(std::move(d)), path(std::move(p)), opts(o), db(std::move(database)) {}
  std::string dir;
  std::string path;
  IndexOptions opts;
  Db db;
  std::optional<Stmt> stats, get, get_text, length, shape, before_ids, after_ids, tokens, max_id,
      dated, generation, learned;
};

Index::Index(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Index::Index(Index&&) noexcept = default;
Index& Index::operator=(Index&&) noexcept = default;
Index::~Index() = default;

Result<Index> Index::Open(const std::string& store_dir, IndexOptions opts) {
  std::string path = fs::Join(store_dir, kIndexFile);
  LORE_TRY(fs::RefuseSymlink(path, "the search index"));
  auto attempt = [&]() -> Result<Db> {
    LORE_ASSIGN(Db db, OpenDb(path));
    LORE_TRY(RegisterFunctions(db));
    LORE_TRY(PrepareSchema(db, opts.stemming));
    return db;
  };
  auto db = attempt();
  if (!db && db.error().code == ErrorCode::kCorrupt) {
    // Derived data: a damaged index is thrown away and rebuilt.
    RemoveIndexFiles(path);
    db = attempt();
  }
  if (!db) return Fail(db.error());
  auto impl = std::make_unique<Impl>(store_dir, path, opts, std::move(*db));
  return Index(std::move(impl));
}

Result<Index> Index::OpenExisting(const std::string& store_dir, IndexOptions opts) {
  std::string path = fs::Join(store_dir, kIndexFile);
  LORE_TRY(fs::RefuseSymlink(path, "the search index"));
  if (!fs::Exists(path)) return Fail(ErrorCode::kNotFound, "no search index", path);
  LORE_ASSIGN(Db db, Db::Open(path, /*create=*/false));
  LORE_TRY(RegisterFunctions(db));
  LORE_ASSIGN(bool current, SchemaCurrent(db, opts.stemming));
  if (!current) {
    return Fail(ErrorCode::kCorrupt, "search index was built by another version of lore", path, 0,
                "run lore reindex where the store can be written");
  }
  auto impl = std::make_unique<Impl>(store_dir, path, opts, std::move(db));
  return Index(std::move(impl));
}

Result<Index> Index::OpenInMemory(const std::string& store_dir, IndexOptions opts) {
  LORE_ASSIGN(Db db, Db::Open(":memory:", /*create=*/false));
  LORE_TRY(RegisterFunctions(db));
  LORE_TRY(PrepareSchema(db, opts.stemming));
  std::string path = fs::Join(store_dir, kIndexFile);
  auto impl = std::make_unique<Impl>(store_dir, path, opts, std::move(db));
  Index idx(std::move(impl));
  LORE_TRY(idx.Rebuild());
  return idx;
}

Result<UpdateStats> Index::Update() {
  return internal::Update(impl_->db, impl_->dir, impl_->opts.stemming, /*from_scratch=*/false);
}

Result<bool> Index::IsCurrent(const std::vector<SourceFile>& sources) {
  return internal::IsCurrent(impl_->db, sources);
}

Result<UpdateStats> Index::Rebuild() {
  return internal::Update(impl_->db, impl_->dir, impl_->opts.stemming, /*from_scratch=*/true);
}

Result<TermStats> Index::Stats(std::string_view token) {
  if (!impl_->stats) {
    // The update keeps the counts (fts5vocab would walk the token's whole
    // posting list to count them: 1.6 ms of a prompt's 10 on 10,000 records).
    LORE_ASSIGN(impl_->stats, impl_->db.Prepare("SELECT words, author FROM df WHERE term = ?1"));
  }
  Stmt& st = *impl_->stats;
  st.Reset();
  st.Bind(1, token);
  TermStats out;
  LORE_ASSIGN(bool row, st.Step());
  if (row) out = TermStats{st.Int(0), st.Int(1)};
  st.Reset();
  return out;
}

Result<MatchSet> Index::Find(const std::vector<std::string>& tokens, const Filter& filter) {
  MatchSet out;
  out.tokens = tokens.size();
  if (tokens.empty()) return out;
  if (tokens.size() > kMaxFindTokens) {
    return Fail(ErrorCode::kInternal, "too many search tokens", impl_->path);
  }
  std::string q = "words : (";
  for (size_t i = 0; i < tokens.size(); ++i) q += (i ? " OR \"" : "\"") + tokens[i] + "\"";
  q += ")";
  if (filter.scope) q += " AND tags : \"" + std::string(ScopeName(*filter.scope)) + "\"";
  if (!filter.scope && filter.except)
    q += " NOT tags : \"" + std::string(ScopeName(*filter.except)) + "\"";
  if (filter.kind) q += " AND tags : \"" + internal::KindTag(*filter.kind) + "\"";
  if (filter.replaced == Replaced::kHide) q += " NOT tags : \"replaced\"";
  std::string sql = "SELECT rowid, lore_tf(fts) FROM fts WHERE fts MATCH ?1";
  if (filter.live_at) {
    sql += " AND rowid NOT IN (SELECT id FROM docs WHERE expires IS NOT NULL AND expires <= ?2)";
  }
  LORE_ASSIGN(Stmt st, impl_->db.Prepare(sql));
  st.Bind(1, q);
  if (filter.live_at) st.Bind(2, *filter.live_at);
  while (true) {
    LORE_ASSIGN(bool row, st.Step());
    if (!row) break;
    std::string_view blob = st.Blob(1);
    if (blob.size() < 16 + 4 * tokens.size()) continue;
    if (out.ids.empty()) {
      int64_t head[2];
      std::memcpy(head, blob.data(), 16);
      out.records = head[0];
      out.average_length = head[0] > 0 ? static_cast<double>(head[1]) / head[0] : 0;
    }
    if (out.ids.empty()) {
      out.ids.reserve(256);
      out.tf.reserve(256 * tokens.size());
    }
    out.ids.push_back(st.Int(0));
    size_t at = out.tf.size();
    out.tf.resize(at + tokens.size());
    std::memcpy(out.tf.data() + at, blob.data() + 16, 4 * tokens.size());
  }
  return out;
}

namespace {

constexpr const char* kDocColumns =
    "id, scope, file, line, slug, kind, description, model_invokation, status, replaced_by, "
    "author, time, session, position, timex, len, expires, asks";

// A Doc from a row of kDocColumns (plus text as column 18 when `with_text`).
Doc ReadDoc(const Stmt& st, bool with_text) {
  Doc d;
  d.id = st.Int(0);
  Record& r = d.record;
  r.scope = static_cast<Scope>(st.Int(1));
  r.file = st.Text(2);
  r.line = st.Int(3);
  r.slug = st.Text(4);
  r.kind = st.Text(5);
  if (!st.IsNull(6)) r.description = std::string(st.Text(6));
  if (!st.IsNull(7)) r.model_invokation = st.Int(7) != 0;
  r.status = st.Text(8);
  r.replaced_by = st.Text(9);
  r.author = st.Text(10);
  if (!st.IsNull(11)) r.time = st.Int(11);
  r.session = st.Text(12);
  r.position = st.Int(13);
  d.time_expressions = static_cast<int>(st.Int(14));
  d.length = static_cast<int>(st.Int(15));
  if (!st.IsNull(16)) r.expires = st.Int(16);
  d.asks = st.Int(17) != 0;
  if (with_text) r.text = st.Text(18);
  return d;
}

}  // namespace

Result<int> Index::Length(int64_t id) {
  if (!impl_->length) {
    LORE_ASSIGN(impl_->length, impl_->db.Prepare("SELECT len FROM docs WHERE id = ?1"));
  }
  Stmt& st = *impl_->length;
  st.Reset();
  st.Bind(1, id);
  LORE_ASSIGN(bool row, st.Step());
  if (!row) return Fail(ErrorCode::kNotFound, "no such record in the index", impl_->path);
  int len = static_cast<int>(st.Int(0));
  st.Reset();
  return len;
}

Result<Index::Shape> Index::ShapeOf(int64_t id) {
  if (!impl_->shape) {
    LORE_ASSIGN(impl_->shape, impl_->db.Prepare("SELECT len, scope, kind FROM docs WHERE id = ?1"));
  }
  Stmt& st = *impl_->shape;
  st.Reset();
  st.Bind(1, id);
  LORE_ASSIGN(bool row, st.Step());
  if (!row) return Fail(ErrorCode::kNotFound, "no such record in the index", impl_->path);
  Shape out;
  out.length = static_cast<int>(st.Int(0));
  std::string_view kind = st.Text(2);
  out.trace =
      st.Int(1) == static_cast<int64_t>(Scope::kSessions) && (kind == "tool" || kind == "result");
  st.Reset();
  return out;
}

Result<std::vector<std::string>> Index::Tokens(int64_t id) {
  if (!impl_->tokens) {
    LORE_ASSIGN(impl_->tokens, impl_->db.Prepare("SELECT words FROM fts WHERE rowid = ?1"));
  }
  Stmt& st = *impl_->tokens;
  st.Reset();
  st.Bind(1, id);
  LORE_ASSIGN(bool row, st.Step());
  std::vector<std::string> out;
  if (row) {
    std::string_view words = st.Text(0);
    size_t pos = 0;
    while (pos < words.size()) {
      size_t sp = words.find(' ', pos);
      if (sp == std::string_view::npos) sp = words.size();
      if (sp > pos) out.emplace_back(words.substr(pos, sp - pos));
      pos = sp + 1;
    }
  }
  st.Reset();
  return out;
}

Result<std::vector<int64_t>> Index::Dated(int64_t from, int64_t to, int limit) {
  if (!impl_->dated) {
    LORE_ASSIGN(impl_->dated,
                impl_->db.Prepare("SELECT id FROM docs WHERE time >= ?1 AND time < ?2 "
                                  "ORDER BY time, id LIMIT ?3"));
  }
  Stmt& st = *impl_->dated;
  st.Reset();
  st.Bind(1, from).Bind(2, to).Bind(3, static_cast<int64_t>(limit));
  std::vector<int64_t> out;
  while (true) {
    LORE_ASSIGN(bool row, st.Step());
    if (!row) break;
    out.push_back(st.Int(0));
  }
  st.Reset();
  return out;
}

Result<int64_t> Index::RecordsAtMost() {
  if (!impl_->max_id) {
    LORE_ASSIGN(impl_->max_id, impl_->db.Prepare("SELECT coalesce(max(id), 0) FROM docs"));
  }
  Stmt& st = *impl_->max_id;
  st.Reset();
  LORE_ASSIGN(bool row, st.Step());
  int64_t n = row ? st.Int(0) : 0;
  st.Reset();
  return n;
}

Result<Doc> Index::Get(int64_t id, bool with_text) {
  std::optional<Stmt>& slot = with_text ? impl_->get_text : impl_->get;
  if (!slot) {
    std::string sql = std::string("SELECT ") + kDocColumns + (with_text ? ", text" : "") +
                      " FROM docs WHERE id = ?1";
    LORE_ASSIGN(slot, impl_->db.Prepare(sql));
  }
  Stmt& st = *slot;
  st.Reset();
  st.Bind(1, id);
  LORE_ASSIGN(bool row, st.Step());
  if (!row) return Fail(ErrorCode::kNotFound, "no such record in the index", impl_->path);
  Doc d = ReadDoc(st, with_text);
  st.Reset();
  return d;
}

Result<std::vector<Neighbour>> Index::Neighbours(const Doc& doc, int window) {
  std::vector<Neighbour> out;
  LORE_ASSIGN(auto ids, NeighbourIds(doc, window));
  for (const auto& [id, distance] : ids) {
    LORE_ASSIGN(Doc d, Get(id, /*with_text=*/false));
    out.push_back(Neighbour{std::move(d), distance});
  }
  return out;
}

Result<std::vector<std::pair<int64_t, int>>> Index::NeighbourIds(const Doc& doc, int window) {
  std::vector<std::pair<int64_t, int>> out;
  if (doc.record.session.empty() || window <= 0) return out;
  if (!impl_->before_ids) {
    const std::string sql = "SELECT id FROM docs WHERE file = ?1 AND session = ?2 AND position ";
    LORE_ASSIGN(impl_->before_ids, impl_->db.Prepare(sql + "< ?3 ORDER BY position DESC LIMIT ?4"));
    LORE_ASSIGN(impl_->after_ids, impl_->db.Prepare(sql + "> ?3 ORDER BY position ASC LIMIT ?4"));
  }
  for (Stmt* st : {&*impl_->before_ids, &*impl_->after_ids}) {
    st->Reset();
    st->Bind(1, doc.record.file).Bind(2, doc.record.session).Bind(3, doc.record.position);
    st->Bind(4, static_cast<int64_t>(window));
    int distance = 0;
    int sign = st == &*impl_->after_ids ? 1 : -1;
    while (true) {
      LORE_ASSIGN(bool row, st->Step());
      if (!row) break;
      out.emplace_back(st->Int(0), sign * ++distance);
    }
    st->Reset();
  }
  return out;
}

Result<int64_t> Index::Generation() {
  if (!impl_->generation) {
    LORE_ASSIGN(impl_->generation,
                impl_->db.Prepare("SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta "
                                  "WHERE key = 'generation'), 0)"));
  }
  Stmt& st = *impl_->generation;
  st.Reset();
  LORE_ASSIGN(bool row, st.Step());
  int64_t g = row ? st.Int(0) : 0;
  st.Reset();
  return g;
}

Result<std::optional<std::string>> Index::Learned(std::string_view key) {
  if (!impl_->learned) {
    LORE_ASSIGN(impl_->learned,
                impl_->db.Prepare("SELECT value FROM learned WHERE key = ?1 AND generation = "
                                  "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = "
                                  "'generation'), 0)"));
  }
  Stmt& st = *impl_->learned;
  st.Reset();
  st.Bind(1, key);
  LORE_ASSIGN(bool row, st.Step());
  std::optional<std::string> out;
  if (row) out = std::string(st.Text(0));
  st.Reset();
  return out;
}

Status Index::StoreLearned(int64_t generation,
                           const std::vector<std::pair<std::string, std::string>>& values) {
  if (values.empty()) return Ok();
  LORE_ASSIGN(Transaction tx, Transaction::Begin(impl_->db));
  LORE_ASSIGN(int64_t now, Generation());
  if (now != generation) return Ok();  // learned from records since changed
  LORE_ASSIGN(Stmt st, impl_->db.Prepare("INSERT OR REPLACE INTO learned(key, generation, value) "
                                         "VALUES (?1, ?2, ?3)"));
  for (const auto& [k, v] : values) {
    st.Reset();
    LORE_TRY(st.Bind(1, k).Bind(2, generation).Bind(3, v).Run());
  }
  return tx.Commit();
}

Result<Transaction> Index::Read() { return Transaction::BeginRead(impl_->db); }

Stemming Index::stemming() const { return impl_->opts.stemming; }
const std::string& Index::path() const { return impl_->path; }

}  // namespace lore::index
