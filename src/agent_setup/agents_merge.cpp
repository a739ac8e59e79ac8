// The other agents' files lore init merges (merge.h): Codex's config.toml,
// OpenCode's opencode.json, and the hook lists of Codex and Gemini CLI.
#include <toml++/toml.h>

#include <utility>

#include "agent_setup/merge_common.h"
#include "lore/agent_setup/merge.h"
#include "lore/json/field.h"
#include "lore/json/value.h"
#include "lore/text/utf8.h"

namespace lore::agent_setup {
namespace {

constexpr std::string_view kCodexShape =
    "TOML whose [mcp_servers.<name>] tables hold command and args";
constexpr std::string_view kOpencodeShape =
    "a JSON object whose \"mcp\" maps server names to {\"type\": \"local\", \"command\": [...]}";

const char* const kCodexServer = "[mcp_servers.lore]\ncommand = \"lore\"\nargs = [\"mcp\"]\n";

}  // namespace

const std::vector<HookSpec>& SessionStartHooks() {
  static const std::vector<HookSpec> kHooks = {{"SessionStart", "", "lore hook session-start"}};
  return kHooks;
}

Result<MergeResult> MergeCodexConfig(std::string_view text, const std::string& path,
                                     const std::string& rel) {
  const std::string repair = MalformedRepair(kCodexShape);
  if (size_t bad = 0; !text::IsValidUtf8(text, &bad)) {
    return Fail(ErrorCode::kCorrupt, "not valid UTF-8", path, 0, repair);
  }
  toml::parse_result parsed = toml::parse(text, std::string_view(path));
  if (!parsed) {
    const toml::parse_error& e = parsed.error();
    return Fail(ErrorCode::kCorrupt, "malformed TOML: " + std::string(e.description()), path,
                static_cast<int64_t>(e.source().begin.line), repair);
  }
  const toml::table& table = parsed.table();
  MergeResult out;
  out.text = std::string(text);
  Piece p{rel, "mcp server lore", PieceState::kMissing, {}};
  const toml::node* servers = table.get("mcp_servers");
  if (servers && !servers->is_table()) {
    return Fail(ErrorCode::kCorrupt, "mcp_servers is not a table", path,
                static_cast<int64_t>(servers->source().begin.line), repair);
  }
  const toml::node* lore = servers ? servers->as_table()->get("lore") : nullptr;
  if (lore) {
    const toml::table* t = lore->as_table();
    auto command = t ? t->get_as<std::string>("command") : nullptr;
    const toml::array* args = t ? t->get_as<toml::array>("args") : nullptr;
    bool serves = command && NamesLore(command->get()) && args && !args->empty() &&
                  args->get(0)->value<std::string>() == std::optional<std::string>("mcp");
    if (serves && command->get() == "lore") {
      p.state = PieceState::kInstalled;
    } else {
      p.state = PieceState::kDifferent;
      p.detail = serves ? "runs '" + command->get() + "' (another lore; lore init leaves it)"
                        : "another server named lore (lore init leaves it)";
    }
  } else {
    std::string added = *out.text;
    if (!added.empty() && added.back() != '\n') added += '\n';
    if (!added.empty()) added += '\n';
    added += kCodexServer;
    // An inline mcp_servers = {...} cannot take a [mcp_servers.lore] table.
    if (!toml::parse(added, std::string_view(path))) {
      return Fail(ErrorCode::kCorrupt, "mcp_servers is written inline, so lore's table cannot join it",
                  path, servers ? static_cast<int64_t>(servers->source().begin.line) : 0,
                  "add [mcp_servers.lore] with command = \"lore\" and args = [\"mcp\"] by hand");
    }
    out.text = std::move(added);
    out.changed = true;
  }
  out.pieces.push_back(std::move(p));
  return out;
}

Result<MergeResult> MergeOpencode(std::string_view text, const std::string& path,
                                  const std::string& rel) {
  LORE_ASSIGN(Json doc, ReadObject(text, path, kOpencodeShape));
  const Json* mcp = json::Find(doc, "mcp");
  if (mcp && !mcp->is_object()) {
    return Fail(ShapeError(text, path, {"mcp"}, "\"mcp\" is not an object", kOpencodeShape));
  }
  MergeResult out;
  Piece p{rel, "mcp server lore", PieceState::kMissing, {}};
  const Json* lore = mcp ? json::Find(*mcp, "lore") : nullptr;
  if (lore) {
    const Json* command = lore->is_object() ? json::Find(*lore, "command") : nullptr;
    bool serves = command && command->is_array() && command->size() >= 2 &&
                  (*command)[0].is_string() && NamesLore((*command)[0].get<std::string>()) &&
                  (*command)[1].is_string() && (*command)[1].get<std::string>() == "mcp";
    if (serves && (*command)[0].get<std::string>() == "lore") {
      p.state = PieceState::kInstalled;
    } else {
      p.state = PieceState::kDifferent;
      p.detail = RenderCompact(*lore) + " (not lore's server as lore writes it; lore init leaves it)";
    }
  } else {
    if (doc.empty()) doc["$schema"] = "https://opencode.ai/config.json";
    Json server = Json::object();
    server["type"] = "local";
    server["command"] = Json::array({"lore", "mcp"});
    server["enabled"] = true;
    doc["mcp"]["lore"] = std::move(server);
    out.changed = true;
  }
  out.pieces.push_back(std::move(p));
  out.doc = std::move(doc);
  return out;
}

}  // namespace lore::agent_setup
