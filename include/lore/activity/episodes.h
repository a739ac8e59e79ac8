// Episodes: a failure, the agent's diagnosis, and what then worked
// (docs/extract.md, "Episodes").
//
// A tool call that fails opens an episode. The agent's next words that are
// not only an announcement ("Let me check …") are its cause. The episode
// closes as fixed when a related call then succeeds: the same program and
// sub-command (`git push`, `npm test`) on mostly the same words (the same
// command run again, or with options added); the files edited in
// between are the fix's files. It closes unfixed when the person speaks, when
// another call fails in a way that has nothing to do with it, or after
// kMaxCallsOpen calls without a related success. The same failure again
// while open is a repeat, not a new episode. A failure without a word of
// output opens none (it teaches nothing). Rejections, interruptions and
// permission denials are never failures (activity/clean.h).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/activity/event.h"

namespace lore::activity {

struct Episode {
  std::string tool;    // the failing call's tool (Bash, Edit, ...)
  std::string detail;  // its whole command or file (to match a later success)
  std::string action;  // its command's first line, or "<tool> <file>"
  std::string error;   // the failure's telling lines
  std::optional<int64_t> exit_code;
  std::string cause;               // the agent's diagnosis (first sentences), or empty
  std::string fix;                 // the related call that then worked, or empty
  std::vector<std::string> files;  // files edited between failure and fix, or named by the call
  int64_t first_line = 0, last_line = 0;
  std::string at;   // the failure's time stamp
  int repeats = 0;  // the same failure again before the episode closed
  bool fixed() const { return !fix.empty(); }
};

// Calls without a related success after which an episode closes unfixed.
inline constexpr int kMaxCallsOpen = 12;

class EpisodeReader {
 public:
  // Events in session order (parsed or as logged; sidechain events ignored).
  void Take(const Event& event);
  // The episodes, closed ones first in order, then the one still open.
  std::vector<Episode> Finish();

 private:
  struct Call {
    std::string id, tool, detail;
    int64_t line = 0;
  };
  void Close();
  void OnResult(const Event& e);

  std::deque<Call> calls_;
  std::optional<Episode> open_;
  std::string open_key_;     // the failing call's program and sub-command
  std::string open_detail_;  // and its command
  int calls_since_ = 0;
  int texts_since_ = 0;
  std::vector<Episode> done_;
};

// The program and sub-command a shell command runs ("git push", "npm test",
// "pytest"): the first words of its last pipeline stage, without `sudo`,
// `env`, variable assignments and `cd …&&` prefixes; for a file tool,
// "<tool> <file>". Lowercase.
std::string CommandKey(std::string_view tool, std::string_view detail);

// What a shell command's last stage runs, as one lowercase line of its words
// past `sudo`, `env`, variable assignments and redirections: a later call
// with the same key ran the same thing ("bundle exec fastlane beta").
// A stage run over ssh is keyed by what it ran there: "ssh etl01: ./deploy.sh".
std::string RunKey(std::string_view command);

// What the stages of a shell command run over ssh run there (`ssh web1 'cd
// /srv && ./deploy.sh'` -> "cd /srv && ./deploy.sh"), views into `command`.
std::vector<std::string_view> RemoteCommands(std::string_view command);

// The run keys of what a shell command that succeeded is known to have done:
// its last stage's; every stage's when its stages are joined by "&&" alone, or
// when its output named no error (`quiet`: "a && b; c" exits with c's status,
// but said nothing went wrong); the stages of a command run over ssh each as
// "ssh <host>: <key>".
std::vector<std::string> RunKeys(std::string_view command, bool quiet);

// True when a shell command only looks something up: its last stage runs a
// program that reads or lists (grep, cat, ls, find, which, …). A lookup that
// failed is no problem the project has.
bool IsLookup(std::string_view command);

// The program of each stage of a shell command, in order: "cargo fmt && git
// commit -am x" -> {"cargo", "git"} (the stages as CommandKey reads them).
std::vector<std::string> ProgramsOf(std::string_view command);

// True when the success of call (`ok_tool`, `ok`) answers the failure of
// call (`tool`, `failed`): the same file for a file tool; for shell commands,
// a stage of `ok` running the same program or sub-command as the failing
// command's last stage (past its set-up: `printf … > x.cfg && idf.py build`)
// on mostly the same words ("git pull --rebase && git push" after "git
// push", "bun install -g x" after "npm install -g x").
bool Answers(std::string_view tool, std::string_view failed, std::string_view ok_tool,
             std::string_view ok);

// A failure's normalised signature, the same for the same error in another
// session: its first telling line, lowercase, with numbers, hex ids, quoted
// strings and paths' folders replaced, white space squeezed; at most 160
// bytes. Empty when the text names nothing.
std::string ErrorSignature(std::string_view error);

// The first sentences of an agent's text that say something beyond "Let me
// …" / "Now I'll …" (at most `max_bytes`); empty when it only announces.
std::string Diagnosis(std::string_view text, size_t max_bytes);

}  // namespace lore::activity
