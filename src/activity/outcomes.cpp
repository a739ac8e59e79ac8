#include "lore/activity/outcomes.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "activity/excerpt.h"
#include "lore/activity/episodes.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kMaxOutcomeCalls = 256;
constexpr size_t kWhatBytes = 200;
constexpr size_t kDetailBytes = 200;

// True when `hay` holds `needle` at `at` as whole words (a command's words).
bool WordsAt(std::string_view hay, size_t at, size_t n) {
  bool left = at == 0 || hay[at - 1] == ' ' || hay[at - 1] == '\t' || hay[at - 1] == '(' ||
              hay[at - 1] == ';' || hay[at - 1] == '&' || hay[at - 1] == '|' ||
              hay[at - 1] == '/' || hay[at - 1] == '\n';
  size_t end = at + n;
  bool right = end == hay.size() || hay[end] == ' ' || hay[end] == '\t' || hay[end] == ';' ||
               hay[end] == '&' || hay[end] == '|' || hay[end] == '\n' || hay[end] == ')';
  return left && right;
}

// The last place `needle` occurs in `hay` as whole words, or npos.
size_t LastWords(std::string_view hay, std::string_view needle) {
  size_t found = std::string_view::npos, at = 0;
  while ((at = hay.find(needle, at)) != std::string_view::npos) {
    if (WordsAt(hay, at, needle.size())) found = at;
    at += needle.size();
  }
  return found;
}

bool HasWords(std::string_view hay, std::string_view needle) {
  return LastWords(hay, needle) != std::string_view::npos;
}

// `c` with the options of a JavaScript package manager's call taken out:
// "pnpm --filter @app/api test", "pnpm -r test" and "yarn workspace web test"
// all run the script `test` ("pnpm test"), the same intent whichever packages.
std::string WithoutWorkspaceOptions(const std::string& c) {
  std::string out;
  out.reserve(c.size());
  size_t i = 0;
  bool after_manager = false;  // the words after npm/pnpm/yarn/bun, until a plain one
  while (i < c.size()) {
    size_t j = c.find_first_of(" \t\n;&|()", i);
    if (j == std::string::npos) j = c.size();
    std::string_view w(c.data() + i, j - i);
    bool keep = true;
    if (after_manager) {
      if (w == "--filter" || w == "-f" || w == "--prefix" || w == "-c" || w == "--dir" ||
          w == "--cwd" || w == "--workspace" || w == "workspace") {
        keep = false;
        size_t v = c.find_first_not_of(' ', j);  // and the value
        if (v != std::string::npos && c.find_first_of("\n;&|()", j) > v) {
          j = c.find_first_of(" \t\n;&|()", v);
          if (j == std::string::npos) j = c.size();
        }
      } else if (w.starts_with("-")) {
        keep = false;  // -r, --recursive, --silent, --filter=x, …
      } else if (!w.empty()) {
        after_manager = false;
      }
    }
    if (w == "npm" || w == "pnpm" || w == "yarn" || w == "bun") after_manager = true;
    if (keep) {
      out.append(c, i, j - i);
    }
    // The separator, kept; a run of spaces left by a dropped word squeezed.
    if (j < c.size() && !(c[j] == ' ' && (out.empty() || out.back() == ' '))) out.push_back(c[j]);
    if (j < c.size() && c[j] != ' ' && c[j] != '\t') after_manager = false;
    i = j + 1;
  }
  return out;
}

// `c` with the suffix of a Windows program taken off its words ("./gradlew.bat
// test" is "./gradlew test", "npm.cmd" is "npm"): the same tool on another system.
std::string WithoutWindowsSuffixes(std::string c) {
  for (std::string_view ext : {".bat", ".cmd", ".exe"}) {
    for (size_t at = c.find(ext); at != std::string::npos; at = c.find(ext, at)) {
      const size_t end = at + ext.size();
      if (end == c.size() || c[end] == ' ' || c[end] == '\t' || c[end] == '\n' || c[end] == ';' ||
          c[end] == '&' || c[end] == '|' || c[end] == ')')
        c.erase(at, ext.size());
      else
        at = end;
    }
  }
  return c;
}

constexpr std::array<std::string_view, 28> kTests = {"pytest",
                                                     "python -m pytest",
                                                     "python3 -m pytest",
                                                     "npm test",
                                                     "npm run test",
                                                     "yarn test",
                                                     "pnpm test",
                                                     "jest",
                                                     "vitest",
                                                     "go test",
                                                     "cargo test",
                                                     "ctest",
                                                     "make test",
                                                     "make check",
                                                     "mvn test",
                                                     "gradle test",
                                                     "./gradlew test",
                                                     "rspec",
                                                     "phpunit",
                                                     "dotnet test",
                                                     "mix test",
                                                     "tox",
                                                     "bats",
                                                     "swift test",
                                                     "deno test",
                                                     "bun test",
                                                     "python -m unittest",
                                                     "pest"};
