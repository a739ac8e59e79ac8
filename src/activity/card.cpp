#include "activity/card.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <utility>

#include "activity/about.h"
#include "activity/excerpt.h"
#include "activity/instructions.h"
#include "activity/places.h"
#include "activity/turns.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

constexpr size_t kTaskBytes = 300;
constexpr size_t kAskBytes = 200;
constexpr size_t kReportBytes = 700;
constexpr size_t kShortReportBytes = 80;  // a report this short adds to the one before
constexpr size_t kClosingBytes = 700;
constexpr size_t kMaxTurns = 24;
constexpr size_t kMaxCardFiles = 8;
constexpr size_t kMaxPlaces = 12;
constexpr size_t kMaxDeclined = 5;
constexpr size_t kMaxInstructions = 6;
constexpr size_t kMaxPrograms = 64;

// A program that says what the work used (git, brew, npm, docker, cmake),
// not one of the shell's own tools for looking around and moving files.
bool IsToolProgram(std::string_view p) {
  if (p.size() < 2 || p.size() > 24 || p.front() == '-' ||
      p.find_first_of("=$`'\"(){}<>|;&") != std::string_view::npos)
    return false;
  for (std::string_view w :
       {"cd",     "ls",       "cat",    "echo",    "printf",   "grep",   "rg",    "find",
        "head",   "tail",     "pwd",    "sed",     "awk",      "wc",     "mkdir", "rm",
        "cp",     "mv",       "chmod",  "chown",   "touch",    "which",  "sleep", "sort",
        "uniq",   "test",     "true",   "false",   "export",   "source", "env",   "sudo",
        "xargs",  "tr",       "cut",    "diff",    "file",     "stat",   "du",    "df",
        "date",   "whoami",   "type",   "command", "for",      "if",     "while", "do",
        "done",   "then",     "fi",     "bash",    "sh",       "zsh",    "ln",    "tee",
        "less",   "more",     "open",   "clear",   "history",  "exit",   "set",   "unset",
        "read",   "timeout",  "else",   "elif",    "case",     "esac",   "in",    "until",
        "select", "function", "return", "break",   "continue", "local",  "eval",  "exec",
        "trap"}) {
    if (p == w) return false;
  }
  return true;
}

struct Success {
  std::string tool, detail, action;
  int64_t line;
  bool quiet;  // its output named no error (read only for a command of several stages)
  std::vector<std::string> built;  // what its output shows done (BuiltBy, MergedBy)
};

// What a successful shell call's output shows done: the builds (BuiltBy) and the
// pull requests merged (MergedBy).
std::vector<std::string> ShownDone(std::string_view command, std::string_view output) {
  std::vector<std::string> done = BuiltBy(output);
  for (auto& m : MergedBy(command, output)) done.push_back(std::move(m));
  return done;
}

// True when no line of a call's output names an error (the first 400 lines).
bool Quiet(std::string_view output) {
  size_t n = 0;
  for (std::string_view line : text::Lines(output)) {
    if (++n > 400 || NamesAnError(line)) return false;
  }
  return true;
}

// The sentences of a one-line gist that do not only announce.
std::string Statements(std::string_view gist) {
  std::string out;
  size_t pos = 0;
  while (pos < gist.size()) {
    size_t end = pos;
    while (end < gist.size()) {
      char c = gist[end];
      if ((c == '.' || c == '!' || c == '?' || c == ';') &&
          (end + 1 == gist.size() || gist[end + 1] == ' ')) {
        ++end;
        break;
      }
      ++end;
    }
    std::string_view sentence = gist.substr(pos, end - pos);
    while (!sentence.empty() && sentence.front() == ' ') sentence.remove_prefix(1);
    pos = end;
    if (sentence.empty() || Announces(sentence)) continue;
    if (!out.empty()) out += ' ';
    out.append(sentence);
  }
  return out;
}

