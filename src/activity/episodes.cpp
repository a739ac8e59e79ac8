#include "lore/activity/episodes.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "activity/excerpt.h"
#include "lore/activity/outcomes.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kMaxEpisodeCalls = 256;
constexpr size_t kCauseBytes = 300;
constexpr size_t kActionBytes = 200;
constexpr size_t kErrorBytes = 300;
constexpr size_t kMaxEpisodeFiles = 8;
constexpr size_t kMaxEpisodes = 512;

bool Tracked(std::string_view t) { return t == "Bash" || IsFileEditTool(t); }

// Splits a shell command's last pipeline stage into words (quotes kept
// inside words, so that a message is one word).
std::vector<std::string_view> Words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size() && out.size() < 16) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    size_t start = i;
    char quote = 0;
    while (i < s.size()) {
      char c = s[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == ' ' || c == '\t') {
        break;
      }
      ++i;
    }
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

// The stages of a shell command: split on unquoted "&&", "||", ";" and line
// ends, each without what it pipes into ("npm test | tail" is "npm test"),
// set-up stages (cd, export, source, set, pushd) left out.
std::vector<std::string_view> Stages(std::string_view command) {
  std::vector<std::string_view> out;
  auto add = [&](std::string_view st) {
    size_t a = st.find_first_not_of(" \t");
    if (a == std::string_view::npos) return;
    st = st.substr(a);
    for (std::string_view w : {"cd ", "export ", "source ", "set ", ". ", "pushd ", "popd"}) {
      if (st.starts_with(w)) return;
    }
    if (out.size() < 16) out.push_back(st);
  };
  size_t start = 0;
  char quote = 0;
  bool piped = false;  // past an unquoted '|' of this stage
  size_t stage_end = std::string_view::npos;
  for (size_t i = 0; i <= command.size(); ++i) {
    char c = i < command.size() ? command[i] : '\n';
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      continue;
    }
    bool cut = c == '\n' || c == ';' ||
               ((c == '&' || c == '|') && i + 1 < command.size() && command[i + 1] == c);
    if (cut) {
      add(command.substr(start, (piped ? stage_end : i) - start));
      if (c != '\n' && c != ';') ++i;
      start = i + 1;
      piped = false;
      continue;
    }
    if (c == '|' && !piped) {
      piped = true;
      stage_end = i;
    }
  }
  return out;
}

// The words of a stage that say what it does: without sudo, env, variable
// assignments and redirections of the standard streams.
std::vector<std::string_view> Meaningful(std::string_view stage) {
  std::vector<std::string_view> out;
  bool program = false;
  for (std::string_view w : Words(stage)) {
    if (!program && (w == "sudo" || w == "env" || w == "command" || w == "time" || w == "nohup" ||
                     (w.find('=') != std::string_view::npos && w.front() != '-' &&
                      w.front() != '\'' && w.front() != '"'))) {
      continue;
    }
    program = true;
    if (w == "2>&1" || w == "2>/dev/null" || w == ">/dev/null" || w == "&>/dev/null") continue;
    out.push_back(w);
  }
  return out;
}

// A sentence that announces what comes next, or starts with an acknowledgement
// ("Good, the build passes" says nothing a diagnosis needs).
bool AnnouncesOnly(std::string_view sentence) {
  if (Announces(sentence)) return true;
  std::string low = text::AsciiLower(sentence.substr(0, 12));
  for (std::string_view w : {"next, ", "ok", "okay", "great", "perfect", "good", "excellent"}) {
    if (low.starts_with(w)) return true;
  }
  return false;
}

std::string ProgramOf(const std::vector<std::string_view>& words) {
  return words.empty() ? "" : text::AsciiLower(FileNameOf(words[0]));
}

// The sub-command: the second word when it is a plain word (push, test, install).
std::string SubcommandOf(const std::vector<std::string_view>& words) {
  if (words.size() < 2) return "";
  std::string_view next = words[1];
  if (next.empty() || !std::isalpha(static_cast<unsigned char>(next[0])) ||
      next.find_first_of("/.=:") != std::string_view::npos || next.size() > 24)
    return "";
  return text::AsciiLower(next);
}

