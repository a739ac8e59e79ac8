// The search index of one store: <store>/index.sqlite (docs/formats.md).
//
// The index is derived from the store's files and holds nothing else:
// deleting it loses nothing, and Rebuild() (or the next Update()) recreates
// it. It covers memory/summary.md, memory/decisions/, memory/requests/,
// knowledge/, okf/ (one record per file), learnings.jsonl and raw.jsonl (one
// record per line); memory/workflow/ and staging/ are not searched.
//
// Update() brings the index up to date with files added, changed or removed
// since the last update, judged by size, modification time and inode; a JSON
// Lines log that only grew is indexed from where the last update stopped.
// See docs/search.md for the schema and the rules.
//
// Several processes may update and query one index at once: the database is
// in WAL mode with a busy timeout, and updates run in BEGIN IMMEDIATE
// transactions that re-read what is indexed before changing it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lore/error.h"
#include "lore/index/record.h"
#include "lore/index/sqlite.h"
#include "lore/index/tokenizer.h"

namespace lore::index {

inline constexpr const char* kIndexFile = "index.sqlite";

struct IndexOptions {
  Stemming stemming = Stemming::kEnglish;
};

struct UpdateStats {
  int64_t files_seen = 0;     // source files found on disk
  int64_t files_indexed = 0;  // files (re)read because they were new or changed
  int64_t files_removed = 0;  // files gone from disk
  int64_t records_added = 0;
  int64_t records_removed = 0;
  bool rebuilt = false;  // the index was recreated from scratch
};

// A source file of the store as found on disk.
struct SourceFile {
  std::string rel;  // path relative to the store
  Scope scope = Scope::kRaw;
  std::string kind;  // implied by the folder ("decision", "summary"…)
  bool jsonl = false;
  int64_t size = 0, mtime = 0, ino = 0;  // mtime in nanoseconds
};

// Every source file of the store at `store_dir` (symlinks and other
// non-files skipped), sorted by path. Touches only the file system, so it may run on another
// thread while the index is queried. A folder of the store reached through a
// symlink is an error (kSymlink), never followed.
Result<std::vector<SourceFile>> ScanSources(const std::string& store_dir);

// How often each query token occurs (in records' text and in their authors).
struct TermStats {
  int64_t docs = 0;         // records whose text holds the token
  int64_t author_docs = 0;  // records whose author holds the token
};

enum class Replaced { kHide, kInclude };

struct Filter {
  std::optional<Scope> scope;       // nullopt: every scope
  std::optional<std::string> kind;  // exact kind
  Replaced replaced = Replaced::kHide;
  // When set (seconds since the epoch), records that expired by then (a
  // learning past expires_at or at confidence 0) are left out.
  std::optional<int64_t> live_at;
  std::optional<Scope> except;  // with no scope: every scope but this one
};

// At most this many tokens are looked for at once.
inline constexpr size_t kMaxFindTokens = 32;

// The records holding at least one query token, flat: match i is record
// ids[i], and tf[i * tokens + k] counts query token k in it. A query may match
// every record, so a match costs 8 + 4 * tokens bytes and nothing else.
struct MatchSet {
  int64_t records = 0;        // records in the whole index
  double average_length = 0;  // mean tokens per record text
  size_t tokens = 0;          // query tokens, in query order
  std::vector<int64_t> ids;
  std::vector<int32_t> tf;