constexpr std::array<std::string_view, 17> kBuilds = {
    "cmake --build", "ninja",        "cargo build",     "go build",
    "npm run build", "yarn build",   "pnpm build",      "tsc",
    "mvn package",   "gradle build", "./gradlew build", "docker build",
    "swift build",   "xcodebuild",   "dotnet build",    "make",
    "bun run build"};

// Where the message option of a `git commit` starts: " -m", " --message", or
// short options run together ending in m (" -am", " -sam").
size_t MessageOption(std::string_view command) {
  for (size_t at = command.find(" -"); at != std::string_view::npos;
       at = command.find(" -", at + 1)) {
    if (command.substr(at).starts_with(" --message")) return at;
    size_t i = at + 2;
    while (i < command.size() && i - at < 8 && std::isalpha(static_cast<unsigned char>(command[i])))
      ++i;
    if (i > at + 2 && command[i - 1] == 'm' &&
        (i == command.size() || command[i] == ' ' || command[i] == '"' || command[i] == '\''))
      return at;
  }
  return std::string_view::npos;
}

// The message of `git commit -m "…"` (its first line), or "".
std::string CommitMessage(std::string_view command) {
  size_t at = MessageOption(command);
  if (at == std::string_view::npos) return "";
  std::string_view rest = command.substr(at);
  size_t q = rest.find_first_of("\"'");
  if (q == std::string_view::npos) return "";
  rest = rest.substr(q + 1);
  // A here-document: the message is the text after its first line.
  if (rest.starts_with("$(cat <<")) {
    size_t nl = rest.find('\n');
    if (nl == std::string_view::npos) return "";
    rest = rest.substr(nl + 1);
  }
  size_t end = rest.find_first_of("\"'\n");
  return Excerpt(rest.substr(0, end), kWhatBytes);
}

// The line of `output` that tells the outcome: one holding any of `marks`
// (first match wins), else "".
std::string LineWith(std::string_view output, std::initializer_list<std::string_view> marks) {
  std::string_view found;
  for (std::string_view line : text::Lines(output)) {
    if (!found.empty()) break;
    for (std::string_view m : marks) {
      if (line.find(m) != std::string_view::npos) {
        found = line;
        break;
      }
    }
  }
  return Excerpt(found, kDetailBytes);
}

