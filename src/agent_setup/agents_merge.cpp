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
      return Fail(ErrorCode::kCorrupt,
                  "mcp_servers is written inline, so lore's table cannot join it", path,
                  servers ? static_cast<int64_t>(servers->source().begin.line) : 0,
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
      p.detail =
          RenderCompact(*lore) + " (not lore's server as lore writes it; lore init leaves it)";
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

Result<MergeResult> UnmergeCodexConfig(std::string_view text, const std::string& path,
                                       const std::string& rel) {
  // The same checks as the merge: a file lore cannot read is left as it is.
  LORE_ASSIGN(MergeResult seen, MergeCodexConfig(text, path, rel));
  MergeResult out;
  out.text = std::string(text);
  Piece p{rel, "mcp server lore", PieceState::kMissing, {}};
  if (!seen.pieces.empty() && seen.pieces.front().state == PieceState::kDifferent) {
    p = seen.pieces.front();
  } else if (!seen.pieces.empty() && seen.pieces.front().state == PieceState::kInstalled) {
    // lore's table as it wrote it, whole lines, followed by nothing of the
    // table's (the end of the file or another table).
    const std::string_view table(kCodexServer);
    size_t at = text.find(table);
    while (at != std::string_view::npos && at != 0 && text[at - 1] != '\n') {
      at = text.find(table, at + 1);
    }
    std::string rest;
    if (at != std::string_view::npos) {
      // Keys after lore's lines belong to its table: the person's now.
      std::string_view after = text.substr(at + table.size());
      while (!after.empty()) {
        const size_t end = std::min(after.find('\n'), after.size());
        std::string_view line = after.substr(0, end);
        const size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string_view::npos && line[first] != '#') {
          if (line[first] != '[') at = std::string_view::npos;
          break;
        }
        after.remove_prefix(std::min(end + 1, after.size()));
      }
    }
    if (at != std::string_view::npos) {
      std::string before(text.substr(0, at));
      // The blank line the merge put before the table.
      if (before.size() >= 2 && before.compare(before.size() - 2, 2, "\n\n") == 0)
        before.pop_back();
      rest = before + std::string(text.substr(at + table.size()));
      toml::parse_result again = toml::parse(rest, std::string_view(path));
      const toml::node* servers = again ? again.table().get("mcp_servers") : nullptr;
      if (!again || (servers && servers->is_table() && servers->as_table()->get("lore"))) {
        at = std::string_view::npos;  // keys of the table follow: the person's now
      }
    }
    if (at == std::string_view::npos) {
      p.state = PieceState::kDifferent;
      p.detail =
          "[mcp_servers.lore] is no longer as lore init wrote it (lore init --remove "
          "leaves it; delete the table by hand)";
    } else {
      p.state = PieceState::kInstalled;
      out.text = std::move(rest);
      out.changed = true;
    }
  }
  out.pieces.push_back(std::move(p));
  return out;
}

Result<MergeResult> UnmergeOpencode(std::string_view text, const std::string& path,
                                    const std::string& rel) {
  LORE_ASSIGN(MergeResult seen, MergeOpencode(text, path, rel));
  LORE_ASSIGN(Json doc, ReadObject(text, path, kOpencodeShape));
  MergeResult out;
  Piece p{rel, "mcp server lore", PieceState::kMissing, {}};
  if (!seen.pieces.empty() && seen.pieces.front().state != PieceState::kMissing) {
    p = seen.pieces.front();
  }
  if (p.state == PieceState::kInstalled) {
    Json& mcp = doc["mcp"];
    mcp.erase("lore");
    if (mcp.empty()) doc.erase("mcp");
    // A file lore created holds nothing else but the schema it added.
    const Json* schema = json::Find(doc, "$schema");
    if (doc.size() == 1 && schema && schema->is_string() &&
        schema->get<std::string>() == "https://opencode.ai/config.json") {
      doc.erase("$schema");
    }
    out.changed = true;
  } else if (p.state == PieceState::kDifferent) {
    p.detail = RenderCompact((*json::Find(*json::Find(doc, "mcp"), "lore"))) +
               " (not lore's server as lore writes it; lore init --remove leaves it)";
  }
  out.pieces.push_back(std::move(p));
  out.doc = std::move(doc);
  return out;
}

}  // namespace lore::agent_setup
