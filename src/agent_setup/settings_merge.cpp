// lore's hooks merged into Claude Code's settings.json.
#include <algorithm>
#include <sstream>
#include <utility>

#include "agent_setup/merge_common.h"
#include "lore/agent_setup/merge.h"
#include "lore/json/field.h"
#include "lore/json/value.h"

namespace lore::agent_setup {
namespace {

constexpr std::string_view kGuard = "command -v lore >/dev/null 2>&1";

// For a spec with a word: the payload read into $p, and an exit 0 unless it
// holds the word. dash's `read` takes the payload a byte at a time (about
// 0.4 us a byte): a 600-byte payload costs less than starting any program.
std::string PayloadTest(const HookSpec& spec) {
  return "p=; while IFS= read -r l || [ -n \"$l\" ]; do p=\"$p$l \"; done; case $p in *" +
         std::string(spec.word) + "*) ;; *) exit 0;; esac; ";
}

// The payload handed on to `program` after PayloadTest read it.
std::string HandOn(std::string_view program, std::string_view verb) {
  return "printf '%s\\n' \"$p\" | exec " + std::string(program) + " " + std::string(verb);
}

constexpr std::string_view kSettingsShape =
    "a JSON object whose \"hooks\" maps event names to arrays of {\"matcher\", \"hooks\": "
    "[{\"type\": \"command\", \"command\"}]}";

std::vector<std::string> Words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// A matcher under which a PreToolUse hook sees the Bash tool.
bool CoversBash(const Json& group) {
  const Json* m = json::Find(group, "matcher");
  if (!m) return true;
  if (!m->is_string()) return false;
  std::string s = m->get<std::string>();
  if (s.empty() || s == "*") return true;
  std::istringstream alts(s);
  for (std::string alt; std::getline(alts, alt, '|');) {
    if (alt == "Bash") return true;
  }
  return false;
}

// The state of lore's hook `spec` among the groups of its event. `earlier`
// points at a hook of lore's in an earlier form (its command unguarded, or
// without the `if` rule), which the merge brings up to date.
Piece Inspect(Json& groups, const HookSpec& spec, const std::string& rel, Json** earlier) {
  Piece p{rel, "hook " + std::string(spec.event), PieceState::kMissing, {}};
  const auto want = Words(spec.command);
  const std::string guarded = HookCommand(spec);
  const std::vector<std::string> earlier_forms = EarlierHookCommands(spec);
  auto is_earlier = [&](const std::string& c) {
    return std::find(earlier_forms.begin(), earlier_forms.end(), c) != earlier_forms.end();
  };
  *earlier = nullptr;
  for (Json& group : groups) {
    for (Json& hook : group["hooks"]) {
      auto command = json::String(hook, "command");
      if (!command) continue;
      auto words = Words(*command);
      if (*command == guarded || is_earlier(*command)) {
        if (spec.matcher == "Bash" && !CoversBash(group)) {
          p.state = PieceState::kDifferent;
          p.detail = "'" + *command + "' under matcher '" + json::StringOr(group, "matcher", "") +
                     "', which does not match Bash";
          continue;
        }
        if (*command != guarded) {
          p.state = PieceState::kDifferent;
          p.detail = *command == spec.command
                         ? "lore's earlier form, which fails where lore is not installed (lore "
                           "init replaces it)"
                         : "lore's earlier form, which starts lore for every call (lore init "
                           "replaces it)";
          *earlier = &hook;
          return p;
        }
        if (!spec.if_rule.empty() && json::StringOr(hook, "if", "") != spec.if_rule) {
          p.state = PieceState::kDifferent;
          p.detail =
              "lore's earlier form, which Claude Code starts for every shell call (lore "
              "init adds its \"if\": \"" +
              std::string(spec.if_rule) + "\")";
          *earlier = &hook;
          return p;
        }
        p.state = PieceState::kInstalled;
        p.detail.clear();
        *earlier = nullptr;
        return p;
      }
      // Another lore binary's hook for this event (an absolute path, a wrapper).
      if (words.size() >= 3 && NamesLore(words[0]) && words[1] == want[1] && words[2] == want[2]) {
        p.state = PieceState::kDifferent;
        p.detail = "'" + *command + "' (another lore; lore init leaves it)";
      }
    }
  }
  return p;
}

Json NewGroup(const HookSpec& spec, int timeout = kHookTimeoutSeconds) {
  Json hook = Json::object();
  hook["type"] = "command";
  hook["command"] = HookCommand(spec);
  if (!spec.if_rule.empty()) hook["if"] = std::string(spec.if_rule);
  hook["timeout"] = timeout;
  Json group = Json::object();
  if (!spec.matcher.empty()) group["matcher"] = std::string(spec.matcher);
  group["hooks"] = Json::array({hook});
  return group;
}

// Checks the shape Claude Code reads for one event's groups.
Status CheckGroups(std::string_view text, const std::string& path, const std::string& event,
                   const Json& groups) {
  if (!groups.is_array()) {
    return Fail(ShapeError(text, path, {"hooks", event}, "hooks." + event + " is not an array",
                           kSettingsShape));
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    const Json* hooks = json::Find(groups[i], "hooks");
    bool ok = hooks && hooks->is_array();
    for (size_t j = 0; ok && j < hooks->size(); ++j) ok = (*hooks)[j].is_object();
    if (!ok) {
      return Fail(ShapeError(text, path, {"hooks", event},
                             "hooks." + event + "[" + std::to_string(i) +
                                 "] is not an object with a \"hooks\" array of objects",
                             kSettingsShape));
    }
  }
  return Ok();
}

// Claude Code's permission rule for lore's MCP tools: `permissions.allow`
// holding kLorePermission (every tool of the server named lore) or its
// wildcard spelling counts as installed; missing, it is appended.
constexpr std::string_view kPermissionsShape =
    "a JSON object whose \"permissions\" is an object with an \"allow\" array of rule strings";

Status MergePermission(std::string_view text, const std::string& path, const std::string& rel,
                       Json& doc, MergeResult* out) {
  Piece p{rel, "permission " + std::string(kLorePermission), PieceState::kMissing, {}};
  const Json* perms = json::Find(doc, "permissions");
  if (perms && !perms->is_object()) {
    return Fail(ShapeError(text, path, {"permissions"}, "\"permissions\" is not an object",
                           kPermissionsShape));
  }
  const Json* allow = perms ? json::Find(*perms, "allow") : nullptr;
  if (allow && !allow->is_array()) {
    return Fail(ShapeError(text, path, {"permissions", "allow"},
                           "\"permissions.allow\" is not an array", kPermissionsShape));
  }
  if (allow) {
    for (const Json& rule : *allow) {
      if (rule.is_string() && (rule.get<std::string>() == kLorePermission ||
                               rule.get<std::string>() == std::string(kLorePermission) + "__*")) {
        p.state = PieceState::kInstalled;
      }
    }
  }
  if (p.state == PieceState::kMissing) {
    doc["permissions"]["allow"].push_back(std::string(kLorePermission));
    out->changed = true;
  }
  out->pieces.push_back(std::move(p));
  return Ok();
}

}  // namespace

const std::vector<HookSpec>& ClaudeCodeHooks() {
  static const std::vector<HookSpec> kHooks = {
      {"SessionStart", "", "lore hook session-start"},
      // Only a payload naming `propose` can be a call the audit records
      // (docs/proposals.md): the shell answers every other shell call.
      // Claude Code 2.1.85 and later do not even start it for any other call: its
      // `if` rule matches each sub-command of the call, `cd x && lore propose …`,
      // `/opt/lore/bin/lore propose …` and `LORE_WAVE=x lore propose …` among them.
      {"PreToolUse", "Bash", "lore hook pre-tool-use", "propose", "Bash(*lore propose*)"},
      {"PreCompact", "", "lore hook pre-compact"},
      {"Stop", "", "lore hook stop"},
      {"SessionEnd", "", "lore hook session-end"},
      {"UserPromptSubmit", "", "lore hook user-prompt-submit"},
      {"PostToolUse", "Read|Edit|MultiEdit|Write|NotebookEdit", "lore hook post-tool-use"},
  };
  return kHooks;
}

std::string HookCommand(const HookSpec& spec) {
  if (spec.word.empty())
    return std::string(kGuard) + " || exit 0; exec " + std::string(spec.command);
  const std::string verb(spec.command.substr(std::string_view("lore ").size()));  // "hook stop"
  return PayloadTest(spec) + std::string(kGuard) + " || exit 0; " + HandOn("lore", verb);
}

std::vector<std::string> EarlierHookCommands(const HookSpec& spec) {
  std::vector<std::string> out{std::string(spec.command)};
  if (!spec.word.empty())
    out.push_back(std::string(kGuard) + " || exit 0; exec " + std::string(spec.command));
  return out;
}

std::string PluginHookCommand(const HookSpec& spec) {
  const std::string verb(spec.command.substr(std::string_view("lore ").size()));  // "hook stop"
  const std::string plugin = "\"${CLAUDE_PLUGIN_ROOT}/bin/lore\"";
  if (spec.word.empty()) {
    return std::string(kGuard) + " && exec lore " + verb + "; [ -x " + plugin + " ] && exec " +
           plugin + " " + verb + "; exit 0";
  }
  return PayloadTest(spec) + std::string(kGuard) + " && { " + HandOn("lore", verb) +
         "; exit; }; [ -x " + plugin + " ] && { " + HandOn(plugin, verb) + "; exit; }; exit 0";
}

std::string PluginHooksFile() {
  Json hooks = Json::object();
  for (const HookSpec& spec : ClaudeCodeHooks()) {
    Json group = NewGroup(spec);
    group["hooks"][0]["command"] = PluginHookCommand(spec);
    hooks[std::string(spec.event)].push_back(std::move(group));
  }
  Json doc = Json::object();
  doc["description"] =
      "lore: capture, recall and consolidation hooks (generated from lore's hook table)";
  doc["hooks"] = std::move(hooks);
  return Render(doc);
}

std::string PluginMcpFile() {
  Json server = Json::object();
  server["command"] = "sh";
  server["args"] = Json::array({"-c",
                                "command -v lore >/dev/null 2>&1 && exec lore mcp; exec "
                                "\"${CLAUDE_PLUGIN_ROOT}/bin/lore\" mcp"});
  Json doc = Json::object();
  doc["mcpServers"]["lore"] = std::move(server);
  return Render(doc);
}

Result<MergeResult> MergeSettings(std::string_view text, const std::string& path,
                                  const std::string& rel) {
  LORE_ASSIGN(MergeResult out, MergeHooks(text, path, rel, ClaudeCodeHooks()));
  LORE_TRY(MergePermission(text, path, rel, out.doc, &out));
  return out;
}

Result<MergeResult> MergeHooks(std::string_view text, const std::string& path,
                               const std::string& rel, const std::vector<HookSpec>& specs,
                               int timeout) {
  LORE_ASSIGN(Json doc, ReadObject(text, path, kSettingsShape));
  if (const Json* hooks = json::Find(doc, "hooks"); hooks && !hooks->is_object()) {
    return Fail(ShapeError(text, path, {"hooks"}, "\"hooks\" is not an object", kSettingsShape));
  }
  MergeResult out;
  Json& hooks = doc["hooks"];  // created (empty) when missing
  if (hooks.is_null()) hooks = Json::object();
  for (const HookSpec& spec : specs) {
    const std::string event(spec.event);
    Json* groups = hooks.contains(event) ? &hooks[event] : nullptr;
    Piece p{rel, "hook " + event, PieceState::kMissing, {}};
    if (groups) {
      LORE_TRY(CheckGroups(text, path, event, *groups));
      Json* earlier = nullptr;
      p = Inspect(*groups, spec, rel, &earlier);
      if (earlier) {
        (*earlier)["command"] = HookCommand(spec);
        if (!spec.if_rule.empty()) (*earlier)["if"] = std::string(spec.if_rule);
        out.changed = true;
      }
    }
    if (p.state == PieceState::kMissing) {
      if (!groups) hooks[event] = Json::array();
      hooks[event].push_back(NewGroup(spec, timeout));
      out.changed = true;
    }
    out.pieces.push_back(std::move(p));
  }
  out.doc = std::move(doc);
  return out;
}

Result<MergeResult> UnmergeHooks(std::string_view text, const std::string& path,
                                 const std::string& rel, const std::vector<HookSpec>& specs) {
  LORE_ASSIGN(Json doc, ReadObject(text, path, kSettingsShape));
  MergeResult out;
  Json* hooks = doc.contains("hooks") ? &doc["hooks"] : nullptr;
  if (hooks && !hooks->is_object()) {
    return Fail(ShapeError(text, path, {"hooks"}, "\"hooks\" is not an object", kSettingsShape));
  }
  for (const HookSpec& spec : specs) {
    const std::string event(spec.event);
    Piece p{rel, "hook " + event, PieceState::kMissing, {}};
    if (hooks && hooks->contains(event)) {
      Json& groups = (*hooks)[event];
      LORE_TRY(CheckGroups(text, path, event, groups));
      std::vector<std::string> lores = EarlierHookCommands(spec);
      lores.push_back(HookCommand(spec));
      for (size_t g = groups.size(); g-- > 0;) {
        Json& list = groups[g]["hooks"];
        const size_t before = list.size();
        for (size_t h = list.size(); h-- > 0;) {
          auto command = json::String(list[h], "command");
          if (command && std::find(lores.begin(), lores.end(), *command) != lores.end()) {
            list.erase(h);
            p.state = PieceState::kInstalled;
          }
        }
        if (before > 0 && list.empty()) groups.erase(g);  // lore's own group
      }
      if (p.state == PieceState::kInstalled && groups.empty()) hooks->erase(event);
    }
    out.changed = out.changed || p.state == PieceState::kInstalled;
    out.pieces.push_back(std::move(p));
  }
  if (hooks && out.changed && hooks->empty()) doc.erase("hooks");
  out.doc = std::move(doc);
  return out;
}

Result<MergeResult> UnmergeSettings(std::string_view text, const std::string& path,
                                    const std::string& rel) {
  LORE_ASSIGN(MergeResult out, UnmergeHooks(text, path, rel, ClaudeCodeHooks()));
  Json& doc = out.doc;
  // The permission rule lore writes (a rule the person wrote, mcp__lore__*,
  // stays theirs).
  Piece p{rel, "permission " + std::string(kLorePermission), PieceState::kMissing, {}};
  if (Json* perms = doc.contains("permissions") ? &doc["permissions"] : nullptr;
      perms && perms->is_object() && perms->contains("allow") && (*perms)["allow"].is_array()) {
    Json& allow = (*perms)["allow"];
    for (size_t i = allow.size(); i-- > 0;) {
      if (allow[i].is_string() && allow[i].get<std::string>() == kLorePermission) {
        allow.erase(i);
        p.state = PieceState::kInstalled;
      }
    }
    if (p.state == PieceState::kInstalled) {
      if (allow.empty()) perms->erase("allow");
      if (perms->empty()) doc.erase("permissions");
      out.changed = true;
    }
  }
  out.pieces.push_back(std::move(p));
  return out;
}

}  // namespace lore::agent_setup