// The words of a stage past its program and sub-command: what it works on.
std::vector<std::string_view> Arguments(const std::vector<std::string_view>& words) {
  size_t skip = words.empty() ? 0 : SubcommandOf(words).empty() ? 1 : 2;
  return std::vector<std::string_view>(
      words.begin() + static_cast<long>(std::min(skip, words.size())), words.end());
}

// True when a stage runs all of what its program does, naming no part of it: no
// word past its sub-command but options that select nothing (`-q`, `--info`,
// `--no-daemon`); `--tests x`, `-k x`, `-p x`, `--filter x`, `-R x`, `--grep x`
// and every plain word (a path, a test's name) select.
bool WholeRun(const std::vector<std::string_view>& words) {
  for (std::string_view a : Arguments(words)) {
    if (!a.starts_with("-")) return false;
    std::string_view flag = a.substr(0, a.find('='));
    // It says what it is, and runs nothing.
    if (flag == "--version" || flag == "--help" || flag == "-h" || flag == "-V") return false;
    for (std::string_view select :
         {"--tests", "-k",    "-t",     "-p",        "--package", "--filter",     "-f",
          "-R",      "-E",    "--grep", "-g",        "-m",        "-run",         "--only",
          "--test",  "--bin", "--lib",  "--example", "--scheme",  "-only-testing"}) {
      if (flag == select) return false;
    }
  }
  return true;
}

// True when a command builds or runs for a platform it names (`--target aarch64-…`,
// `--platform linux/arm64`, `-DIDF_TARGET=esp32s3`, xcodebuild's `-destination`).
bool NamesAPlatform(std::string_view command) {
  std::string low = text::AsciiLower(command.substr(0, 2000));
  for (std::string_view flag : {"--target", "--platform", "--arch", "-destination", "_target="}) {
    if (low.find(flag) != std::string::npos) return true;
  }
  return false;
}

// True when two stages work on the same things: the failing one names no
// argument, or most arguments of the one with fewer are in the other's.
bool Overlap(const std::vector<std::string_view>& failed, const std::vector<std::string_view>& ok) {
  auto a = Arguments(failed), b = Arguments(ok);
  if (a.empty()) return true;  // "git push", "make": any later run of it answers
  if (b.empty()) return false;
  size_t common = 0;
  for (auto x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) ++common;
  }
  return common * 5 >= std::min(a.size(), b.size()) * 3;
}

// True when `ok` runs what `failed` ran, by another program or under a wrapper:
// the failed stage's words past its program and sub-command, three or more,
// stand together in `ok` (`fvm dart run build_runner build --delete-conflicting-outputs`
// after `flutter pub run build_runner build --delete-conflicting-outputs`;
// `./scripts/with_key.sh fvm flutter build appbundle --release` after `fvm
// flutter build appbundle --release`).
bool RunsTheSameWork(const std::vector<std::string_view>& failed,
                     const std::vector<std::string_view>& ok) {
  const auto a = Arguments(failed);
  if (a.size() < 3 || ok.size() < a.size()) return false;
  return std::search(ok.begin(), ok.end(), a.begin(), a.end()) != ok.end();
}

// True when a stage only reports or waits (`echo "exit=$?"`, `true`, `sleep 2`).
bool Reports(std::string_view stage) {
  auto w = Meaningful(stage);
  const std::string program = ProgramOf(w);
  for (std::string_view p : {"echo", "printf", "true", "false", ":", "sleep", "exit", "date"}) {
    if (program == p) return true;
  }
  return w.empty();
}

// A stage that runs a command on another machine (`ssh [options] [user@]host
// 'cd /opt/app && ./deploy.sh'`): the host, without its user, and the command,
// its outer quotes taken off.
struct Remote {
  std::string_view host, command;
};
// `depth`: how many ssh commands `stage` is inside; a fourth is read no further, nor
// a stage of over 8 KiB (what is run over ssh is read again at each level).
std::optional<Remote> RemoteOf(std::string_view stage, int depth) {
  if (depth >= 3 || stage.size() > 8192) return std::nullopt;
  auto w = Meaningful(stage);
  if (ProgramOf(w) != "ssh") return std::nullopt;
  size_t i = 1;
  while (i < w.size() && w[i].starts_with("-")) {
    // An option that takes its value as the next word (`-p 2222`, `-i key`).
    if (w[i].size() == 2 &&
        std::string_view("bcDEeFIiJLlmOopQRSWw").find(w[i][1]) != std::string_view::npos)
      ++i;
    ++i;
  }
  if (i + 1 >= w.size()) return std::nullopt;  // a login, no command
  std::string_view host = w[i];
  if (size_t at = host.rfind('@'); at != std::string_view::npos) host = host.substr(at + 1);
  std::string_view command = stage.substr(static_cast<size_t>(w[i + 1].data() - stage.data()));
  while (!command.empty() && (command.back() == ' ' || command.back() == '\t'))
    command.remove_suffix(1);
  if (command.size() >= 2 && (command.front() == '\'' || command.front() == '"') &&
      command.back() == command.front())
    command = command.substr(1, command.size() - 2);
  if (host.empty() || command.empty()) return std::nullopt;
  return Remote{host, command};
}

