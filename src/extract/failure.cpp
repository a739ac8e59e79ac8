#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

#include "extract/cursor.h"
#include "fs/atomic_file.h"
#include "lore/extract/extract.h"
#include "lore/fs/fd.h"
#include "lore/fs/file_lock.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"
#include "redact/redact.h"

namespace lore::extract {
namespace {

std::string FailurePath(const store::Store& store) {
  return fs::Join(store.Path(kCursorDir), ".failed.json");
}

std::string LastPath(const store::Store& store) {
  return fs::Join(store.Path(kCursorDir), ".last.json");
}

std::string UsagePath(const store::Store& store) {
  return fs::Join(store.Path(kCursorDir), ".model-usage.json");
}

}  // namespace

Status RecordLastExtract(const store::Store& store, const ExtractRecord& r) {
  const std::string dir = store.Path(kCursorDir);
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  // A session id or an error is outside input: through the gate like every
  // other string a store keeps (docs/secrets.md).
  Json j = {{"at", r.at},
            {"session_id", redact::Clean(r.session_id)},
            {"engine", r.engine},
            {"outcome", r.outcome},
            {"error", redact::Clean(r.error)}};
  return fs::WriteFileAtomic(LastPath(store),
                             j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

Result<std::optional<ExtractRecord>> LastExtract(const store::Store& store) {
  const std::string path = LastPath(store);
  if (!fs::Exists(path)) return std::optional<ExtractRecord>();
  LORE_TRY(fs::RefuseSymlink(path, "last extract record"));
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  json::Limits lim;
  lim.max_bytes = 1 << 16;
  auto j = json::ParseOrdered(text, lim);
  if (!j || !j->is_object()) {
    return Fail(ErrorCode::kCorrupt, "the last extract record is not a JSON object", path, 0,
                "remove it (the next extract writes it again)");
  }
  return std::optional<ExtractRecord>(
      ExtractRecord{json::StringOr(*j, "at", ""), json::StringOr(*j, "session_id", ""),
                    json::StringOr(*j, "engine", ""), json::StringOr(*j, "outcome", ""),
                    json::StringOr(*j, "error", "")});
}

Result<ModelUsage> ReadModelUsage(const store::Store& store, text::TimePoint now) {
  ModelUsage u;
  u.day = text::UtcDate(now);
  const std::string path = UsagePath(store);
  if (!fs::Exists(path)) return u;
  LORE_TRY(fs::RefuseSymlink(path, "model usage record"));
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  json::Limits lim;
  lim.max_bytes = 1 << 16;
  auto j = json::ParseOrdered(text, lim);
  if (!j || !j->is_object()) {
    return Fail(ErrorCode::kCorrupt, "the model usage record is not a JSON object", path, 0,
                "remove it (today's token count starts again from zero)");
  }
  if (json::StringOr(*j, "day", "") != u.day) return u;
  if ((*j).contains("tokens") && (*j)["tokens"].is_number_integer())
    u.tokens = (*j)["tokens"].get<int64_t>();
  if ((*j).contains("runs") && (*j)["runs"].is_number_integer())
    u.runs = (*j)["runs"].get<int64_t>();
  return u;
}

Status AddModelUsage(const store::Store& store, int64_t tokens, text::TimePoint now) {
  const std::string dir = store.Path(kCursorDir);
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  LORE_ASSIGN(fs::FileLock lock,
              fs::FileLock::Acquire(fs::Join(dir, ".model-usage.lock"), fs::LockMode::kExclusive,
                                    std::chrono::seconds(10)));
  LORE_ASSIGN(ModelUsage u, ReadModelUsage(store, now));
  u.tokens += tokens;
  u.runs += 1;
  Json j = {{"day", u.day}, {"tokens", u.tokens}, {"runs", u.runs}};
  return fs::WriteFileAtomic(UsagePath(store), j.dump() + "\n");
}

Status RecordExtractFailure(const store::Store& store, const std::string& session_id,
                            const Error& error, text::TimePoint now) {
  const std::string dir = store.Path(kCursorDir);
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  Json j = {{"at", text::UtcSeconds(now)},
            {"session_id", redact::Clean(session_id)},
            {"error", redact::Clean(error.Format())}};
  return fs::WriteFileAtomic(FailurePath(store),
                             j.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n");
}

Status ClearExtractFailure(const store::Store& store) {
  const std::string path = FailurePath(store);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return tl::unexpected(fs::ErrnoError(errno, "cannot remove", path));
  return Ok();
}

Result<std::optional<ExtractFailure>> LastExtractFailure(const store::Store& store) {
  const std::string path = FailurePath(store);
  if (!fs::Exists(path)) return std::optional<ExtractFailure>();
  LORE_TRY(fs::RefuseSymlink(path, "extract failure record"));
  LORE_ASSIGN(std::string text, fs::ReadFile(path, fs::Kind::kState));
  json::Limits lim;
  lim.max_bytes = 1 << 16;
  auto j = json::ParseOrdered(text, lim);
  if (!j || !j->is_object()) {
    return Fail(ErrorCode::kCorrupt, "extract failure record is not a JSON object", path, 0,
                "remove it");
  }
  return std::optional<ExtractFailure>(ExtractFailure{json::StringOr(*j, "at", ""),
                                                      json::StringOr(*j, "session_id", ""),
                                                      json::StringOr(*j, "error", "")});
}

}  // namespace lore::extract