// A long report cut to its first third and last two thirds of `max` bytes.
std::string Shorten(std::string_view report, size_t max) {
  std::string head = Excerpt(report, max / 3);
  std::string_view tail = report.substr(report.size() - std::min(report.size(), max * 2 / 3));
  while (!tail.empty() && (static_cast<unsigned char>(tail.front()) & 0xC0) == 0x80)
    tail.remove_prefix(1);
  size_t sp = tail.find(' ');
  if (sp != std::string_view::npos && sp < 40) tail.remove_prefix(sp + 1);
  return head + " … " + std::string(tail);
}

constexpr size_t kMaxCheckouts = 8;

// Adds to `checkouts` (the session's folder first) the worktrees shell command
// `command` added, the most nested first, so that a path is named from the
// innermost checkout it lies in.
void AddWorktrees(std::string_view command, std::string_view cwd,
                  std::vector<std::string>* checkouts) {
  if (command.find("worktree") == std::string_view::npos) return;
  for (std::string& w : WorktreesNamed(command, cwd)) {
    if (checkouts->size() >= kMaxCheckouts ||
        std::find(checkouts->begin(), checkouts->end(), w) != checkouts->end())
      continue;
    checkouts->push_back(std::move(w));
  }
  std::stable_sort(checkouts->begin(), checkouts->end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

// The platforms a command builds or runs for (`--target aarch64-unknown-linux-gnu`,
// `--platform=linux/arm64`).
std::set<std::string> PlatformsOf(std::string_view command) {
  std::set<std::string> out;
  for (std::string_view flag : {"--target", "--platform", "--arch"}) {
    for (size_t at = command.find(flag); at != std::string_view::npos;
         at = command.find(flag, at + flag.size())) {
      size_t v = at + flag.size();
      if (v >= command.size() || (command[v] != ' ' && command[v] != '=')) continue;
      v = command.find_first_not_of(" =", v);
      if (v == std::string_view::npos) break;
      size_t end = command.find_first_of(" \t\n;&|)", v);
      out.insert(std::string(command.substr(v, end == std::string_view::npos ? end : end - v)));
    }
  }
  return out;
}

// True when `ok` builds for every platform `failed` named: a host build is no
// answer to a cross build's failure.
bool SamePlatform(std::string_view failed, std::string_view ok) {
  const std::set<std::string> want = PlatformsOf(failed), have = PlatformsOf(ok);
  return std::includes(have.begin(), have.end(), want.begin(), want.end());
}

// The names of the source files a failure's output points at ("src/time.rs:12:36",
// "(lib/money.ex:27)"), without their folders and line numbers.
std::set<std::string> FilesNamed(std::string_view error) {
  std::set<std::string> out;
  for (std::string_view w : text::Fields(error, " \t\n\r\"'`()[]{}<>,;")) {
    if (out.size() >= 8) break;
    while (!w.empty() && (std::isdigit(static_cast<unsigned char>(w.back())) || w.back() == ':' ||
                          w.back() == '.'))
      w.remove_suffix(1);  // ":12:36:", a sentence's full stop
    std::string_view name = FileNameOf(w);
    size_t dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0 || name.size() - dot - 1 > 5 ||
        name.size() - dot - 1 < 1)
      continue;
    bool ext = true;
    for (char c : name.substr(dot + 1)) ext = ext && std::isalpha(static_cast<unsigned char>(c));
    if (ext && name.find(':') == std::string_view::npos) out.insert(std::string(name));
  }
  return out;
}

}  // namespace

bool FixedWhereItPointed(const Episode& ep) {
  if (!ep.fixed() || ep.repeats > 0 || ep.files.empty() || ep.tool != "Bash") return false;
  // A build's or test run's, not a commit hook's: a hook's complaint is the project's rule.
  const std::string kind = OutcomeKind(ep.detail);
  if (kind != "build" && kind != "test") return false;
  const std::set<std::string> named = FilesNamed(ep.error);
  return std::any_of(ep.files.begin(), ep.files.end(), [&](const std::string& f) {
    return named.count(std::string(FileNameOf(f))) > 0;
  });
}