// True when the unquoted separators of `command` are all "&&": its success
// says that every stage worked (no `;`, `||`, pipe or background job).
bool OnlyAnd(std::string_view command) {
  char quote = 0;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '&' && i + 1 < command.size() && command[i + 1] == '&') {
      ++i;
    } else if (c == '&' && ((i > 0 && command[i - 1] == '>') ||
                            (i + 1 < command.size() && command[i + 1] == '>'))) {
      // a redirection: 2>&1, &>/dev/null
    } else if (c == ';' || c == '|' || c == '&' || c == '\n') {
      return false;
    }
  }
  return true;
}

// The last stage of a command that does something (past a trailing `; echo …`).
std::optional<std::string_view> MainStage(std::string_view command) {
  auto stages = Stages(command);
  if (stages.empty()) return std::nullopt;
  size_t last = stages.size() - 1;
  while (last > 0 && Reports(stages[last])) --last;
  return stages[last];
}

// True when the success of call `ok` answers the failure of call `failed`:
// the same file for a file tool; for shell commands, a stage of `ok` that
// runs the same program or sub-command as the failing command's last stage
// (what the chain set out to do, past its set-up: `printf … > x.cfg && idf.py
// build`) on mostly the same words ("git pull --rebase && git push" after "git
// push"; "bun install -g x" after "npm install -g x").
bool AnswersImpl(std::string_view tool, std::string_view failed, std::string_view ok_tool,
                 std::string_view ok, int depth = 0) {
  if (tool != "Bash" || ok_tool != "Bash") {
    return tool == ok_tool && FileNameOf(failed) == FileNameOf(ok);
  }
  // The last stage that does something: not a trailing `; echo "exit=$?"` or `|| true`.
  auto main_stage = MainStage(failed);
  if (!main_stage) return false;
  // A command run over ssh is answered by one run on the same host that answers it there.
  if (auto remote = RemoteOf(*main_stage, depth)) {
    for (std::string_view stage : Stages(ok)) {
      auto there = RemoteOf(stage, depth);
      if (there && there->host == remote->host &&
          AnswersImpl(tool, remote->command, ok_tool, there->command, depth + 1))
        return true;
    }
  }
  auto f = Meaningful(*main_stage);
  const std::string prog = ProgramOf(f), sub = SubcommandOf(f);
  for (std::string_view stage : Stages(ok)) {
    if (DryRun(stage)) continue;  // `make -n deploy` shows what a deploy would do
    auto w = Meaningful(stage);
    // The same program doing another thing (`cargo tree` after `cargo build`) answers
    // nothing; the same sub-command of another program may (`bun install` after `npm
    // install`).
    const std::string other = SubcommandOf(w);
    bool same = (ProgramOf(w) == prog && (sub.empty() || other.empty() || other == sub)) ||
                (!sub.empty() && other == sub);
    if (same && Overlap(f, w)) return true;
    if (RunsTheSameWork(f, w) && !NamesAPlatform(*main_stage)) return true;
    // The whole run of a test runner or build (`./gradlew.bat test`) after a failed run of
    // part of it (`./gradlew.bat test --tests "*ParsingTest"`) covers it.
    // Not across platforms: a host build is no answer to a cross build's failure.
    // The same sub-command, or none on both sides: `flutter --version` is no whole run
    // of `flutter pub run build_runner build`.
    if (same && ProgramOf(w) == prog && other == sub && WholeRun(w) &&
        !OutcomeKind(*main_stage).empty() && !NamesAPlatform(*main_stage))
      return true;
  }
  return false;
}