  size_t size() const { return ids.size(); }
  const int32_t* TfOf(size_t i) const { return tf.data() + i * tokens; }
};

// A record as stored, for ranking and display.
struct Doc {
  int64_t id = 0;
  Record record;             // `words` is left empty
  int time_expressions = 0;  // TimeExpressions() of the record's words
  bool asks = false;         // a JSON Lines record whose words end with a question (Asks())
  int length = 0;            // tokens in the record's searched text
};

// A record near another in its session.
struct Neighbour {
  Doc doc;
  int distance = 0;  // 1, 2… after the record; -1, -2… before it
};

// True for the errors of a store lore cannot write to (read-only, full,
// permission denied: kPermission and kIo), after which a search still
// answers from OpenExisting() or OpenInMemory() instead of failing.
bool IsWriteFailure(const Error& e);

class Index {
 public:
  // Opens <store_dir>/index.sqlite, creating it when missing; recreates it
  // when it is not a database or was built with another schema or tokenizer.
  static Result<Index> Open(const std::string& store_dir, IndexOptions opts = {});
  // Opens the existing <store_dir>/index.sqlite without creating, rebuilding
  // or changing it (SQLite opens it read-only when the file cannot be
  // written). An error when it is missing, damaged or of another schema.
  static Result<Index> OpenExisting(const std::string& store_dir, IndexOptions opts = {});
  // A fresh index in memory built from the store's files (nothing on disk is
  // written), for a store whose own index can neither be used nor written.
  static Result<Index> OpenInMemory(const std::string& store_dir, IndexOptions opts = {});

  Index(Index&&) noexcept;
  Index& operator=(Index&&) noexcept;
  ~Index();

  // Brings the index up to date with the files on disk (see above).
  Result<UpdateStats> Update();
  // True when the index already reflects `sources` (from ScanSources), so
  // that a caller may query first and scan at the same time.
  Result<bool> IsCurrent(const std::vector<SourceFile>& sources);
  // Forgets everything and indexes every file again.
  Result<UpdateStats> Rebuild();

  Result<TermStats> Stats(std::string_view token);
  // Every record whose text holds any of `tokens` (at most kMaxFindTokens,
  // made by Tokenize: no quotes, no spaces) and that passes `filter`. Cheap
  // per record: lengths come with Get().
  Result<MatchSet> Find(const std::vector<std::string>& tokens, const Filter& filter);
  // The record `id`; its `text` only when `with_text` (ranking needs only
  // the fields, excerpts need the text).
  Result<Doc> Get(int64_t id, bool with_text = true);
  // The searched tokens of record `id`, in order (for pseudo-relevance feedback).
  Result<std::vector<std::string>> Tokens(int64_t id);
  // The ids of at most `limit` records whose time is in [from, to) (seconds),
  // oldest first.
  Result<std::vector<int64_t>> Dated(int64_t from, int64_t to, int limit);
  // An upper bound of the number of records (the highest record id: one
  // B-tree lookup, where counting would read every row).
  Result<int64_t> RecordsAtMost();
  // The number of tokens in the text of record `id`.
  Result<int> Length(int64_t id);
  // The record's length and whether it is a session log's trace (a tool call
  // or its result: search::RankingParams::trace).
  struct Shape {
    int length = 0;
    bool trace = false;
  };
  Result<Shape> ShapeOf(int64_t id);
  // Records of the same file and session as `doc` (none when it has no
  // session): up to `window` before and `window` after it (without text).
  Result<std::vector<Neighbour>> Neighbours(const Doc& doc, int window);
  // The same records as Neighbours, as (id, distance) pairs, read from the
  // session index alone: a ranking that reads each record once keeps its own
  // copies (search's neighbour context).
  Result<std::vector<std::pair<int64_t, int>>> NeighbourIds(const Doc& doc, int window);

  // Statistics learned from the records (search's co-occurrence stage), kept
  // in the `learned` table until the records change:
  // The records' generation: changed by every Update() that changed them.
  Result<int64_t> Generation();
  // The value stored under `key` at the current generation, if any.
  Result<std::optional<std::string>> Learned(std::string_view key);
  // Stores `values` (key, value) learned at `generation`, in a write
  // transaction of its own; nothing when the records changed since.
  Status StoreLearned(int64_t generation,
                      const std::vector<std::pair<std::string, std::string>>& values);

  // A read transaction: the queries made while it lives see one snapshot
  // and cost fewer locks.
  Result<Transaction> Read();

  Stemming stemming() const;
  const std::string& path() const;

 private:
  struct Impl;
  explicit Index(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace lore::index
