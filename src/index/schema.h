// Private to the index module: the schema of index.sqlite and the updater.
#pragma once

#include <string>

#include "lore/index/index.h"
#include "lore/index/sqlite.h"

namespace lore::index::internal {

// Bumped whenever a table changes shape: an index of another version is
// dropped and rebuilt.
inline constexpr int kSchemaVersion = 8;  // 4: docs_time; 5: docs.expires; 6: learned; 7:
                                          // docs.asks; 8: df

// Creates every table (in an open transaction).
Status CreateSchema(Db& db);
// Drops every table (in an open transaction).
Status DropSchema(Db& db);

// The tokenizer's name as remembered in meta ("english-3", "snowball-english-3", "plain-3").
std::string TokenizerName(Stemming s);

// The token that marks a record's kind in the tags column.
std::string KindTag(std::string_view kind);

// True when the files table matches `sources` exactly.
Result<bool> IsCurrent(Db& db, const std::vector<SourceFile>& sources);

// Brings the index in `db` up to date with the store at `dir`. With
// `from_scratch`, forgets every indexed file first.
Result<UpdateStats> Update(Db& db, const std::string& dir, Stemming stemming, bool from_scratch);

}  // namespace lore::index::internal