// The line by which git reports a commit: "[main 2828430] Update docs", "[fix/x
// (root-commit) 1a2b3c4] …": a bracket holding a branch and an abbreviated hash;
// else one with "create mode"; else "". (A push's "* [new branch]  a -> a" is none.)
std::string CommitLine(std::string_view output) {
  std::string_view mode;
  for (std::string_view line : text::Lines(output)) {
    std::string_view t = text::Trim(line);
    size_t close = t.find("] ");
    if (t.starts_with("[") && close != std::string_view::npos && close < 200) {
      std::string_view inside = t.substr(1, close - 1);
      std::string_view hash = inside.substr(inside.find_last_of(' ') + 1);
      if (inside.find(' ') != std::string_view::npos && hash.size() >= 7 && hash.size() <= 40 &&
          std::all_of(hash.begin(), hash.end(),
                      [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
        return Excerpt(t, kDetailBytes);
    }
    if (mode.empty() && t.find("create mode") != std::string_view::npos) mode = t;
  }
  return Excerpt(mode, kDetailBytes);
}

// A test or build run's verdict line: the last line naming counts or a verdict.
std::string VerdictLine(std::string_view output) {
  std::string best;
  for (std::string_view line : text::Lines(output)) {
    std::string low = text::AsciiLower(line.substr(0, 300));
    for (std::string_view m : {"passed", "failed", "tests", "test result", "error", "ok ", "fail",
                               "built target", "build succeeded", "finished", "success"}) {
      if (low.find(m) != std::string::npos) {
        best = Excerpt(line, kDetailBytes);
        break;
      }
    }
  }
  return best;
}

// Package managers and the sub-commands by which they install or remove.
struct Manager {
  std::string_view program;
  bool global_only;  // counts only with -g / --global (a project's own dependencies do not)
};
constexpr std::array<Manager, 22> kManagers = {{
    {"brew", false},  {"npm", true},      {"pnpm", true},   {"yarn", true}, {"bun", true},
    {"pip", false},   {"pip3", false},    {"pipx", false},  {"apt", false}, {"apt-get", false},
    {"dnf", false},   {"yum", false},     {"opkg", false},  {"apk", false}, {"winget", false},
    {"choco", false}, {"scoop", false},   {"cargo", false}, {"gem", false}, {"mas", false},
    {"snap", false},  {"flatpak", false},
}};

// "install" or "remove" when a stage of `c` (lower case) installs or removes
// packages system-wide; `*what` receives the packages named.
std::string PackageKind(std::string_view c, std::string* what) {
  size_t pos = 0;
  while (pos < c.size()) {
    size_t end = c.find_first_of(";&|\n", pos);
    if (end == std::string_view::npos) end = c.size();
    std::string_view stage = c.substr(pos, end - pos);
    pos = end + 1;
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < stage.size() && words.size() < 24) {
      while (i < stage.size() && stage[i] == ' ') ++i;
      size_t j = stage.find(' ', i);
      if (j == std::string_view::npos) j = stage.size();
      if (j > i) words.push_back(stage.substr(i, j - i));
      i = j;
    }
    size_t k = 0;
    while (k < words.size() && (words[k] == "sudo" || words[k].find('=') != std::string_view::npos))
      ++k;
    if (k + 1 >= words.size()) continue;
    std::string_view prog = words[k];
    if (size_t slash = prog.rfind('/'); slash != std::string_view::npos)
      prog = prog.substr(slash + 1);
    const Manager* m = nullptr;
    for (const auto& x : kManagers) {
      if (x.program == prog) m = &x;
    }
    if (!m) continue;
    std::string_view sub = words[k + 1];
    if (prog == "yarn" && sub == "global" && k + 2 < words.size()) sub = words[k + 2];
    std::string kind;
    if (sub == "install" || sub == "add" || sub == "upgrade" || sub == "reinstall")
      kind = "install";
    else if (sub == "uninstall" || sub == "remove" || sub == "purge" || sub == "rm")
      kind = "remove";
    if (kind.empty()) continue;
    bool global = false;
    std::string pkgs;
    for (size_t w = k + 2; w < words.size(); ++w) {
      std::string_view x = words[w];
      if (x == "-g" || x == "--global" || x == "global") global = true;
      if (x.empty() || x[0] == '-' || x == "global" || x.find('>') != std::string_view::npos)
        continue;
      pkgs += (pkgs.empty() ? "" : " ") + std::string(x);
    }
    if (m->global_only && !global && !(prog == "yarn" && words[k + 1] == "global")) continue;
    *what = std::string(prog) + " " + kind + " " + pkgs;
    return kind;
  }
  return "";
}

}  // namespace

namespace {

// The stages of a lowercased command split on "&&", "||", ";", "|" and line
// ends, each as its words (quotes not parsed: a caller wants programs).
std::vector<std::vector<std::string_view>> StageWords(std::string_view c) {
  std::vector<std::vector<std::string_view>> out(1);
  size_t i = 0;
  while (i < c.size() && out.size() <= 16) {
    size_t j = c.find_first_of(" \t\n;&|()", i);
    if (j == std::string_view::npos) j = c.size();
    if (j > i) out.back().push_back(c.substr(i, j - i));
    if (j < c.size() && c[j] != ' ' && c[j] != '\t' && !out.back().empty()) out.emplace_back();
    i = j + 1;
  }
  return out;
}

// A stage's program: its first word past sudo, env and variable assignments,
// without its folder.
size_t ProgramAt(const std::vector<std::string_view>& w) {
  size_t p = 0;
  while (p < w.size() && (w[p] == "sudo" || w[p] == "env" || w[p] == "time" ||
                          (w[p].find('=') != std::string_view::npos && w[p][0] != '-')))
    ++p;
  return p;
}

// A program run with the sub-command `word` that no table names ("build": `idf.py
// -B out build`, `west build`, `bazel build //app`; "test": `dbt test`, `rails
// test`, `python manage.py test`): the word after the program, not an option's
// value, the program no file utility, shell built-in or `test` itself (`mkdir
// build`, `cd build`, `git add build`, `test -f x`).
bool SaysSubcommand(std::string_view c, std::string_view word) {
  static constexpr std::array<std::string_view, 30> kNoRunners = {
      "mkdir", "rm",   "rmdir", "cp",   "mv",    "ls",    "cat",  "find", "du",     "tar",
      "touch", "stat", "tree",  "ln",   "chmod", "chown", "git",  "echo", "printf", "grep",
      "rg",    "sed",  "head",  "tail", "cd",    "pushd", "test", "[",    "less",   "vim"};
  for (const auto& w : StageWords(c)) {
    size_t p = ProgramAt(w);
    if (p >= w.size()) continue;
    std::string_view program = FileNameOf(w[p]);
    if (std::find(kNoRunners.begin(), kNoRunners.end(), program) != kNoRunners.end()) continue;
    for (size_t i = p + 1; i < w.size(); ++i) {
      if (w[i] == word && !w[i - 1].starts_with("-")) return true;
    }
  }
  return false;
}

// `c` with what its quotes hold blanked out (a commit message naming "make
// test" runs no test), its length kept.
std::string Unquoted(std::string c) {
  char quote = 0;
  for (char& ch : c) {
    if (quote) {
      if (ch == quote)
        quote = 0;
      else if (ch != '\n')
        ch = ' ';
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    }
  }
  return c;
}

// The parts of a target's name: "loader-test" -> {loader, test}, "test:unit" ->
// {test, unit}.
std::vector<std::string_view> NameParts(std::string_view name) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i <= name.size() && out.size() < 8) {
    size_t j = name.find_first_of("-_:.", i);
    if (j == std::string_view::npos) j = name.size();
    if (j > i) out.push_back(name.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

bool TestWord(std::string_view w) {
  return w == "test" || w == "tests" || w == "spec" || w == "specs";
}

// The keys of the test targets `c` (lower case, quotes blanked) runs through a
// task runner (a make, just, task or rake target, a package script, a nox
// session named for tests: `make loader-test`, `npm run test:unit`, `just
// test`) or as the project's own script (`./scripts/test.sh`, `bin/test`). A key is "test*" and the
// other parts of the target's name, sorted and joined by '+' ("test*loader", "test*unit"): the part
// of the tests it runs.
std::vector<std::pair<std::string, size_t>> TestTargetsAt(std::string_view c) {
  static constexpr std::array<std::string_view, 14> kRunners = {
      "make", "gmake", "just", "task", "rake", "invoke", "mage",
      "npm",  "yarn",  "pnpm", "bun",  "mise", "nox",    "deno"};
  std::vector<std::pair<std::string, size_t>> out;
  auto add = [&out, c](std::string_view name, std::string_view at) {
    std::vector<std::string_view> qualifiers;
    for (std::string_view part : NameParts(name)) {
      if (!TestWord(part) && part != "all" && part != "run") qualifiers.push_back(part);
    }
    std::sort(qualifiers.begin(), qualifiers.end());
    std::string key = "test*";
    for (size_t q = 0; q < qualifiers.size(); ++q) (key += q ? "+" : "").append(qualifiers[q]);
    out.emplace_back(std::move(key), static_cast<size_t>(at.data() - c.data()));
  };
  for (const auto& w : StageWords(c)) {
    size_t p = ProgramAt(w);
    if (p >= w.size()) continue;
    std::string_view program = FileNameOf(w[p]);
    // The project's own test script, run by its path or by an interpreter
    // (`./scripts/test.sh`, `bin/test`, `bash scripts/run-tests.sh unit`, `python
    // tools/run_tests.py`); not the shell's `test`, which is named by no path.
    std::string_view script = w[p];
    for (std::string_view shell : {"bash", "sh", "zsh", "python", "python3", "node", "ruby", "perl",
                                   "pwsh", "powershell", "uv"}) {
      if (program != shell) continue;
      size_t a = p + 1;
      if (program == "uv" && a < w.size() && w[a] == "run") ++a;
      while (a < w.size() && w[a].starts_with("-")) ++a;
      script = a < w.size() ? w[a] : std::string_view();
    }
    if (script.find('/') != std::string_view::npos) {
      std::string_view name = FileNameOf(script);
      for (std::string_view ext : {".sh", ".bash", ".py", ".js", ".mjs", ".rb", ".pl", ".ps1"}) {
        if (name.ends_with(ext)) name.remove_suffix(ext.size());
      }
      auto parts = NameParts(name);
      if (!name.empty() && std::any_of(parts.begin(), parts.end(), TestWord)) {
        add(name, script);
        continue;
      }
    }
    if (std::find(kRunners.begin(), kRunners.end(), program) == kRunners.end()) continue;
    for (size_t i = p + 1; i < w.size(); ++i) {
      std::string_view t = w[i];
      if (i == p + 1 && (t == "exec" || t == "dlx" || t == "x" || t == "add" || t == "install" ||
                         t == "remove" || t == "create"))
        break;  // `npx`-like: another program's words follow
      if (t.starts_with("-") || t.find_first_of("=/'\"") != std::string_view::npos) continue;
      auto parts = NameParts(t);
      if (std::any_of(parts.begin(), parts.end(), TestWord)) add(t, t);
    }
  }
  return out;
}

// Whether a target's name says it runs, serves, inspects or cleans something
// rather than building it: `logs`, `deploy-staging`, `db-migrate`, `up`. A name
// with a building part builds (`docker-build`, `build-and-deploy`, `all`).
bool OperationTarget(std::string_view target) {
  static constexpr std::array<std::string_view, 40> kOperations = {
      "clean",  "distclean", "mrproper", "realclean", "logs",    "log",     "deploy",  "run",
      "up",     "down",      "start",    "stop",      "restart", "serve",   "server",  "dev",
      "shell",  "console",   "help",     "lint",      "fmt",     "format",  "migrate", "seed",
      "ps",     "status",    "tail",     "watch",     "open",    "publish", "push",    "pull",
      "upload", "exec",      "attach",   "reset",     "destroy", "apply",   "plan",    "rollback"};
  auto parts = NameParts(target);
  bool operation = false;
  for (std::string_view part : parts) {
    if (part == "build" || part == "all" || part == "compile") return false;
    if (std::find(kOperations.begin(), kOperations.end(), part) != kOperations.end())
      operation = true;
  }
  return operation;
}

// Whether the make runs of `c` (lower case) build anything: a stage whose
// program is make builds unless it is a dry run or a question (`make -n
// deploy`, `make -q`, `make --help`) or every target it names is an operation
// (`make logs svc=web`, `make down up`). A command with no make stage keeps what
// its words say.
bool MakeBuilds(std::string_view c) {
  bool any = false;
  for (const auto& w : StageWords(c)) {
    size_t p = ProgramAt(w);
    if (p >= w.size()) continue;
    std::string_view program = FileNameOf(w[p]);
    if (program != "make" && program != "gmake") continue;
    any = true;
    bool looks = false, targets = false, builds = false;
    for (size_t i = p + 1; i < w.size(); ++i) {
      std::string_view t = w[i];
      if (t == "-n" || t == "--dry-run" || t == "--just-print" || t == "--recon" || t == "-q" ||
          t == "--question" || t == "-p" || t == "--print-data-base" || t == "--help" ||
          t == "-h" || t == "-v" || t == "--version") {
        looks = true;
        continue;
      }
      if (t == "-c" || t == "-f" || t == "-o" || t == "--file" || t == "--directory" ||
          t == "--include-dir") {
        ++i;  // the option's value (lower case: -C, -f, -o)
        continue;
      }
      if ((t == "-j" || t == "-l") && i + 1 < w.size() &&
          std::all_of(w[i + 1].begin(), w[i + 1].end(),
                      [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); })) {
        ++i;
        continue;
      }
      if (t.starts_with("-") || t.find('=') != std::string_view::npos || t.starts_with(">") ||
          t.starts_with("2>") || t.starts_with("<"))
        continue;
      targets = true;
      if (!OperationTarget(t)) builds = true;
    }
    if (!looks && (!targets || builds)) return true;
  }
  return !any;
}

// Whether `c` (lower case) runs what the words `words` of a table name: "make"
// only when a make stage builds (MakeBuilds).
bool RunsWords(std::string_view c, std::string_view words) {
  return HasWords(c, words) && (words != "make" || MakeBuilds(c));
}

// `command` as intents read it: lower case, quotes blanked, Windows suffixes
// and package managers' workspace options taken off.
std::string Normalised(std::string_view command) {
  return WithoutWorkspaceOptions(
      Unquoted(WithoutWindowsSuffixes(text::AsciiLower(command.substr(0, 2000)))));
}

}  // namespace

bool DryRun(std::string_view stage) {
  const std::string c = Unquoted(text::AsciiLower(stage.substr(0, 2000)));
  for (const auto& w : StageWords(c)) {
    size_t p = ProgramAt(w);
    if (p >= w.size()) continue;
    std::string_view program = FileNameOf(w[p]);
    for (size_t i = p + 1; i < w.size(); ++i) {
      std::string_view a = w[i];
      if (a == "--dry-run" || a == "--dryrun" || a == "--just-print" || a == "--recon" ||
          a == "--what-if" || a == "--whatif")
        return true;
      if ((program == "make" || program == "gmake") && a == "-n") return true;
      if (program == "rsync" && a.size() > 1 && a[0] == '-' && a[1] != '-' &&
          a.find('n') != std::string_view::npos)
        return true;
    }
  }
  return false;
}

namespace {

// `command` with its dry-run stages blanked out, its length kept: `npm run build
// && npm pack --dry-run` built, and packed nothing.
std::string WithoutDryRuns(std::string_view command) {
  std::string c(command.substr(0, 2000));
  const std::string bare = Unquoted(c);
  size_t pos = 0;
  while (pos < c.size()) {
    size_t end = bare.find_first_of(";&|\n", pos);
    if (end == std::string::npos) end = c.size();
    if (DryRun(std::string_view(c).substr(pos, end - pos)))
      std::fill(c.begin() + static_cast<long>(pos), c.begin() + static_cast<long>(end), ' ');
    pos = end + 1;
  }
  return c;
}

}  // namespace

std::string OutcomeKind(std::string_view command) {
  std::string c = WithoutWindowsSuffixes(text::AsciiLower(WithoutDryRuns(command)));
  std::string what;
  if (std::string kind = PackageKind(c, &what); !kind.empty()) return kind;
  c = WithoutWorkspaceOptions(c);
  if (HasWords(c, "git commit")) return "commit";
  if (HasWords(c, "git push")) return "push";
  if (HasWords(c, "gh pr create")) return "pr";
  for (std::string_view t : kTests) {
    if (HasWords(c, t)) return "test";
  }
  // A test target or sub-command outside quotes (a comment's "smoke test" runs
  // none), or in what a stage runs over ssh.
  std::string runs = Unquoted(c);
  for (std::string_view there : RemoteCommands(c))
    runs.append("\n").append(Unquoted(std::string(there)));
  if (!TestTargetsAt(runs).empty() || SaysSubcommand(runs, "test")) return "test";
  for (std::string_view b : kBuilds) {
    if (RunsWords(c, b)) return "build";
  }
  return SaysSubcommand(c, "build") ? "build" : "";
}

namespace {

// Every intent lore judges by, in the order a tie at one place is settled
// (a test runner before the build tool it starts with: "make test").
std::vector<std::pair<std::string_view, std::string>> IntentTable() {
  std::vector<std::pair<std::string_view, std::string>> out = {
      {"git commit", "commit"}, {"git push", "push"}, {"gh pr create", "pr"}};
  for (std::string_view t : kTests) out.emplace_back(t, "test:" + std::string(t));
  for (std::string_view b : kBuilds) out.emplace_back(b, "build:" + std::string(b));
  return out;
}

}  // namespace

std::string Intent(std::string_view command) {
  const std::string c = Normalised(command);
  std::string what;
  if (!PackageKind(c, &what).empty()) return "";
  std::string best;
  size_t best_at = 0;
  for (const auto& [words, intent] : IntentTable()) {
    size_t at = LastWords(c, words);
    if (at == std::string_view::npos || (words == "make" && !MakeBuilds(c))) continue;
    if (best.empty() || at > best_at) best = intent, best_at = at;
  }
  // A test target run through a task runner, unless a test runner names it
  // ("make test" is the runner's "test:make test", "make loader-test" no build).
  for (auto& [key, at] : TestTargetsAt(c)) {
    if (best.empty() || (at > best_at && !best.starts_with("test:"))) best = key, best_at = at;
  }
  return best;
}

std::vector<std::string> IntentsOf(std::string_view command) {
  std::vector<std::string> out;
  const std::string c = Normalised(WithoutDryRuns(command));
  for (const auto& [words, intent] : IntentTable()) {
    if (RunsWords(c, words)) out.push_back(intent);
  }
  for (auto& [key, at] : TestTargetsAt(c)) {
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(std::move(key));
  }
  return out;
}

namespace {

// The number after `gh pr <verb>` in a stage of `c` (lower case), or "".
std::string PrNumber(std::string_view c, std::string_view verb) {
  for (const auto& w : StageWords(c)) {
    size_t p = ProgramAt(w);
    if (w.size() < p + 3) continue;
    if (FileNameOf(w[p]) != "gh" || w[p + 1] != "pr" || w[p + 2] != verb) continue;
    for (size_t i = p + 3; i < w.size(); ++i) {
      std::string_view n = w[i];
      if (n.starts_with("#")) n.remove_prefix(1);
      if (!n.empty() && n.size() <= 9 && std::all_of(n.begin(), n.end(), [](char ch) {
            return std::isdigit(static_cast<unsigned char>(ch));
          }))
        return std::string(n);
      if (!w[i].starts_with("-")) break;
    }
  }
  return "";
}

}  // namespace

std::string ChecksOf(std::string_view command) {
  const std::string n = PrNumber(Unquoted(text::AsciiLower(command.substr(0, 2000))), "checks");
  return n.empty() ? "" : "merged:" + n;
}

std::vector<std::string> MergedBy(std::string_view command, std::string_view output) {
  std::vector<std::string> out;
  if (command.find("gh") == std::string_view::npos) return out;
  const std::string c = Unquoted(text::AsciiLower(command.substr(0, 2000)));
  if (std::string n = PrNumber(c, "merge"); !n.empty()) out.push_back("merged:" + n);
  if (std::string n = PrNumber(c, "view"); !n.empty()) {
    const std::string_view head = output.substr(0, 4096);
    if (head.find("MERGED") != std::string_view::npos ||
        head.find("\"merged\"") != std::string_view::npos)
      out.push_back("merged:" + n);
  }
  return out;
}

std::vector<std::string> BuiltBy(std::string_view output) {
  struct Verdict {
    std::string_view line_start;
    std::array<std::string_view, 2> intents;
  };
  static constexpr std::array<Verdict, 9> kVerdicts = {{
      {"Finished `", {"build:cargo build", ""}},
      {"Finished dev ", {"build:cargo build", ""}},
      {"Finished release ", {"build:cargo build", ""}},
      {"BUILD SUCCESSFUL", {"build:gradle build", "build:./gradlew build"}},
      {"[INFO] BUILD SUCCESS", {"build:mvn package", ""}},
      {"Build succeeded.", {"build:dotnet build", ""}},
      {"Build complete!", {"build:swift build", ""}},
      {"** BUILD SUCCEEDED **", {"build:xcodebuild", ""}},
      {"** TEST SUCCEEDED **", {"build:xcodebuild", ""}},
  }};
  std::vector<std::string> out;
  const std::string_view text = output.substr(0, 256 * 1024);
  for (const auto& v : kVerdicts) {
    for (size_t at = text.find(v.line_start); at != std::string_view::npos;
         at = text.find(v.line_start, at + 1)) {
      // At a line's start, past its indent (cargo right-aligns its verbs).
      size_t b = at;
      while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t')) --b;
      if (b > 0 && text[b - 1] != '\n' && text[b - 1] != '\r') continue;
      for (std::string_view intent : v.intents) {
        if (!intent.empty() && std::find(out.begin(), out.end(), intent) == out.end())
          out.emplace_back(intent);
      }
      break;
    }
  }
  return out;
}

namespace {

// The words of `s` split at anything but ASCII letters and digits, lower case.
std::vector<std::string> AlnumWords(std::string_view s) {
  std::vector<std::string> out;
  std::string word;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char ch = i < s.size() ? s[i] : ' ';
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!word.empty()) {
      out.push_back(std::move(word));
      word.clear();
    }
  }
  return out;
}