std::string WorkspaceKind(std::string_view cwd) {
  auto home = [&](std::string_view prefix, char sep) {
    if (!cwd.starts_with(prefix) || cwd.size() <= prefix.size()) return false;
    std::string_view name = cwd.substr(prefix.size());
    while (!name.empty() && name.back() == sep) name.remove_suffix(1);
    return !name.empty() && name.find(sep) == std::string_view::npos;
  };
  if (home("/Users/", '/')) return "the home folder of the Mac its sessions ran on";
  if (home("/home/", '/')) return "the home folder of the Linux machine its sessions ran on";
  std::string low = text::AsciiLower(cwd.substr(0, 12));
  if (low.size() > 2 && low[1] == ':' &&
      (low.substr(2, 7) == "\\users\\" || low.substr(2, 7) == "/users/") &&
      cwd.find_first_of("\\/", 9) == std::string_view::npos)
    return "the home folder of the Windows machine its sessions ran on";
  return "";
}

std::string LanguageOf(std::string_view path) {
  size_t slash = path.find_last_of("/\\");
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return "";
  const std::string ext = text::AsciiLower(name.substr(dot + 1));
  static constexpr std::pair<std::string_view, std::string_view> kLanguages[] = {
      {"py", "Python"},
      {"sh", "Shell"},
      {"bash", "Shell"},
      {"zsh", "Shell"},
      {"js", "JavaScript"},
      {"mjs", "JavaScript"},
      {"jsx", "JavaScript"},
      {"ts", "TypeScript"},
      {"tsx", "TypeScript"},
      {"swift", "Swift"},
      {"rs", "Rust"},
      {"go", "Go"},
      {"c", "C"},
      {"h", "C"},
      {"cpp", "C++"},
      {"cc", "C++"},
      {"hpp", "C++"},
      {"rb", "Ruby"},
      {"java", "Java"},
      {"kt", "Kotlin"},
      {"md", "Markdown"},
      {"json", "JSON"},
      {"toml", "TOML"},
      {"yml", "YAML"},
      {"yaml", "YAML"},
      {"ps1", "PowerShell"},
      {"ex", "Elixir"},
      {"exs", "Elixir"},
      {"html", "HTML"},
      {"css", "CSS"},
      {"sql", "SQL"},
      {"lua", "Lua"},
      {"php", "PHP"},
      {"cs", "C#"},
      {"m", "Objective-C"},
      {"nix", "Nix"},
      {"tf", "Terraform"},
      {"dart", "Dart"},
      {"scala", "Scala"},
      {"zig", "Zig"}};
  for (const auto& [e, lang] : kLanguages) {
    if (ext == e) return std::string(lang);
  }
  return "";
}

std::vector<const Episode*> SessionCard::Unresolved() const {
  std::vector<const Episode*> out;
  for (const auto& e : episodes) {
    if (!e.fixed()) out.push_back(&e);
  }
  return out;
}

const Episode* SessionCard::EndingFailure() const {
  const auto unresolved = Unresolved();
  if (unresolved.empty()) return nullptr;
  const Episode* last = unresolved.back();
  for (const auto& o : outcomes) {
    if (o.ok && o.first_line > last->last_line) return nullptr;
  }
  return last;
}

