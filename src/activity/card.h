// A session at a glance, read off its session log: when it ran, what the
// person asked for, what the agent said last, what was committed, pushed,
// tested and built, what failed (fixed or not), which files it edited and
// what it left to do. The briefing's view of recent sessions
// (consolidate/briefing.cpp) is made of cards.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "activity/places.h"
#include "activity/session_log.h"
#include "lore/activity/episodes.h"
#include "lore/activity/outcomes.h"

namespace lore::activity {

// One exchange: what the person asked for and what the agent reported at
// the end of its work on it (its last words before the person's next
// request; an acknowledgement such as "continue" does not end a turn).
struct Turn {
  std::string ask, report;
  int64_t line = 0;
  std::string at;
};

struct SessionCard {
  std::string session_id;
  std::string started_at, ended_at;  // RFC 3339 seconds; empty when the log has none
  std::string branch, cwd;
  int64_t first_line = 0, last_line = 0;
  std::string task;                       // the first thing the person asked for
  std::vector<Turn> turns;                // every request and the agent's report on it (bounded)
  std::string closing;                    // the agent's last words
  std::vector<std::string> instructions;  // the person's standing instructions ("always …")
  std::vector<std::pair<std::string, int>> places;  // paths worked with, most used first
  bool ended_interrupted = false;  // the person interrupted or declined at the very end
  std::vector<Outcome> outcomes;
  std::vector<Episode> episodes;
  std::vector<std::pair<std::string, int>> files;  // files edited, most edits first
  std::vector<std::string> open_todos;             // the last todo list's unfinished items
  // The last todo list was written before the person's last request: the work
  // after it may have done what it still lists (agents leave lists stale).
  bool todos_before_last_request = false;
  std::vector<std::string> declined;  // calls the person declined
  // The intents (activity::IntentsOf, FolderIntents) its successful shell calls
  // achieved, and "ran:<key>" of what each is known to have run (RunKeys):
  // what a failure of an earlier session is resolved by.
  std::set<std::string> achieved;
  // The programs its shell commands ran (git, brew, npm …; not the shell's
  // own cd, ls, cat …) and the languages of the files it edited, with counts.
  std::map<std::string, int> programs, languages;
  // What the project says it is (activity/about.h), and the file it said it in, relative to
  // the session's folder ("README.md", "third_party/q/README.md"): the first read of the
  // checkout's own such file, else the first of any.
  std::string about, about_file;

  // Episodes still failing at the session's end.
  std::vector<const Episode*> Unresolved() const;
  // The failure the session ended on: its last unresolved one, when no commit,
  // push, test or build run or install succeeded after it; else null.
  const Episode* EndingFailure() const;
};

// What a folder sessions ran in is, when it says so itself: the home folder
// of a Mac (/Users/<name>), of a Linux machine (/home/<name>) or of a Windows
// one (C:\Users\<name>); "" for any other folder (a checkout's own).
std::string WorkspaceKind(std::string_view cwd);

// The language of a file by its extension ("Python" for x.py), or "".
std::string LanguageOf(std::string_view path);

// True when a failed build or test run was fixed where its output pointed, at
// once: a file its error names (`src/a.cpp:12:5: error: …`) was among those
// edited before the fix, and it did not fail again first. The code now says
// what the fix taught, so it is no lesson for later sessions. (A commit hook's
// complaint is: it is the project's rule.)
bool FixedWhereItPointed(const Episode& ep);

// Reads the card of one session log.
SessionCard ReadCard(const SessionLog& log);

// One failed call of a session, with the signature of its error
// (activity/episodes.h): what a gotcha is found by across sessions.
struct FailureSeen {
  std::string session_id, at, action, error, signature;
  int64_t first_line = 0, last_line = 0;
};
std::vector<FailureSeen> Failures(const SessionLog& log);

}  // namespace lore::activity