// The names of the tests a test run selects, as lower-case words of letters and
// digits: a filter's value (`--filter=DueDateTest`, `-k test_split`, `-t "walks
// pages"`, `-run TestX`), and the file and test a path names
// (`tests/Feature/DueDateTest.php`, `tests/test_api.py::test_login`); empty for a
// run of the whole suite.
std::vector<std::string> TestsNamed(std::string_view command) {
  static constexpr std::array<std::string_view, 10> kSelect = {
      "--filter",          "-k", "-t",    "--grep", "-run", "--tests", "-only-testing",
      "--testnamepattern", "-g", "--spec"};
  static constexpr std::array<std::string_view, 9> kNoName = {
      "test", "tests", "spec", "specs", "php", "py", "ts", "js", "rb"};
  std::vector<std::string> out;
  auto add = [&](std::string_view value) {
    for (std::string& word : AlnumWords(value)) {
      if (word.size() >= 3 && std::find(kNoName.begin(), kNoName.end(), word) == kNoName.end() &&
          std::find(out.begin(), out.end(), word) == out.end())
        out.push_back(std::move(word));
    }
  };
  std::string_view previous;
  const std::string_view c = command.substr(0, 2000);
  for (size_t i = 0; i < c.size() && out.size() < 16;) {
    while (i < c.size() && c[i] == ' ') ++i;
    size_t j = c.find(' ', i);
    if (j == std::string_view::npos) j = c.size();
    std::string_view w = c.substr(i, j - i);
    i = j;
    while (!w.empty() && (w.front() == '"' || w.front() == '\'')) w.remove_prefix(1);
    while (!w.empty() && (w.back() == '"' || w.back() == '\'')) w.remove_suffix(1);
    const std::string low = text::AsciiLower(w);
    bool selected = false;
    for (std::string_view s : kSelect) {
      if (previous == s) selected = true;
      if (low.starts_with(std::string(s) + "=")) {
        add(w.substr(s.size() + 1));
        selected = false;
        previous = {};
        break;
      }
    }
    if (selected) {
      add(w);
    } else if (w.find('/') != std::string_view::npos &&
               (low.find("test") != std::string::npos || low.find("spec") != std::string::npos) &&
               !w.starts_with("-")) {
      add(FileNameOf(w));
    }
    previous = {};
    for (std::string_view s : kSelect) {
      if (low == s) previous = s;
    }
  }
  return out;
}

}  // namespace

