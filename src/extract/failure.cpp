#include <unistd.h>

#include <cerrno>

#include <nlohmann/json.hpp>

#include "extract/cursor.h"
#include "lore/extract/extract.h"
#include "fs/atomic_file.h"
#include "lore/fs/fd.h"
#include "lore/json/field.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::extract {
namespace {


std::string FailurePath(const store::Store& store) {
  return fs::Join(store.Path(kCursorDir), ".failed.json");
}

}  // namespace

Status RecordExtractFailure(const store::Store& store, const std::string& session_id,
                            const Error& error, text::TimePoint now) {
  const std::string dir = store.Path(kCursorDir);
  LORE_TRY(fs::RefuseSymlink(dir, "extract cursor folder"));
  LORE_TRY(fs::MakeDirs(dir, 0700));
  Json j = {{"at", text::UtcSeconds(now)}, {"session_id", session_id}, {"error", error.Format()}};
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
