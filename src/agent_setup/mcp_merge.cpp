// lore's MCP server merged into .mcp.json or ~/.claude.json.
#include <utility>

#include "agent_setup/merge_common.h"
#include "lore/agent_setup/merge.h"
#include "lore/json/field.h"
#include "lore/json/value.h"

namespace lore::agent_setup {
namespace {

constexpr std::string_view kMcpShape =
    "a JSON object whose \"mcpServers\" maps server names to {\"command\", \"args\"}";

// The state of an existing `mcpServers.lore` entry.
Piece Inspect(const Json& server, const std::string& rel) {
  Piece p{rel, "mcp server lore", PieceState::kInstalled, {}};
  auto command = json::String(server, "command");
  const Json* args = json::Find(server, "args");
  bool serves = command && NamesLore(*command) && args && args->is_array() && !args->empty() &&
                (*args)[0].is_string() && (*args)[0].get<std::string>() == "mcp";
  if (serves && *command == "lore") return p;  // extra arguments (--repo) are the person's
  p.state = PieceState::kDifferent;
  p.detail = serves ? "runs '" + *command + "' (another lore; lore init leaves it)"
                    : RenderCompact(server) + " (not lore's server; lore init leaves it)";
  return p;
}

}  // namespace

Result<MergeResult> MergeMcp(std::string_view text, const std::string& path, const std::string& rel,
                             const std::vector<std::string>& at) {
  LORE_ASSIGN(Json doc, ReadObject(text, path, kMcpShape));
  // The object holding "mcpServers", created on the way when missing.
  Json* holder = &doc;
  std::vector<std::string> keys;
  for (const std::string& k : at) {
    keys.push_back(k);
    if (holder->contains(k) && !(*holder)[k].is_object()) {
      return Fail(ShapeError(text, path, keys, "\"" + k + "\" is not an object", kMcpShape));
    }
    holder = &(*holder)[k];
    if (holder->is_null()) *holder = Json::object();
  }
  const std::string where = at.empty() ? "" : " (under " + at.front() + ")";
  keys.push_back("mcpServers");
  const Json* servers = json::Find(std::as_const(*holder), "mcpServers");
  if (servers && !servers->is_object()) {
    return Fail(
        ShapeError(text, path, keys, "\"mcpServers\"" + where + " is not an object", kMcpShape));
  }
  MergeResult out;
  const Json* lore = servers ? json::Find(*servers, "lore") : nullptr;
  if (lore && !lore->is_object()) {
    keys.push_back("lore");
    return Fail(ShapeError(text, path, keys, "\"mcpServers.lore\"" + where + " is not an object",
                           kMcpShape));
  }
  if (lore) {
    out.pieces.push_back(Inspect(*lore, rel));
  } else {
    Json server = Json::object();
    server["command"] = "lore";
    server["args"] = Json::array({"mcp"});
    (*holder)["mcpServers"]["lore"] = std::move(server);
    out.pieces.push_back({rel, "mcp server lore", PieceState::kMissing, {}});
    out.changed = true;
  }
  out.doc = std::move(doc);
  return out;
}

Result<MergeResult> UnmergeMcp(std::string_view text, const std::string& path,
                               const std::string& rel, const std::vector<std::string>& at) {
  LORE_ASSIGN(Json doc, ReadObject(text, path, kMcpShape));
  MergeResult out;
  Piece p{rel, "mcp server lore", PieceState::kMissing, {}};
  // The objects from the root to the one holding "mcpServers".
  std::vector<Json*> chain{&doc};
  for (const std::string& k : at) {
    Json* next =
        chain.back()->is_object() && chain.back()->contains(k) ? &(*chain.back())[k] : nullptr;
    if (!next || !next->is_object()) break;
    chain.push_back(next);
  }
  Json* servers = nullptr;
  if (chain.size() == at.size() + 1 && chain.back()->contains("mcpServers")) {
    servers = &(*chain.back())["mcpServers"];
  }
  if (servers && servers->is_object() && servers->contains("lore") &&
      (*servers)["lore"].is_object()) {
    p = Inspect((*servers)["lore"], rel);
    if (p.state == PieceState::kInstalled) {
      servers->erase("lore");
      out.changed = true;
      // What the merge created on the way, once empty, goes too; a key at the
      // top of the file ("projects" of ~/.claude.json) is Claude Code's and stays.
      if (servers->empty()) chain.back()->erase("mcpServers");
      for (size_t i = chain.size() - 1; i > 1 && chain[i]->empty(); --i) {
        chain[i - 1]->erase(at[i - 1]);
      }
    }
  }
  out.pieces.push_back(std::move(p));
  out.doc = std::move(doc);
  return out;
}

}  // namespace lore::agent_setup