bool SameTestsPass(std::string_view failed, std::string_view passed) {
  if (OutcomeKind(failed) != "test" || OutcomeKind(passed) != "test") return false;
  const std::vector<std::string> named = TestsNamed(failed);
  if (named.empty()) return false;
  const std::vector<std::string> words = AlnumWords(passed.substr(0, 2000));
  return std::all_of(named.begin(), named.end(), [&](const std::string& n) {
    return std::find(words.begin(), words.end(), n) != words.end();
  });
}

std::vector<std::string> TestTargets(std::string_view command) {
  std::vector<std::string> out;
  for (auto& [key, at] : TestTargetsAt(Normalised(command))) out.push_back(std::move(key));
  return out;
}

bool TestRunCovers(std::string_view failed, std::string_view key) {
  if (!key.starts_with("test*")) return false;
  const std::string intent = Intent(failed);
  if (!intent.starts_with("test:") && !intent.starts_with("test*")) return false;
  // The failing command's words, split at anything but letters and digits.
  const std::vector<std::string> words = AlnumWords(Normalised(failed));
  std::string_view qualifiers = key.substr(5);
  while (!qualifiers.empty()) {
    size_t plus = qualifiers.find('+');
    std::string_view q = qualifiers.substr(0, plus);
    if (std::find(words.begin(), words.end(), q) == words.end()) return false;
    qualifiers = plus == std::string_view::npos ? "" : qualifiers.substr(plus + 1);
  }
  return true;
}