// The agent's first sentence after a failure saying it went well after all
// ("Both are installed successfully!", "Pushed!"), or that the failure was what
// was meant ("exit 1 is expected there, the fixture has two deliberately broken
// links": a checker finding what it should): the failure was resolved.
bool ReportsSuccess(std::string_view text) {
  std::string first = text::AsciiLower(FirstSentence(text, 200));
  bool meant = false;
  for (std::string_view w :
       {"is expected", "was expected", "are expected", "as expected", "expected to fail",
        "expected failure", "expected exit", "deliberately", "intentionally", "as intended"})
    meant = meant || first.find(w) != std::string::npos;
  if (meant &&
      (first.find("exit") != std::string::npos || first.find("fail") != std::string::npos ||
       first.find("broken") != std::string::npos) &&
      first.find("not ") == std::string::npos && first.find("n't ") == std::string::npos &&
      first.find("unexpected") == std::string::npos)
    return true;
  for (std::string_view w : {"but ", "fail", "error", "not ", "n't ", "issue", "problem"}) {
    if (first.find(w) != std::string::npos) return false;
  }
  for (std::string_view w : {"success", "installed", "done", "pushed", "fixed", "resolved",
                             "works now", "now works", "working now", "complete", "\u2705"}) {
    if (first.find(w) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

bool Answers(std::string_view tool, std::string_view failed, std::string_view ok_tool,
             std::string_view ok) {
  return AnswersImpl(tool, failed, ok_tool, ok);
}

std::string CommandKey(std::string_view tool, std::string_view detail) {
  if (tool != "Bash")
    return text::AsciiLower(std::string(tool) + " " + std::string(FileNameOf(detail)));
  auto stages = Stages(detail);
  if (stages.empty()) return text::AsciiLower(detail.substr(0, 40));
  auto w = Meaningful(stages.front());
  std::string key = ProgramOf(w);
  if (std::string sub = SubcommandOf(w); !sub.empty()) key += " " + sub;
  return key;
}

namespace {

std::string RunKeyAt(std::string_view command, int depth) {
  auto stage = MainStage(command);
  if (!stage) return "";
  if (auto remote = RemoteOf(*stage, depth)) {
    // What it ran over there: "ssh etl01: ./scripts/backfill.sh 2026-11-10".
    if (std::string there = RunKeyAt(remote->command, depth + 1); !there.empty())
      return text::AsciiLower("ssh " + std::string(remote->host) + ": ") + there;
  }
  std::string key;
  for (std::string_view w : Meaningful(*stage)) {
    if (!key.empty()) key += ' ';
    key.append(w);
  }
  return text::AsciiLower(key);
}

std::vector<std::string> RunKeysAt(std::string_view command, bool quiet, int depth) {
  std::vector<std::string> out;
  auto add = [&out](std::string key) {
    if (!key.empty() && std::find(out.begin(), out.end(), key) == out.end())
      out.push_back(std::move(key));
  };
  add(RunKeyAt(command, depth));
  if (!quiet && !OnlyAnd(command)) return out;
  for (std::string_view stage : Stages(command)) {
    if (auto remote = RemoteOf(stage, depth)) {
      const std::string there = text::AsciiLower("ssh " + std::string(remote->host) + ": ");
      for (std::string& key : RunKeysAt(remote->command, quiet, depth + 1)) add(there + key);
    } else {
      add(RunKeyAt(stage, depth));
    }
  }
  return out;
}

bool IsLookupAt(std::string_view command, int depth) {
  auto stage = MainStage(command);
  if (!stage) return false;
  if (auto remote = RemoteOf(*stage, depth)) return IsLookupAt(remote->command, depth + 1);
  const std::string program = ProgramOf(Meaningful(*stage));
  for (std::string_view p :
       {"grep", "egrep", "rg",    "ag",     "cat",  "ls",    "find",     "fd",       "head",
        "tail", "less",  "which", "where",  "stat", "file",  "wc",       "du",       "tree",
        "test", "[",     "type",  "whoami", "ps",   "pgrep", "readlink", "realpath", "echo"}) {
    if (program == p) return true;
  }
  return false;
}

}  // namespace

std::string RunKey(std::string_view command) { return RunKeyAt(command, 0); }

std::vector<std::string> RunKeys(std::string_view command, bool quiet) {
  return RunKeysAt(command, quiet, 0);
}

bool IsLookup(std::string_view command) { return IsLookupAt(command, 0); }

std::vector<std::string_view> RemoteCommands(std::string_view command) {
  std::vector<std::string_view> out;
  for (std::string_view stage : Stages(command)) {
    if (auto remote = RemoteOf(stage, 0)) out.push_back(remote->command);
  }
  return out;
}

std::vector<std::string> ProgramsOf(std::string_view command) {
  std::vector<std::string> out;
  for (std::string_view stage : Stages(command)) {
    std::string program = ProgramOf(Meaningful(stage));
    if (!program.empty()) out.push_back(std::move(program));
  }
  return out;
}

std::string ErrorSignature(std::string_view error) {
  std::string line = FirstErrorLine(error, 400);
  if (line.empty()) return "";
  std::string out;
  out.reserve(line.size());
  for (size_t i = 0; i < line.size();) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if (std::isdigit(c) ||
        (std::isxdigit(c) && i + 6 < line.size() &&
         std::all_of(line.begin() + static_cast<long>(i), line.begin() + static_cast<long>(i + 7),
                     [](char x) { return std::isxdigit(static_cast<unsigned char>(x)); }))) {
      while (i < line.size() && std::isxdigit(static_cast<unsigned char>(line[i]))) ++i;
      if (out.empty() || out.back() != '#') out += '#';
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') {
      size_t close = line.find(static_cast<char>(c), i + 1);
      if (close != std::string::npos && close - i < 120) {
        out += "'*'";
        i = close + 1;
        continue;
      }
    }
    if (c == '/' || c == '\\') {
      // A path: keep its last part only.
      size_t end = i;
      while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end])) &&
             line[end] != ':' && line[end] != ',' && line[end] != ')')
        ++end;
      std::string_view path(line.data() + i, end - i);
      size_t slash = path.find_last_of("/\\");
      out += "…/";
      out += path.substr(slash + 1);
      i = end;
      continue;
    }
    if (std::isspace(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      ++i;
      continue;
    }
    out += static_cast<char>(std::tolower(c));
    ++i;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return Excerpt(out, 160);
}

