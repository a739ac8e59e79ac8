// Black-box tests of `lore init claude-code` and `lore init --check`: an empty
// project, one whose settings already hold other hooks, permissions, env and
// MCP servers (kept byte for byte), a malformed settings file, running twice,
// --dry-run, --check before and after, and a PATH whose `lore` is another binary.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

// Every entry under a folder: relative path -> type, mode, inode, mtime and bytes.
std::map<std::string, std::string> Listing(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : stdfs::recursive_directory_iterator(root)) {
    struct stat st;
    ::lstat(e.path().c_str(), &st);
    std::string v = std::to_string(st.st_mode) + " " + std::to_string(st.st_ino) + " " +
                    std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
    if (S_ISREG(st.st_mode)) {
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      v += " " + ss.str();
    }
    out[stdfs::relative(e.path(), root).string()] = v;
  }
  return out;
}

std::string RepoCommandFile() {
  std::ifstream in(std::string(LORE_SOURCE_DIR) + "/share/claude-code/commands/lore-review.md",
                   std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Settings as Claude Code writes them (2-space JSON), with the person's own parts.
const std::string kPermissions = R"js(  "permissions": {
    "allow": [
      "Bash(npm run test:*)",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Read(./.env)"
    ]
  },)js";
const std::string kEnv = R"(  "env": {
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
    "GREETING": "grüß dich"
  },)";
const std::string kPreToolUseGroup = R"(      {
        "matcher": "Edit|Write",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write \"$CLAUDE_FILE_PATHS\"",
            "timeout": 30
          }
        ]
      })";
const std::string kNotification = R"(    "Notification": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send claude"
          }
        ]
      }
    ])";
const std::string kSettings = "{\n" + kPermissions + "\n" + kEnv +
                              "\n  \"hooks\": {\n    \"PreToolUse\": [\n" + kPreToolUseGroup +
                              "\n    ],\n" + kNotification + "\n  },\n  \"model\": \"opus\"\n}\n";
const std::string kOtherServer = R"(    "github": {
      "command": "docker",
      "args": [
        "run",
        "-i",
        "ghcr.io/github/github-mcp-server"
      ],
      "env": {
        "GITHUB_TOKEN": "${GITHUB_TOKEN}"
      }
    })";
const std::string kMcp = "{\n  \"mcpServers\": {\n" + kOtherServer + "\n  }\n}\n";

// The command lore init writes for a hook: nothing, successfully, without lore.
// The audit hook first looks for `propose` in the payload, in the shell.
std::string Guarded(const std::string& event) {
  if (event == "pre-tool-use") {
    return "p=; while IFS= read -r l || [ -n \"$l\" ]; do p=\"$p$l \"; done; case $p in "
           "*propose*) ;; *) exit 0;; esac; command -v lore >/dev/null 2>&1 || exit 0; printf "
           "'%s\\n' \"$p\" | exec lore hook pre-tool-use";
  }
  return "command -v lore >/dev/null 2>&1 || exit 0; exec lore hook " + event;
}

class InitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stdfs::create_directories(t_ / "project");
    stdfs::create_directories(t_ / "bin");
    stdfs::create_symlink(LoreBinary(), t_ / "bin/lore");  // the hooks' lore is this one
  }
  std::string project() const { return t_ / "project"; }
  RunOptions Opts(const std::string& path_dir = "") const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.env["PATH"] = (path_dir.empty() ? t_ / "bin" : path_dir) + ":/usr/bin:/bin";
    o.cwd = project();
    return o;
  }
  RunResult Init(std::vector<std::string> extra = {}, const RunOptions* o = nullptr) {
    std::vector<std::string> args = {"init", "claude-code", "--project", project()};
    args.insert(args.end(), extra.begin(), extra.end());
    return Lore(args, o ? *o : Opts());
  }
  Json Check(int expect_exit, const RunOptions& o) {
    RunResult r = Lore({"init", "--check", "--json", "--project", project()}, o);
    EXPECT_EQ(r.exit_code, expect_exit) << r.out << r.err;
    return Json::parse(r.out);
  }
  std::string Read(const std::string& rel) const { return t_.Read("project/" + rel); }
  std::vector<std::string> Backups() const {
    std::vector<std::string> out;
    for (const auto& e : stdfs::recursive_directory_iterator(project())) {
      if (e.path().filename().string().find(".lore-backup-") != std::string::npos)
        out.push_back(stdfs::relative(e.path(), project()).string());
    }
    return out;
  }

  TempDir t_;
};