std::vector<std::string> FolderIntents(std::string_view command) {
  std::vector<std::string> out;
  const std::string c = text::AsciiLower(command.substr(0, 2000));
  const std::string kind = OutcomeKind(c);
  if (kind != "build" && kind != "test") return out;
  for (const auto& w : StageWords(c)) {
    for (size_t i = 0; i < w.size(); ++i) {
      std::string_view folder;
      for (std::string_view flag :
           {"-c", "-b", "--build", "--build-dir", "--builddir", "--test-dir"}) {
        if (w[i] == flag && i + 1 < w.size()) folder = w[i + 1];
        if (w[i].starts_with(flag) && w[i].size() > flag.size() + 1 && w[i][flag.size()] == '=')
          folder = w[i].substr(flag.size() + 1);
      }
      while (folder.size() > 1 && folder.back() == '/') folder.remove_suffix(1);
      if (folder.empty() || folder.starts_with("-") || folder == ".") continue;
      std::string intent = kind + "@" + std::string(folder);
      if (std::find(out.begin(), out.end(), intent) == out.end()) out.push_back(std::move(intent));
    }
  }
  return out;
}

bool Achieves(std::string_view command, std::string_view intent) {
  if (intent.empty()) return false;
  const std::string c = Normalised(WithoutDryRuns(command));
  for (const auto& [words, name] : IntentTable()) {
    if (name == intent) return RunsWords(c, words);
  }
  return false;
}