SessionCard ReadCard(const SessionLog& log) {
  SessionCard card;
  card.session_id = log.session_id;
  if (!log.spans.empty()) {
    card.started_at = log.spans.front().started_at;
    card.ended_at = log.spans.back().ended_at;
    card.cwd = log.spans.front().cwd;
    card.first_line = log.spans.front().first;
    card.last_line = log.spans.back().last;
    for (const auto& s : log.spans) {
      if (!s.branch.empty()) card.branch = s.branch;
      if (card.started_at.empty()) card.started_at = s.started_at;
      if (!s.ended_at.empty()) card.ended_at = s.ended_at;
    }
  }
  EpisodeReader episodes;
  OutcomeReader outcomes;
  struct Call {
    std::string tool, detail;
  };
  std::map<std::string, Call> calls;
  std::map<std::string, int> edits, places;
  // The session's folder and the worktrees it added: where its paths are named from.
  std::vector<std::string> checkouts;
  if (!card.cwd.empty()) checkouts.push_back(card.cwd);
  std::vector<Success> successes;
  std::string last_todos;
  int64_t todos_line = 0, last_request = 0;
  std::string last_agent;  // the agent's last words, for the questions a reply answers
  bool last_was_stop = false;
  for (const Event& e : log.events) {
    episodes.Take(e);
    outcomes.Take(e);
    if (card.started_at.empty() && !e.at.empty()) card.started_at = e.at;
    if (!e.at.empty() && e.at > card.ended_at) card.ended_at = e.at;
    switch (e.kind) {
      case EventKind::kPersonText: {
        last_was_stop = false;
        if (IsAcknowledgement(e.text) || IsOptionAnswer(e.text)) break;
        if (AnswersNumberedQuestions(e.text, last_agent)) break;  // "1. A  2. B": answers
        for (auto& rule : Instructions(e.text)) {
          if (card.instructions.size() < kMaxInstructions &&
              std::find(card.instructions.begin(), card.instructions.end(), rule) ==
                  card.instructions.end())
            card.instructions.push_back(std::move(rule));
        }
        // What was asked, in the person's own words: a pasted issue or quoted
        // text is not the request (OwnWords).
        const std::string own = OwnWords(e.text);
        const std::string_view asked = own.empty() ? std::string_view(e.text) : own;
        if (card.task.empty()) card.task = Excerpt(asked, kTaskBytes);
        std::string ask =
            card.turns.empty() ? Excerpt(asked, kTaskBytes) : MainSentence(asked, kAskBytes);
        if (!card.turns.empty() && card.turns.back().ask == ask) break;  // said again
        last_request = e.line;
        if (card.turns.size() < kMaxTurns) {
          Turn t;
          t.ask = std::move(ask);
          t.line = e.line;
          t.at = e.at;
          card.turns.push_back(std::move(t));
        }
        break;
      }
      case EventKind::kAssistantText: {
        last_agent = e.text;
        card.closing = Gist(e.text, kClosingBytes);
        last_was_stop = false;
        if (card.turns.empty()) break;
        // What the agent reported on the request: its last words on it (a
        // closing summary says what came of the work; what it said on the
        // way, "Good, now I have a complete picture", does not), without the
        // sentences that only announce what comes next. A short last word
        // ("All 12 tests pass.") keeps what came before it.
        std::string said = Statements(Gist(e.text, kReportBytes * 2));
        if (said.empty()) break;
        std::string& report = card.turns.back().report;
        if (said.size() >= kShortReportBytes) report.clear();
        report += (report.empty() ? "" : " ") + said;
        if (report.size() > 3 * kReportBytes) report = Shorten(report, kReportBytes);
        break;
      }
      case EventKind::kToolUse:
        if (calls.size() > 512) calls.clear();
        calls[e.tool_id] = {e.tool_name, e.detail};
        if (e.tool_name == "TodoWrite") last_todos = e.detail, todos_line = e.line;
        if (e.tool_name == "Bash") {
          ShellPlaces(e.detail, card.cwd, &places);
          AddWorktrees(e.detail, card.cwd, &checkouts);
          // Every stage's program: "cargo fmt && git commit" ran git too.
          for (const std::string& program : ProgramsOf(e.detail)) {
            if (IsToolProgram(program) &&
                (card.programs.size() < kMaxPrograms || card.programs.count(program)))
              ++card.programs[program];
          }
        }
        if ((IsFileEditTool(e.tool_name) || e.tool_name == "Read") && !e.detail.empty())
          ++places[e.detail];
        break;
      case EventKind::kToolResult: {
        auto it = calls.find(e.tool_id);
        if (it == calls.end()) break;
        const Call& c = it->second;
        last_was_stop = e.status == ResultStatus::kRejected;
        if (e.status == ResultStatus::kRejected && card.declined.size() < kMaxDeclined &&
            c.tool != "AskUserQuestion") {
          std::string what = c.tool == "Bash" ? FirstLine(c.detail, kAskBytes)
                                              : c.tool + " " + Excerpt(c.detail, kAskBytes);
          card.declined.push_back(std::move(what));
        }
        if (!e.about.empty()) {
          // The file as the checkout names it; the checkout's own before a folder's.
          std::string file = RelativeToAny(DescribingPath(c.tool, c.detail), checkouts);
          const bool top = file.find_first_of("/\\") == std::string::npos;
          if (card.about.empty() ||
              (top && card.about_file.find_first_of("/\\") != std::string::npos)) {
            card.about = e.about;
            card.about_file = std::move(file);
          }
        }
        if (e.status == ResultStatus::kOk) {
          if (IsFileEditTool(c.tool) && !c.detail.empty()) {
            ++edits[c.detail];
            if (std::string lang = LanguageOf(c.detail); !lang.empty()) ++card.languages[lang];
          }
          if (c.tool == "Bash" || IsFileEditTool(c.tool)) {
            std::string action =
                c.tool == "Bash" ? FirstLine(c.detail, 200) : c.tool + " " + Excerpt(c.detail, 200);
            // Quiet matters only to a command of several stages (RunKeys), at any
            // depth of ssh: a command with no separator anywhere has one.
            const bool staged =
                c.tool == "Bash" && c.detail.find_first_of(";&|\n") != std::string::npos;
            successes.push_back(
                {c.tool, c.detail, std::move(action), e.line, staged && Quiet(e.text),
                 c.tool == "Bash" ? ShownDone(c.detail, e.text) : std::vector<std::string>{}});
          }
        }
        calls.erase(it);
        break;
      }
      case EventKind::kInterrupt:
        last_was_stop = true;
        break;
      case EventKind::kCompaction:
        break;
    }
  }
  for (auto& t : card.turns) {
    if (t.report.size() > kReportBytes) t.report = Shorten(t.report, kReportBytes);
  }
  card.ended_interrupted = last_was_stop;
  card.episodes = episodes.Finish();
  card.outcomes = outcomes.Finish();
  // A failure the session fixed later, after the episode had closed (the
  // person stepped in, other work came between): a call that answers it.
  for (auto& ep : card.episodes) {
    if (ep.fixed()) continue;
    for (const auto& s : successes) {
      if (s.line > ep.last_line && Answers(ep.tool, ep.detail, s.tool, s.detail)) {
        ep.fix = s.action;
        break;
      }
    }
  }
  // A failure whose intent a later call achieved, whatever its command: the
  // commit that landed after a hook stopped one, the test run that passed
  // after a failing one with other flags.
  for (auto& ep : card.episodes) {
    if (ep.fixed() || ep.tool != "Bash") continue;
    const std::string intent = Intent(ep.detail);
    // A pull request's failed checks are dealt with once it is merged.
    const std::string checks = ChecksOf(ep.detail);
    auto shows = [&](const Success& s) {
      return (!intent.empty() &&
              std::find(s.built.begin(), s.built.end(), intent) != s.built.end()) ||
             (!checks.empty() &&
              std::find(s.built.begin(), s.built.end(), checks) != s.built.end());
    };
    for (const auto& s : successes) {
      if (s.line > ep.first_line && s.tool == "Bash" && (Achieves(s.detail, intent) || shows(s)) &&
          SamePlatform(ep.detail, s.detail)) {
        ep.fix = s.action;
        break;
      }
    }
  }
  // A failed test run, and the project's own way of running those tests passing
  // later, by whatever runner (`pytest loader/tests`, then `make loader-test`).
  // The test targets each success ran, read once.
  std::vector<std::pair<const Success*, std::vector<std::string>>> targets;
  for (const auto& s : successes) {
    if (s.tool != "Bash") continue;
    if (auto keys = TestTargets(s.detail); !keys.empty()) targets.emplace_back(&s, std::move(keys));
  }
  for (auto& ep : card.episodes) {
    if (targets.empty()) break;
    if (ep.fixed() || ep.tool != "Bash") continue;
    for (const auto& [s, keys] : targets) {
      if (s->line <= ep.first_line || !SamePlatform(ep.detail, s->detail)) continue;
      if (std::any_of(keys.begin(), keys.end(),
                      [&](const std::string& k) { return TestRunCovers(ep.detail, k); })) {
        ep.fix = s->action;
        break;
      }
    }
  }
  // A failed run of some tests, and a later run of those tests passing, by whatever
  // runner (`php artisan test --filter=DueDateTest`, then `vendor/bin/pest
  // tests/Feature/DueDateTest.php`).
  // Each success's kind is read once, and only when a failed test run is left.
  std::vector<std::string> kinds;
  for (auto& ep : card.episodes) {
    if (ep.fixed() || ep.tool != "Bash" || OutcomeKind(ep.detail) != "test") continue;
    if (kinds.empty()) {
      kinds.reserve(successes.size());
      for (const auto& s : successes)
        kinds.push_back(s.tool == "Bash" ? OutcomeKind(s.detail) : "");
    }
    for (size_t i = 0; i < successes.size(); ++i) {
      const Success& s = successes[i];
      if (s.line > ep.first_line && kinds[i] == "test" && SamePlatform(ep.detail, s.detail) &&
          SameTestsPass(ep.detail, s.detail)) {
        ep.fix = s.action;
        break;
      }
    }
  }
  // A failed build or test run in a folder, and a later one in that folder passing, by
  // whatever program (`ninja -C build-s3` then `idf.py -B build-s3 build`).
  for (auto& ep : card.episodes) {
    if (ep.fixed() || ep.tool != "Bash") continue;
    for (const std::string& where : FolderIntents(ep.detail)) {
      for (const auto& s : successes) {
        if (s.line <= ep.first_line || s.tool != "Bash" || !SamePlatform(ep.detail, s.detail))
          continue;
        auto done = FolderIntents(s.detail);
        if (std::find(done.begin(), done.end(), where) != done.end()) {
          ep.fix = s.action;
          break;
        }
      }
      if (ep.fixed()) break;
    }
  }
  // A failure that points at a file (`panicked at src/time.rs:12:36`), that file then
  // edited and a test or build run passing after the edit: fixed in the code, whatever
  // command reproduced it.
  for (auto& ep : card.episodes) {
    if (ep.fixed() || ep.tool != "Bash") continue;
    const std::set<std::string> named = FilesNamed(ep.error);
    if (named.empty()) continue;
    int64_t edited = 0;
    for (const auto& s : successes) {
      if (s.line > ep.first_line && IsFileEditTool(s.tool) &&
          named.count(std::string(FileNameOf(s.detail)))) {
        edited = s.line;
        break;
      }
    }
    if (edited == 0) continue;
    for (const auto& s : successes) {
      if (s.line <= edited || s.tool != "Bash") continue;
      const std::string kind = OutcomeKind(s.detail);
      if (kind == "test" || kind == "build") {
        ep.fix = s.action;
        break;
      }
    }
  }
  for (const auto& s : successes) {
    if (s.tool != "Bash") continue;
    for (auto& intent : IntentsOf(s.detail)) card.achieved.insert(std::move(intent));
    card.achieved.insert(s.built.begin(), s.built.end());
    for (auto& where : FolderIntents(s.detail)) card.achieved.insert(std::move(where));
    for (std::string& run : RunKeys(s.detail, s.quiet)) card.achieved.insert("ran:" + run);
  }
  // Commands as the person would type them in the checkout: no `cd <folder> &&`
  // before them, paths below the folder relative (a worktree's too).
  for (auto& ep : card.episodes) {
    for (auto& f : ep.files) f = RelativeToAny(f, checkouts);
    if (ep.tool != "Bash") continue;
    ep.action = ShownCommand(ep.action, card.cwd, checkouts);
    if (!ep.fix.empty()) ep.fix = ShownCommand(ep.fix, card.cwd, checkouts);
  }
  for (auto& o : card.outcomes) {
    if (o.kind != "commit") o.what = ShownCommand(o.what, card.cwd, checkouts);
  }
  auto ranked = [](const std::map<std::string, int>& m, size_t max) {
    std::vector<std::pair<std::string, int>> v(m.begin(), m.end());
    std::stable_sort(v.begin(), v.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (v.size() > max) v.resize(max);
    return v;
  };
  // Paths as the checkout knows them: below the session's folder (a
  // worktree's too), relative to it, so that two worktrees of one project
  // name a file alike and a path is never cut in the middle of its prefix.
  // A scratch file (`/tmp/explain.sql`, `/tmp/app.dmg`) is gone by the next
  // session: no place that mattered.
  auto relative = [&](const std::map<std::string, int>& m) {
    std::map<std::string, int> out;
    for (const auto& [path, n] : m) {
      if (path.starts_with("/tmp/") || path.starts_with("/var/tmp/") ||
          path.starts_with("/private/tmp/"))
        continue;
      std::string shown = RelativeToAny(path, checkouts);
      while (shown.starts_with("./") && shown.size() > 2) shown.erase(0, 2);  // one file, one name
      out[shown] += n;
    }
    return out;
  };
  card.files = ranked(relative(edits), kMaxCardFiles);
  card.places = ranked(relative(places), kMaxPlaces);
  for (std::string_view item : text::Lines(last_todos)) {
    if (item.substr(0, 4) == "[ ] " || item.substr(0, 4) == "[>] ")
      card.open_todos.push_back(Excerpt(item.substr(4), kAskBytes));
  }
  card.todos_before_last_request = !card.open_todos.empty() && last_request > todos_line;
  return card;
}

std::vector<FailureSeen> Failures(const SessionLog& log) {
  std::vector<FailureSeen> out;
  std::map<std::string, std::pair<std::string, std::string>> calls;  // id -> tool, detail
  std::map<std::string, int64_t> call_line;
  const std::string cwd = log.spans.empty() ? "" : log.spans.front().cwd;
  std::vector<std::string> checkouts;
  if (!cwd.empty()) checkouts.push_back(cwd);
  for (const Event& e : log.events) {
    if (e.kind == EventKind::kToolUse) {
      if (e.tool_name != "Bash" && !IsFileEditTool(e.tool_name)) continue;
      if (e.tool_name == "Bash") AddWorktrees(e.detail, cwd, &checkouts);
      if (calls.size() > 512) {
        calls.clear();
        call_line.clear();
      }
      calls[e.tool_id] = {e.tool_name, e.detail};
      call_line[e.tool_id] = e.line;
    } else if (e.kind == EventKind::kToolResult && e.failed()) {
      auto it = calls.find(e.tool_id);
      if (it == calls.end()) continue;
      FailureSeen f;
      f.session_id = log.session_id;
      f.at = e.at;
      f.action =
          it->second.first == "Bash"
              ? ShownCommand(FirstLine(it->second.second, 200), cwd, checkouts)
              : it->second.first + " " + Excerpt(RelativeToAny(it->second.second, checkouts), 200);
      f.error = e.text;
      f.signature = ErrorSignature(e.text);
      f.first_line = call_line[e.tool_id];
      f.last_line = e.line;
      if (!f.signature.empty() && out.size() < 1024) out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace lore::activity