std::string Diagnosis(std::string_view text, size_t max_bytes) {
  std::string out;
  size_t pos = 0;
  int kept = 0;
  bool fence = false;
  while (pos < text.size() && kept < 2) {
    if (text.substr(pos, 3) == "```") {  // a code block says nothing by itself
      fence = !fence;
      size_t nl = text.find('\n', pos);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      continue;
    }
    if (fence) {
      size_t nl = text.find('\n', pos);
      pos = nl == std::string_view::npos ? text.size() : nl + 1;
      continue;
    }
    // A sentence: up to ". ", "? ", "! ", ":\n" or a line end.
    size_t end = pos;
    while (end < text.size()) {
      char c = text[end];
      if (c == '\n') break;
      if ((c == '.' || c == '!' || c == '?') &&
          (end + 1 == text.size() || text[end + 1] == ' ' || text[end + 1] == '\n')) {
        ++end;
        break;
      }
      ++end;
    }
    std::string s = Excerpt(text.substr(pos, end - pos), max_bytes);
    pos = end + 1;
    if (s.empty() || s[0] == '#' || s[0] == '`' || s[0] == '|') continue;
    // A list's number ("1.") or a lone mark is no sentence: a word of three letters is.
    bool word = false;
    for (size_t i = 0, run = 0; i < s.size() && !word; ++i) {
      run = std::isalpha(static_cast<unsigned char>(s[i])) ? run + 1 : 0;
      word = run >= 3;
    }
    if (!word) continue;
    if (s[0] == '*' && s.find(' ') == std::string::npos) continue;  // a label: "**`parse`**"
    if (s.back() == ':') {  // "Let me fix it:" introduces a block
      if (out.empty()) continue;
      break;
    }
    if (AnnouncesOnly(s)) {
      if (out.empty()) continue;
      break;
    }
    if (!out.empty()) out += ' ';
    out += s;
    ++kept;
    if (out.size() >= max_bytes / 2) break;
  }
  return Excerpt(out, max_bytes);
}

