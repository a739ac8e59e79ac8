#include "agent_setup/merge_common.h"

#include "agent_setup/key_line.h"
#include "lore/agent_setup/merge.h"
#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::agent_setup {

std::string_view StateName(PieceState s) {
  switch (s) {
    case PieceState::kInstalled:
      return "installed";
    case PieceState::kMissing:
      return "missing";
    case PieceState::kDifferent:
      return "different";
  }
  return "missing";
}

std::string MalformedRepair(std::string_view expected) {
  return "fix the file by hand (" + std::string(expected) +
         ") or move it aside, then run 'lore init' again; nothing was changed";
}

Result<Json> ReadObject(std::string_view text, const std::string& path,
                                          std::string_view expected) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Json::object();
  }
  json::Limits limits;
  limits.max_bytes = size_t{8} << 20;
  limits.max_depth = 128;
  LORE_ASSIGN(auto doc, json::ParseOrdered(text, limits, {path, 1, MalformedRepair(expected)}));
  if (!doc.is_object()) {
    return Fail(ErrorCode::kCorrupt, "not a JSON object", path, 1, MalformedRepair(expected));
  }
  return doc;
}

Error ShapeError(std::string_view text, const std::string& path,
                 const std::vector<std::string>& keys, std::string_view what,
                 std::string_view expected) {
  return Error{ErrorCode::kCorrupt, std::string(what), path, LineOfKey(text, keys),
               MalformedRepair(expected)};
}

bool NamesLore(std::string_view program) { return fs::Basename(program) == "lore"; }

std::string Render(const Json& doc) {
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace lore::agent_setup