void OutcomeReader::Take(const Event& e) {
  if (e.sidechain) return;
  if (e.kind == EventKind::kToolUse) {
    if (e.tool_name != "Bash") return;
    std::string kind = OutcomeKind(e.detail);
    if (kind.empty()) return;
    if (calls_.size() >= kMaxOutcomeCalls) calls_.pop_front();
    calls_.push_back({e.tool_id, e.detail, std::move(kind), e.line});
    return;
  }
  if (e.kind != EventKind::kToolResult) return;
  auto it =
      std::find_if(calls_.begin(), calls_.end(), [&](const Call& c) { return c.id == e.tool_id; });
  if (it == calls_.end()) return;
  Call call = std::move(*it);
  calls_.erase(it);
  if (e.status != ResultStatus::kOk && e.status != ResultStatus::kFailed) return;
  Outcome o;
  o.kind = call.kind;
  o.ok = e.status == ResultStatus::kOk;
  o.first_line = call.line;
  o.last_line = e.line;
  o.at = e.at;
  const std::string failure = o.ok ? "" : FirstErrorLine(e.text, kDetailBytes);
  if (call.kind == "commit") {
    if (e.text.find("nothing to commit") != std::string::npos ||
        e.text.find("no changes added to commit") != std::string::npos)
      return;  // no commit was made
    o.what = CommitMessage(call.command);
    o.detail = o.ok ? CommitLine(e.text) : failure;
    if (o.what.empty() && o.ok) {
      // "[main 2828430] Update docs": the message follows the bracket.
      size_t b = o.detail.find("] ");
      if (b != std::string::npos) o.what = o.detail.substr(b + 2);
    }
  } else if (call.kind == "install" || call.kind == "remove") {
    std::string what;
    PackageKind(text::AsciiLower(call.command.substr(0, 2000)), &what);
    o.what = Excerpt(what, kWhatBytes);
    o.detail = o.ok ? "" : failure;
  } else if (call.kind == "push") {
    o.what = FirstLine(call.command, kWhatBytes);
    o.detail = o.ok ? LineWith(e.text, {"->", "Everything up-to-date"})
                    : LineWith(e.text, {"[rejected]", "rejected", "error:", "fatal:"});
    if (!o.ok && o.detail.empty()) o.detail = failure;
  } else {
    o.what = FirstLine(call.command, kWhatBytes);
    o.detail =
        o.ok ? VerdictLine(e.text) : (VerdictLine(e.text).empty() ? failure : VerdictLine(e.text));
  }
  if (o.what.empty()) o.what = FirstLine(call.command, kWhatBytes);
  if (out_.size() < 512) out_.push_back(std::move(o));
}

}  // namespace lore::activity
