#include "extract/cursor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "activity/clean.h"
#include "activity/session_log.h"
#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "redact/redact.h"
#include "text/hash.h"

namespace lore::extract {
namespace {

Error Damaged(const std::string& path, const std::string& why) {
  return Error{ErrorCode::kCorrupt, "extract cursor " + why, path, 0,
               "remove it to extract that session's transcript from its first line"};
}

}  // namespace

std::string CursorPath(const store::Store& store, std::string_view session_id) {
  return fs::Join(store.Path(kCursorDir), activity::SessionFileStem(session_id) + ".json");
}

Result<std::optional<Cursor>> ReadCursor(const store::Store& store, std::string_view session_id) {
  const std::string path = CursorPath(store, session_id);
  LORE_TRY(fs::RefuseSymlink(store.Path(kCursorDir), "extract cursor folder"));
  if (!fs::Exists(path)) return std::optional<Cursor>();
  LORE_TRY(fs::RefuseSymlink(path, "extract cursor"));
  LORE_ASSIGN(Cursor c, ReadCursorFile(path));
  // The id is kept as the gate of session ids left it; a cursor of an older
  // lore may hold it as a text cleaning left it (a token glued to a word kept).
  const bool same_id =
      c.session_id == session_id || (c.session_id.size() <= activity::kMaxSessionIdBytes &&
                                     redact::CleanId(c.session_id) == session_id);
  if (!same_id) {
    return Fail(Damaged(path, "lacks line, offset, identity or this session's id"));
  }
  return std::optional<Cursor>(std::move(c));
}

Result<Cursor> ReadCursorFile(const std::string& path) {
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  json::Limits lim;
  lim.max_bytes = 1 << 16;
  json::Source src;
  src.path = path;
  auto j = json::Parse(text, lim, src);
  if (!j || !j->is_object()) return Fail(Damaged(path, "is not a JSON object"));
  Cursor c;
  c.session_id = json::StringOr(*j, "session_id", "");
  c.transcript = json::StringOr(*j, "transcript", "");
  c.staged_id = json::StringOr(*j, "staged_id", "");
  c.publish = json::StringOr(*j, "publish", "");
  auto line = json::Int(*j, "line", 0);
  auto offset = json::Int(*j, "offset", 0);
  const auto* id = json::Find(*j, "identity");
  if (!line || !offset || !id) {
    return Fail(Damaged(path, "lacks line, offset, identity or this session's id"));
  }
  c.line = *line;
  c.offset = static_cast<uint64_t>(*offset);
  c.identity.dev = static_cast<uint64_t>(json::Int(*id, "dev", 0).value_or(0));
  c.identity.ino = static_cast<uint64_t>(json::Int(*id, "ino", 0).value_or(0));
  c.identity.prefix_bytes = static_cast<uint64_t>(json::Int(*id, "prefix_bytes", 0).value_or(0));
  c.identity.prefix_hash = json::StringOr(*id, "prefix_hash", "");
  if (const auto* p = json::Find(*j, "pending"); p && p->is_object()) {
    Pending pend;
    auto first = json::Int(*p, "first", 1), last = json::Int(*p, "last", 1);
    auto poff = json::Int(*p, "offset", 0), at = json::Int(*p, "started_at_ms", 0);
    if (!first || !last || !poff || !at)
      return Fail(Damaged(path, "has a malformed pending range"));
    pend.first = *first;
    pend.last = *last;
    pend.offset = static_cast<uint64_t>(*poff);
    pend.started_at_ms = *at;
    c.pending = pend;
  }
  return c;
}

Status WriteCursor(const store::Store& store, const Cursor& c) {
  const std::string dir = store.Path(kCursorDir);
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  Json j;
  // The id passed the gate of session ids where it entered (hook/payload.h,
  // extract::SessionOf); the path is outside input of one line like a
  // transcript's cwd, through the same gate.
  j["session_id"] = c.session_id;
  j["transcript"] = activity::CleanLine(c.transcript, kMaxTranscriptPathBytes);
  j["identity"] = {{"dev", c.identity.dev},
                   {"ino", c.identity.ino},
                   {"prefix_bytes", c.identity.prefix_bytes},
                   {"prefix_hash", c.identity.prefix_hash}};
  j["line"] = c.line;
  j["offset"] = c.offset;
  j["staged_id"] = c.staged_id;
  if (!c.publish.empty()) j["publish"] = c.publish;
  return fs::WriteFileAtomic(CursorPath(store, c.session_id),
                             j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

Result<Identity> IdentityOf(int fd, uint64_t prefix_bytes, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return tl::unexpected(fs::ErrnoError(errno, "cannot stat", path));
  Identity id;
  id.dev = static_cast<uint64_t>(st.st_dev);
  id.ino = static_cast<uint64_t>(st.st_ino);
  std::string buf(static_cast<size_t>(std::min<uint64_t>(prefix_bytes, kPrefixBytes)), '\0');
  LORE_ASSIGN(size_t got, fs::ReadAt(fd, buf.data(), buf.size(), 0, path));
  id.prefix_bytes = got;
  id.prefix_hash = text::Hex(text::Fnv1a64(std::string_view(buf.data(), got)));
  return id;
}

}  // namespace lore::extract
