#include "hook/payload.h"

#include "activity/session_log.h"
#include "lore/json/field.h"

namespace lore::hook {

json::Limits PayloadLimits() {
  json::Limits l;
  l.max_bytes = size_t{16} << 20;
  l.max_depth = 64;
  return l;
}

Result<std::string> PayloadSessionId(const Json& payload) {
  auto id = activity::CheckSessionId(json::StringOr(payload, "session_id", ""),
                                     "the hook payload's session_id", "<stdin>");
  if (!id) {
    Error e = std::move(id).error();
    e.repair += "; the hook goes on without it";
    return Fail(std::move(e));
  }
  return id;
}

}  // namespace lore::hook