TEST_F(InitTest, EmptyProjectGetsHooksMcpAndTheReviewCommand) {
  RunResult r = Init();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(".claude/settings.json: created"), std::string::npos) << r.out;
  Json settings = Json::parse(Read(".claude/settings.json"));
  const std::vector<std::pair<std::string, std::string>> want = {{"SessionStart", "session-start"},
                                                                 {"PreToolUse", "pre-tool-use"},
                                                                 {"PreCompact", "pre-compact"},
                                                                 {"Stop", "stop"},
                                                                 {"SessionEnd", "session-end"}};
  for (const auto& [event, name] : want) {
    ASSERT_EQ(settings["hooks"][event].size(), 1u) << event;
    EXPECT_EQ(settings["hooks"][event][0]["hooks"][0]["command"], Guarded(name));
    EXPECT_EQ(settings["hooks"][event][0]["hooks"][0]["type"], "command");
  }
  EXPECT_EQ(settings["hooks"]["PreToolUse"][0]["matcher"], "Bash");
  // lore's MCP tools are allowed (Claude Code's server-wide rule), and the output says so.
  EXPECT_EQ(settings["permissions"]["allow"], Json::array({"mcp__lore"}));
  EXPECT_NE(r.out.find("lore's MCP tools run without a permission prompt (permissions.allow "
                       "\"mcp__lore\" in .claude/settings.json)"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Json::parse(Read(".mcp.json"))["mcpServers"]["lore"],
            Json::parse(R"({"command": "lore", "args": ["mcp"]})"));
  const std::string command = Read(".claude/commands/lore-review.md");
  EXPECT_EQ(command, RepoCommandFile());  // embedded from the one file that ships
  EXPECT_NE(command.find("--batches --json"), std::string::npos);
  EXPECT_NE(command.find("--answers -"), std::string::npos);
  EXPECT_NE(command.find("AskUserQuestion"), std::string::npos);
  EXPECT_TRUE(Backups().empty());
  EXPECT_EQ(Read(".claude/settings.json").back(), '\n');
}