void EpisodeReader::Close() {
  if (open_ && done_.size() < kMaxEpisodes) done_.push_back(std::move(*open_));
  open_.reset();
  open_key_.clear();
  open_detail_.clear();
  calls_since_ = 0;
  texts_since_ = 0;
}

void EpisodeReader::OnResult(const Event& e) {
  auto it =
      std::find_if(calls_.begin(), calls_.end(), [&](const Call& c) { return c.id == e.tool_id; });
  if (it == calls_.end()) return;
  Call call = std::move(*it);
  calls_.erase(it);
  if (!Tracked(call.tool)) return;
  if (e.status != ResultStatus::kOk && e.status != ResultStatus::kFailed) return;
  const std::string key = CommandKey(call.tool, call.detail);
  (void)key;
  const std::string action = call.tool == "Bash"
                                 ? FirstLine(call.detail, kActionBytes)
                                 : call.tool + " " + Excerpt(call.detail, kActionBytes);
  if (e.status == ResultStatus::kFailed) {
    std::string error = FailureLines(e.text, kErrorBytes);
    // An exit code with no word of output teaches nothing.
    if (error.empty()) return;
    if (open_ && (Answers(open_->tool, open_detail_, call.tool, call.detail) ||
                  ErrorSignature(error) == ErrorSignature(open_->error))) {
      ++open_->repeats;
      open_->last_line = e.line;
      if (ErrorSignature(error) != ErrorSignature(open_->error)) {
        // The same call failing another way: where it stands now is the latest error, and
        // the agent's words after it are the diagnosis it carries.
        open_->error = std::move(error);
        open_->exit_code = e.exit_code;
        if (!e.at.empty()) open_->at = e.at;
        open_->cause.clear();
        texts_since_ = 0;
      }
      return;
    }
    Close();
    Episode ep;
    ep.tool = call.tool;
    ep.detail = Cut(call.detail, 2000);
    ep.action = action;
    ep.error = std::move(error);
    ep.exit_code = e.exit_code;
    ep.first_line = call.line;
    ep.last_line = e.line;
    ep.at = e.at;
    if (IsFileEditTool(call.tool) && !call.detail.empty()) ep.files.push_back(call.detail);
    open_ = std::move(ep);
    open_key_ = key;
    open_detail_ = call.detail;
    return;
  }
  if (!open_) return;
  ++calls_since_;
  if (IsFileEditTool(call.tool)) {
    if (!call.detail.empty() && open_->files.size() < kMaxEpisodeFiles &&
        std::find(open_->files.begin(), open_->files.end(), call.detail) == open_->files.end()) {
      open_->files.push_back(call.detail);
    }
    open_->last_line = e.line;
    if (open_->tool != "Bash" && Answers(open_->tool, open_detail_, call.tool, call.detail)) {
      open_->fix = action;  // a refused edit, done again: fixed
      Close();
    }
  } else if (Answers(open_->tool, open_detail_, call.tool, call.detail)) {
    open_->fix = action;
    open_->last_line = e.line;
    Close();
    return;
  }
  if (open_ && calls_since_ >= kMaxCallsOpen) Close();
}

void EpisodeReader::Take(const Event& e) {
  if (e.sidechain) return;
  switch (e.kind) {
    case EventKind::kToolUse:
      if (calls_.size() >= kMaxEpisodeCalls) calls_.pop_front();
      calls_.push_back({e.tool_id, e.tool_name, e.detail, e.line});
      break;
    case EventKind::kToolResult:
      OnResult(e);
      break;
    case EventKind::kAssistantText:
      if (open_ && open_->cause.empty() && texts_since_ < 3) {
        ++texts_since_;
        if (ReportsSuccess(e.text)) {
          open_.reset();  // resolved after all: neither a lesson nor a problem
          Close();
          break;
        }
        open_->cause = Diagnosis(e.text, kCauseBytes);
        if (!open_->cause.empty()) open_->last_line = std::max(open_->last_line, e.line);
      }
      break;
    case EventKind::kPersonText:
    case EventKind::kCompaction:
      Close();
      break;
    case EventKind::kInterrupt:
      break;
  }
}

std::vector<Episode> EpisodeReader::Finish() {
  Close();
  return std::move(done_);
}

}  // namespace lore::activity
