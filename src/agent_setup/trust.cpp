// Whether Codex and Gemini CLI trust the project folder (install.h CheckTrust).
#include <sys/stat.h>

#include <climits>
#include <cstdlib>

#include <toml++/toml.h>

#include "agent_setup/merge_common.h"
#include "lore/agent_setup/install.h"
#include "lore/fs/fd.h"
#include "lore/json/field.h"

namespace lore::agent_setup {
namespace {

// `rel` under `base` as shown in messages: "~/..." under the home folder.
std::string Shown(const std::string& path, const std::string& home) {
  if (!home.empty() && path.rfind(home + "/", 0) == 0) return "~" + path.substr(home.size());
  return path;
}

// The file's text, "" when it does not exist; an error for anything else.
Result<std::string> ReadIfThere(const std::string& path) {
  auto text = fs::ReadFile(path, fs::Kind::kAgentSettings);
  if (!text && text.error().code == ErrorCode::kNotFound) return std::string();
  return text;
}

std::string RealOr(const std::string& path) {
  char real[PATH_MAX];
  return ::realpath(path.c_str(), real) ? std::string(real) : path;
}

std::string Dirname(const std::string& p) {
  const size_t slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

// The root of the git checkout holding `dir` (a linked worktree's main
// checkout), "" when none: Codex keeps one trust for a whole repository.
std::string GitRoot(const std::string& dir) {
  for (std::string d = dir; !d.empty();) {
    const std::string dot = d == "/" ? "/.git" : d + "/.git";
    struct stat st;
    if (::lstat(dot.c_str(), &st) == 0) {
      if (S_ISDIR(st.st_mode)) return d;
      auto text = fs::ReadFile(dot, fs::Kind::kAgentSettings);
      if (!text || text->rfind("gitdir: ", 0) != 0) return d;
      std::string git = text->substr(8);
      while (!git.empty() && (git.back() == '\n' || git.back() == '\r')) git.pop_back();
      if (!git.empty() && git.front() != '/') git = d + "/" + git;
      if (auto common = fs::ReadFile(git + "/commondir", fs::Kind::kAgentSettings)) {
        std::string c = *common;
        while (!c.empty() && (c.back() == '\n' || c.back() == '\r')) c.pop_back();
        if (!c.empty()) git = c.front() == '/' ? c : git + "/" + c;
      }
      git = RealOr(git);
      return Dirname(git);  // <main checkout>/.git
    }
    if (d == "/") break;
    d = Dirname(d);
  }
  return {};
}

// TOML's basic string for a path: quotes and backslashes escaped.
std::string TomlString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

Result<Trust> CodexTrust(const std::string& project, const std::string& home,
                         const std::string& codex_home) {
  Trust t;
  t.needed = true;
  const std::string dir = codex_home.empty() ? home + "/.codex" : codex_home;
  const std::string path = dir + "/config.toml";
  t.file = Shown(path, home);
  const std::string root = GitRoot(project);
  const std::string key = root.empty() ? project : root;
  t.entry = "[projects." + TomlString(key) + "]\ntrust_level = \"trusted\"";
  LORE_ASSIGN(std::string text, ReadIfThere(path));
  if (text.empty()) {
    t.detail = t.file + " trusts no folder";
    return t;
  }
  toml::parse_result parsed = toml::parse(text, std::string_view(path));
  if (!parsed) {
    const toml::parse_error& e = parsed.error();
    return Fail(ErrorCode::kCorrupt, "malformed TOML: " + std::string(e.description()), path,
                static_cast<int64_t>(e.source().begin.line), "fix the file; Codex refuses it too");
  }
  const toml::table* projects = parsed.table().get_as<toml::table>("projects");
  for (const std::string& k : {project, root}) {
    if (k.empty() || !projects) continue;
    const toml::table* entry = projects->get_as<toml::table>(k);
    auto level = entry ? entry->get_as<std::string>("trust_level") : nullptr;
    if (!level) continue;
    if (level->get() == "trusted") {
      t.trusted = true;
      return t;
    }
    t.detail = t.file + " marks " + k + " trust_level = \"" + level->get() + "\"";
    return t;
  }
  if (t.detail.empty()) t.detail = t.file + " does not trust " + key;
  return t;
}

Result<Trust> GeminiTrust(const std::string& project, const std::string& home) {
  Trust t;
  const std::string settings = home + "/.gemini/settings.json";
  LORE_ASSIGN(std::string stext, ReadIfThere(settings));
  if (!stext.empty()) {
    auto doc = ReadObject(stext, settings, "a JSON object");
    if (doc) {
      const Json* security = json::Find(*doc, "security");
      const Json* trust =
          security && security->is_object() ? json::Find(*security, "folderTrust") : nullptr;
      const Json* enabled = trust && trust->is_object() ? json::Find(*trust, "enabled") : nullptr;
      if (enabled && enabled->is_boolean() && !enabled->get<bool>()) {
        t.trusted = true;  // folder trust turned off: every folder is trusted
        return t;
      }
    }
  }
  t.needed = true;
  const std::string path = home + "/.gemini/trustedFolders.json";
  t.file = Shown(path, home);
  t.entry = "\"" + project + "\": \"TRUST_FOLDER\"";
  LORE_ASSIGN(std::string text, ReadIfThere(path));
  if (text.empty()) {
    t.detail = t.file + " trusts no folder";
    return t;
  }
  LORE_ASSIGN(Json rules, ReadObject(text, path,
                                     "a JSON object mapping folders to TRUST_FOLDER, "
                                     "TRUST_PARENT or DO_NOT_TRUST"));
  size_t longest = 0;
  bool matched = false;
  std::string level, rule;
  for (auto it = rules.begin(); it != rules.end(); ++it) {
    if (!it.value().is_string()) continue;
    const std::string v = it.value().get<std::string>();
    if (v != "TRUST_FOLDER" && v != "TRUST_PARENT" && v != "DO_NOT_TRUST") continue;
    std::string effective = v == "TRUST_PARENT" ? Dirname(it.key()) : it.key();
    effective = RealOr(effective);
    while (effective.size() > 1 && effective.back() == '/') effective.pop_back();
    const bool under =
        project == effective || effective == "/" || project.rfind(effective + "/", 0) == 0;
    if (under && (!matched || it.key().size() > longest)) {
      matched = true;
      longest = it.key().size();
      level = v;
      rule = it.key();
    }
  }
  if (matched && level != "DO_NOT_TRUST") {
    t.trusted = true;
  } else if (matched) {
    t.detail = t.file + " says DO_NOT_TRUST for " + rule;
  } else {
    t.detail = t.file + " does not trust " + project;
  }
  return t;
}

}  // namespace

Result<Trust> CheckTrust(std::string_view agent, const std::string& project, Scope scope,
                         const std::string& home, const std::string& codex_home) {
  Trust none;
  none.trusted = true;
  if (home.empty() || home.front() != '/') return none;
  const std::string real = RealOr(project);
  // Codex reads ~/.codex/ in any folder; only a project's .codex/ waits for trust.
  if (agent == "codex" && scope == Scope::kProject) return CodexTrust(real, home, codex_home);
  if (agent == "gemini") return GeminiTrust(real, home);
  return none;
}

}  // namespace lore::agent_setup