TEST_F(InitTest, ExistingSettingsAndServersAreKeptByteForByte) {
  t_.Write("project/.claude/settings.json", kSettings);
  t_.Write("project/.mcp.json", kMcp);
  ASSERT_EQ(::chmod((project() + "/.claude/settings.json").c_str(), 0644), 0);
  RunResult r = Init();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string after = Read(".claude/settings.json");
  // The raw text of every untouched part is still there, unchanged.
  for (const std::string* part : {&kEnv, &kPreToolUseGroup, &kNotification}) {
    EXPECT_NE(after.find(*part), std::string::npos) << *part << "\n---\n" << after;
  }
  // The person's permission rules stay, in their order; lore's rule follows them.
  std::string permissions = kPermissions;
  permissions.replace(permissions.find("\"Read(~/.zshrc)\""), 16,
                      "\"Read(~/.zshrc)\",\n      \"mcp__lore\"");
  EXPECT_EQ(after.rfind("{\n" + permissions + "\n" + kEnv + "\n  \"hooks\": {\n", 0), 0u) << after;
  EXPECT_NE(after.find("  \"model\": \"opus\"\n}\n"), std::string::npos);
  EXPECT_NE(Read(".mcp.json").find(kOtherServer), std::string::npos);
  // And re-parsed: the same values, the same key order, lore's hooks added after the person's.
  Json before = Json::parse(kSettings), now = Json::parse(after);
  for (const char* key : {"env", "model"}) EXPECT_EQ(now[key], before[key]) << key;
  before["permissions"]["allow"].push_back("mcp__lore");
  EXPECT_EQ(now["permissions"], before["permissions"]);
  std::vector<std::string> keys;
  for (auto it = now.begin(); it != now.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"permissions", "env", "hooks", "model"}));
  EXPECT_EQ(now["hooks"]["Notification"], before["hooks"]["Notification"]);
  ASSERT_EQ(now["hooks"]["PreToolUse"].size(), 2u);
  EXPECT_EQ(now["hooks"]["PreToolUse"][0], before["hooks"]["PreToolUse"][0]);
  EXPECT_EQ(now["hooks"]["PreToolUse"][1]["hooks"][0]["command"], Guarded("pre-tool-use"));
  Json mcp = Json::parse(Read(".mcp.json"));
  EXPECT_EQ(mcp["mcpServers"].begin().key(), "github");
  EXPECT_EQ(mcp["mcpServers"]["github"], Json::parse(kMcp)["mcpServers"]["github"]);
  // Backups hold the old bytes; the file keeps its mode.
  auto backups = Backups();
  ASSERT_EQ(backups.size(), 2u);
  for (const std::string& b : backups) {
    const std::string& old = b.rfind(".mcp.json", 0) == 0 ? kMcp : kSettings;
    EXPECT_EQ(Read(b), old) << b;
    EXPECT_NE(r.out.find(b), std::string::npos) << r.out;
  }
  struct stat st;
  ASSERT_EQ(::stat((project() + "/.claude/settings.json").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
}

TEST_F(InitTest, MalformedSettingsChangeNothing) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\": [,]\n  }\n}\n", "settings.json:4"},
      {"{\n  \"env\": {},\n  \"hooks\": [\"lore\"]\n}\n", "settings.json:3"},
      {"{\n  \"hooks\": {\n    \"PreToolUse\": {\"matcher\": \"Bash\"}\n  }\n}\n",
       "settings.json:3"},
  };
  for (const auto& [text, where] : cases) {
    t_.Write("project/.claude/settings.json", text);
    auto before = Listing(project());
    RunResult r = Init();
    EXPECT_EQ(r.exit_code, 1) << text;
    EXPECT_NE(r.err.find(where), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was changed"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(Listing(project()), before) << text;
    EXPECT_EQ(Read(".claude/settings.json"), text);
  }
}

TEST_F(InitTest, SecondRunWritesNothing) {
  t_.Write("project/.claude/settings.json", kSettings);
  ASSERT_EQ(Init().exit_code, 0);
  auto before = Listing(project());
  RunResult r = Init();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("up to date"), std::string::npos) << r.out;
  EXPECT_EQ(Listing(project()), before);  // same inodes, mtimes, bytes; no new backup
}

TEST_F(InitTest, DryRunWritesNothing) {
  auto empty = Listing(project());
  RunResult r = Init({"--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("would create .claude/settings.json"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("+   \"mcpServers\": {"), std::string::npos) << r.out;
  EXPECT_EQ(Listing(project()), empty);

  t_.Write("project/.claude/settings.json", kSettings);
  t_.Write("project/.mcp.json", kMcp);
  auto before = Listing(project());
  r = Init({"--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("would update .claude/settings.json"), std::string::npos) << r.out;
  const std::string added =
      "+ " + std::string(12, ' ') + "\"command\": \"" + Guarded("session-end") + "\",";
  EXPECT_NE(r.out.find(added), std::string::npos) << r.out;
  EXPECT_EQ(Listing(project()), before);
}

TEST_F(InitTest, CheckBeforeAndAfter) {
  Json before = Check(1, Opts());
  EXPECT_FALSE(before["ok"].get<bool>());
  EXPECT_TRUE(before["same_binary"].get<bool>());
  ASSERT_EQ(before["pieces"].size(), 10u);  // seven hooks, the permission, the server, the command
  EXPECT_EQ(before["pieces"][7]["piece"], "permission mcp__lore");
  for (const Json& p : before["pieces"]) EXPECT_EQ(p["state"], "missing") << p.dump();
  ASSERT_EQ(Init().exit_code, 0);
  Json after = Check(0, Opts());
  EXPECT_TRUE(after["ok"].get<bool>());
  for (const Json& p : after["pieces"]) EXPECT_EQ(p["state"], "installed") << p.dump();
  RunResult text = Lore({"init", "claude-code", "--check", "--project", project()}, Opts());
  EXPECT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("all installed"), std::string::npos) << text.out;
  // An edited command file and an old lore path are "different".
  t_.Write("project/.claude/commands/lore-review.md", "old\n");
  t_.Write("project/.mcp.json",
           R"({"mcpServers": {"lore": {"command": "/old/lore", "args": ["mcp"]}}})");
  Json edited = Check(1, Opts());
  EXPECT_EQ(edited["pieces"][8]["state"], "different");
  EXPECT_EQ(edited["pieces"][9]["state"], "different");
}

TEST_F(InitTest, CheckSeesAnotherLoreOnPath) {
  ASSERT_EQ(Init().exit_code, 0);
  stdfs::create_directories(t_ / "other");
  stdfs::copy_file(LoreBinary(), t_ / "other/lore");  // the same bytes, another file
  ASSERT_EQ(::chmod((t_ / "other/lore").c_str(), 0755), 0);
  Json j = Check(1, Opts(t_ / "other"));
  EXPECT_FALSE(j["same_binary"].get<bool>());
  EXPECT_EQ(j["lore_on_path"], t_ / "other/lore");
  for (const Json& p : j["pieces"]) EXPECT_EQ(p["state"], "installed");
  RunResult text = Lore({"init", "--check", "--project", project()}, Opts(t_ / "other"));
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("not this lore"), std::string::npos) << text.out;
  // No lore on PATH at all.
  stdfs::create_directories(t_ / "empty");
  RunOptions none = Opts(t_ / "empty");
  none.env["PATH"] = t_ / "empty";
  Json missing = Check(1, none);
  EXPECT_TRUE(missing["lore_on_path"].is_null());
}

// --engine writes the choice into the project's store's config.toml, keeping
// what the person wrote there.
TEST_F(InitTest, EngineChoiceIsWrittenIntoTheStoresConfig) {
  ASSERT_EQ(lore::testing::Run({"/usr/bin/git", "-C", project(), "init", "-q"}).exit_code, 0);
  ASSERT_EQ(lore::testing::Run({"/usr/bin/git", "-C", project(), "remote", "add", "origin",
                                "https://example.org/acme/widget.git"})
                .exit_code,
            0);
  const std::string config = "stores/example.org_acme_widget/config.toml";
  ASSERT_EQ(Lore({"ensure", project()}, Opts()).exit_code, 0);
  t_.Write(config, "# my settings\n[memory.staging]\nthreshold_files = 5\n");
  RunResult r = Init({"--engine", "claude-code"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("the model extracts and consolidates, through claude-code"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(t_.Read(config),
            "# my settings\nmemory.consolidation.engine = \"llm\"\nmemory.extract_engine = "
            "\"llm\"\nllm.provider = \"claude-code\"\n[memory.staging]\nthreshold_files = 5\n");
  r = Init({"--engine", "rules"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(t_.Read(config),
            "# my settings\nmemory.consolidation.engine = \"rules\"\nmemory.extract_engine = "
            "\"rules\"\nllm.provider = \"claude-code\"\n[memory.staging]\nthreshold_files = 5\n");
  r = Init({"--engine", "gpt"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("gpt"), std::string::npos) << r.err;
}

TEST_F(InitTest, SymlinkedSettingsAreRefused) {
  t_.Write("elsewhere/settings.json", "{}\n");
  stdfs::create_directories(t_ / "project/.claude");
  stdfs::create_symlink(t_ / "elsewhere/settings.json", t_ / "project/.claude/settings.json");
  auto before = Listing(t_.path());
  RunResult r = Init();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("symlink"), std::string::npos) << r.err;
  EXPECT_EQ(Listing(t_.path()), before);
}

TEST_F(InitTest, UsageErrors) {
  EXPECT_EQ(Lore({"init", "vim", "--project", project()}, Opts()).exit_code, 2);
  EXPECT_EQ(Lore({"init", "--project", project()}, Opts()).exit_code, 2);
  EXPECT_EQ(Lore({"init", "claude-code", "--project", t_ / "missing"}, Opts()).exit_code, 1);
}

// --scope local: nothing a teammate sees. The hooks go to settings.local.json
// (kept out of git by the checkout's own exclude file), the MCP server under
// the project in ~/.claude.json, the command under ~/.claude/commands.
TEST_F(InitTest, LocalScopeWritesNothingShared) {
  ASSERT_EQ(::system(("git init -q " + project()).c_str()), 0);
  t_.Write("home/.claude.json", "{\n  \"numStartups\": 7,\n  \"projects\": {}\n}\n");
  RunResult r = Init({"--scope", "local"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("scope local"), std::string::npos) << r.out;
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/settings.json"));
  EXPECT_FALSE(stdfs::exists(project() + "/.mcp.json"));
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/commands"));
  Json local = Json::parse(Read(".claude/settings.local.json"));
  EXPECT_EQ(local["hooks"]["SessionStart"][0]["hooks"][0]["command"], Guarded("session-start"));
  Json claude = Json::parse(t_.Read("home/.claude.json"));
  EXPECT_EQ(claude["numStartups"], 7);
  char real[PATH_MAX];
  ASSERT_NE(::realpath(project().c_str(), real), nullptr);
  EXPECT_EQ(claude["projects"][real]["mcpServers"]["lore"],
            Json::parse(R"({"command": "lore", "args": ["mcp"]})"));
  EXPECT_EQ(t_.Read("home/.claude/commands/lore-review.md"), RepoCommandFile());
  EXPECT_NE(Read(".git/info/exclude").find("\n/.claude/settings.local.json\n"), std::string::npos);
  // git sees nothing new to commit.
  const std::string status = t_.path() + "/status.txt";
  ASSERT_EQ(::system(("git -C " + project() + " status --porcelain > " + status).c_str()), 0);
  EXPECT_EQ(t_.Read("status.txt"), "");
  // Idempotent; a later run with no --scope stays there; --check names the scope.
  RunResult again = Init();
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.out.find("scope local (where lore's hooks already are)"), std::string::npos)
      << again.out;
  EXPECT_NE(again.out.find("up to date"), std::string::npos) << again.out;
  Json check = Check(0, Opts());
  EXPECT_EQ(check["scope"], "local");
  EXPECT_TRUE(check["scopes"]["local"]["installed"].get<bool>());
  EXPECT_FALSE(check["scopes"]["project"]["installed"].get<bool>());
  EXPECT_FALSE(check["scopes"]["user"]["installed"].get<bool>());
  // seven hooks, the permission, the server, the command, the exclude
  ASSERT_EQ(check["pieces"].size(), 11u);
}

// --scope user: ~/.claude/settings.json and the top of ~/.claude.json, for
// every project; a second scope with hooks is named, since both would run.
TEST_F(InitTest, UserScopeAndTheNoteOnTwoScopes) {
  RunResult r = Init({"--scope", "user"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  Json user = Json::parse(t_.Read("home/.claude/settings.json"));
  EXPECT_EQ(user["hooks"]["Stop"][0]["hooks"][0]["command"], Guarded("stop"));
  EXPECT_EQ(Json::parse(t_.Read("home/.claude.json"))["mcpServers"]["lore"]["command"], "lore");
  EXPECT_FALSE(stdfs::exists(project() + "/.claude"));
  Json check = Check(0, Opts());
  EXPECT_EQ(check["scope"], "user");
  RunResult both = Init({"--scope", "project"});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_NE(both.out.find("also in the user scope (~/.claude/settings.json)"), std::string::npos)
      << both.out;
  // Hooks in two scopes run twice: --check says which, and not "all installed".
  RunResult text = Lore({"init", "--check", "--project", project()}, Opts());
  EXPECT_EQ(text.exit_code, 1) << text.out;
  EXPECT_NE(text.out.find("lore's hooks are in the project and user scopes"), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("all installed"), std::string::npos) << text.out;
  Json two = Check(1, Opts());
  EXPECT_EQ(two["hooks_in_scopes"], Json::array({"project", "user"}));
  // --remove without --scope does not guess between them; with it, one goes.
  RunResult which = Init({"--remove"});
  EXPECT_EQ(which.exit_code, 2);
  EXPECT_NE(which.err.find("more than one scope (project, user)"), std::string::npos) << which.err;
  RunResult gone = Init({"--remove", "--scope", "user"});
  ASSERT_EQ(gone.exit_code, 0) << gone.err;
  EXPECT_EQ(Json::parse(t_.Read("home/.claude/settings.json")), Json::object());
  Json after = Check(0, Opts());
  EXPECT_EQ(after["scope"], "project");
  EXPECT_EQ(after["hooks_in_scopes"], Json::array({"project"}));
}

// --remove takes out exactly what init added: the person's settings and
// servers come back byte for byte, with a backup of each file changed.
TEST_F(InitTest, RemoveTakesOutExactlyWhatInitAdded) {
  t_.Write("project/.claude/settings.json", kSettings);
  t_.Write("project/.mcp.json", kMcp);
  ASSERT_EQ(Init().exit_code, 0);
  const size_t backups = Backups().size();
  RunResult dry = Init({"--remove", "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("would remove .claude/commands/lore-review.md"), std::string::npos)
      << dry.out;
  EXPECT_EQ(Backups().size(), backups);
  RunResult r = Init({"--remove"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("--remove: scope project"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".claude/settings.json: updated (took out hook SessionStart"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(".claude/commands/lore-review.md: removed"), std::string::npos) << r.out;
  EXPECT_EQ(Read(".claude/settings.json"), kSettings);
  EXPECT_EQ(Read(".mcp.json"), kMcp);
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/commands/lore-review.md"));
  EXPECT_EQ(Backups().size(), backups + 3);  // settings, servers, the command
  RunResult again = Init({"--remove", "--scope", "project"});
  ASSERT_EQ(again.exit_code, 0);
  EXPECT_NE(again.out.find("nothing of lore's there"), std::string::npos) << again.out;
  // What lore created alone goes whole; --check finds nothing of lore's.
  stdfs::remove_all(project());
  stdfs::create_directories(project());
  ASSERT_EQ(Init().exit_code, 0);
  ASSERT_EQ(Init({"--remove"}).exit_code, 0);
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/settings.json"));
  EXPECT_FALSE(stdfs::exists(project() + "/.mcp.json"));
  Json check = Check(1, Opts());
  for (const Json& p : check["pieces"]) EXPECT_EQ(p["state"], "missing") << p.dump();
}

// --remove --scope local: ~/.claude.json, the exclude file and the
// settings come back as they were.
TEST_F(InitTest, RemoveFromTheLocalScope) {
  ASSERT_EQ(::system(("git init -q " + project()).c_str()), 0);
  const std::string claude = "{\n  \"numStartups\": 7,\n  \"projects\": {}\n}\n";
  t_.Write("home/.claude.json", claude);
  const std::string exclude = Read(".git/info/exclude");
  ASSERT_EQ(Init({"--scope", "local"}).exit_code, 0);
  RunResult r = Init({"--remove", "--scope", "local"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(t_.Read("home/.claude.json"), claude);
  EXPECT_EQ(Read(".git/info/exclude"), exclude);
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/settings.local.json"));
  EXPECT_FALSE(stdfs::exists(t_ / "home/.claude/commands/lore-review.md"));
}

// The default: local in a checkout with more than one author, project otherwise.
TEST_F(InitTest, DefaultScopeFollowsTheCheckoutsAuthors) {
  const std::string git = "git -C " + project() + " ";
  ASSERT_EQ(::system(("git init -q " + project()).c_str()), 0);
  auto commit = [&](const std::string& who) {
    std::string cmd = git + "-c user.name=" + who + " -c user.email=" + who +
                      "@example.org commit -q --allow-empty -m " + who;
    ASSERT_EQ(::system(cmd.c_str()), 0);
  };
  commit("ana");
  RunResult alone = Init({"--dry-run"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.out.find("scope project"), std::string::npos) << alone.out;
  commit("bo");
  RunResult shared = Init();
  ASSERT_EQ(shared.exit_code, 0) << shared.err;
  EXPECT_NE(shared.out.find("scope local (a git checkout with other contributors"),
            std::string::npos)
      << shared.out;
  EXPECT_TRUE(stdfs::exists(project() + "/.claude/settings.local.json"));
  EXPECT_FALSE(stdfs::exists(project() + "/.claude/settings.json"));
}

// The written hooks on a machine with lore and without: without, each exits 0
// and prints nothing (a teammate who cloned the project without lore).
TEST_F(InitTest, HooksDoNothingWithoutLoreOnPath) {
  ASSERT_EQ(Init().exit_code, 0);
  const Json settings = Json::parse(Read(".claude/settings.json"));
  stdfs::create_directories(t_ / "empty");
  int n = 0;
  for (const auto& [event, groups] : settings["hooks"].items()) {
    const std::string command = groups[0]["hooks"][0]["command"].get<std::string>();
    RunOptions without = Opts(t_ / "empty");
    without.input = R"({"session_id":"s","cwd":")" + project() + R"(","prompt":"hi"})";
    RunResult r = lore::testing::Run({"/bin/sh", "-c", command}, without);
    EXPECT_EQ(r.exit_code, 0) << event << ": " << r.err;
    EXPECT_EQ(r.out, "") << event;
    EXPECT_EQ(r.err, "") << event;
    RunOptions with = Opts();
    with.input = without.input;
    RunResult w = lore::testing::Run({"/bin/sh", "-c", command}, with);
    EXPECT_EQ(w.exit_code, 0) << event << ": " << w.err;
    ++n;
  }
  EXPECT_EQ(n, 7);
  // A project set up by an earlier lore gets the guarded form on the next run.
  const std::string guard = "command -v lore >/dev/null 2>&1 || exit 0; exec ";
  std::string text = Read(".claude/settings.json");
  for (size_t at; (at = text.find(guard)) != std::string::npos;) text.erase(at, guard.size());
  t_.Write("project/.claude/settings.json", text);
  RunResult upgrade = Init();
  ASSERT_EQ(upgrade.exit_code, 0) << upgrade.err;
  EXPECT_NE(upgrade.out.find("updated"), std::string::npos) << upgrade.out;
  EXPECT_EQ(Json::parse(Read(".claude/settings.json")), settings);
}

// The audit hook as written (settings and plugin) starts lore only for a
// payload that names `propose`: every other shell call is answered by the
// shell. A payload that does is handed on whole, on one line or many.
TEST_F(InitTest, TheAuditHookStartsLoreOnlyForAPayloadNamingPropose) {
  ASSERT_EQ(Init().exit_code, 0);
  const Json settings = Json::parse(Read(".claude/settings.json"));
  const std::string written =
      settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"].get<std::string>();
  std::ifstream in(std::string(LORE_SOURCE_DIR) + "/share/claude-code/hooks/hooks.json");
  const std::string plugin =
      Json::parse(in)["hooks"]["PreToolUse"][0]["hooks"][0]["command"].get<std::string>();
  stdfs::create_directories(t_ / "plugin/bin");
  stdfs::create_symlink(LoreBinary(), t_ / "plugin/bin/lore");
  stdfs::create_directories(t_ / "empty");
  auto events = [&] {
    std::vector<Json> out;
    if (!stdfs::exists(t_ / "stores")) return out;
    for (const auto& e : stdfs::recursive_directory_iterator(t_.path() + "/stores")) {
      if (e.path().filename() != "events.jsonl") continue;
      std::ifstream f(e.path());
      for (std::string line; std::getline(f, line);) out.push_back(Json::parse(line));
    }
    return out;
  };
  auto run = [&](const std::string& command, const std::string& input, bool from_plugin) {
    RunOptions o = from_plugin ? Opts(t_ / "empty") : Opts();
    if (from_plugin) o.env["CLAUDE_PLUGIN_ROOT"] = t_ / "plugin";
    o.input = input;
    return lore::testing::Run({"/bin/sh", "-c", command}, o);
  };
  auto payload = [&](const std::string& command) {
    return Json{{"session_id", "s-1"},
                {"cwd", project()},
                {"hook_event_name", "PreToolUse"},
                {"tool_name", "Bash"},
                {"tool_input", {{"command", command}, {"description", "d"}}}};
  };
  const std::string propose =
      "cd x && LORE_WAVE=w7 lore propose . --insight 'keep it' --evidence e";
  size_t n = 0;
  for (const std::string& command : {written, plugin}) {
    const bool from_plugin = command == plugin;
    SCOPED_TRACE(from_plugin ? "plugin" : "settings");
    // Neither a shell call without the word nor a payload that is not JSON
    // starts lore (which would warn about the latter on stderr).
    for (const std::string& input : {payload("ls -la && git status").dump() + "\n",
                                     std::string("not json {\n"), std::string()}) {
      RunResult r = run(command, input, from_plugin);
      EXPECT_EQ(r.exit_code, 0) << input;
      EXPECT_EQ(r.out + r.err, "") << input;
    }
    EXPECT_EQ(events().size(), n);
    // The word inside quotes starts lore, which records nothing.
    RunResult echo = run(command, payload("echo 'lore propose'").dump() + "\n", from_plugin);
    EXPECT_EQ(echo.exit_code, 0);
    EXPECT_EQ(echo.out + echo.err, "");
    EXPECT_EQ(events().size(), n);
    // A propose call: on one line, and pretty-printed without a last newline.
    for (const std::string& input : {payload(propose).dump() + "\n", payload(propose).dump(2)}) {
      RunResult r = run(command, input, from_plugin);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(r.out + r.err, "");
      const std::vector<Json> now = events();
      ASSERT_EQ(now.size(), ++n) << input;
      EXPECT_EQ(now.back()["session_id"], "s-1");
      EXPECT_EQ(now.back()["wave"], "w7");
      EXPECT_EQ(now.back()["argv_truncated"],
                "cd x && LORE_WAVE=w7 lore propose . --insight [REDACTED] --evidence [REDACTED]");
    }
  }
  // Without lore anywhere, a propose call does nothing either.
  RunOptions bare = Opts(t_ / "empty");
  bare.input = payload(propose).dump();
  RunResult r = lore::testing::Run({"/bin/sh", "-c", written}, bare);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out + r.err, "");
  EXPECT_EQ(events().size(), n);
}

// With lore's plugin enabled as well, init and --check say that both would run.
TEST_F(InitTest, ThePluginEnabledBesideIsNamed) {
  t_.Write("home/.claude/settings.json", R"({"enabledPlugins": {"lore@lore": true, "x@y": true}})");
  RunResult r = Init();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("plugin is enabled in ~/.claude/settings.json"), std::string::npos) << r.out;
  Json check = Check(0, Opts());
  EXPECT_EQ(check["plugin_enabled_in"], Json::array({"~/.claude/settings.json"}));
  t_.Write("home/.claude/settings.json", R"({"enabledPlugins": {"lore@lore": false}})");
  EXPECT_TRUE(Check(0, Opts())["plugin_enabled_in"].empty());
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
