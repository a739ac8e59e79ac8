// Where a session worked, as its checkout names it: paths below the
// session's folder, or below a worktree the session named, written relative
// to it; commands without the `cd <folder> &&` they start with; the folders
// and scripts a shell command works with. The session card
// (activity/card.h) shows places and commands through these.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace lore::activity {

// `path` relative to `folder` when it lies below it ("/w/app/src/x.c" in
// "/w/app" is "src/x.c"), else as it is.
std::string RelativeTo(std::string_view path, std::string_view folder);

// `path` relative to the first of `folders` it lies below, else as it is.
std::string RelativeToAny(std::string_view path, const std::vector<std::string>& folders);

// A command as shown to a person or agent: without the `cd <folder> &&` (or `;`)
// it starts with, and with the absolute paths below that folder, below `cwd`
// (the session's folder) or below one of `worktrees` written relative to it:
// "cd /w/app-wt/fix && mix test /w/app-wt/fix/test/a_test.exs" is "mix test
// test/a_test.exs". The command itself when nothing is left.
std::string ShownCommand(std::string_view command, std::string_view cwd,
                         const std::vector<std::string>& worktrees = {});

// Counts into `places` the paths shell command `command` works with: where it
// changes to, the scripts it runs. Changing to the session's folder `cwd`, or
// to an absolute folder outside it (another checkout, a sibling worktree),
// names no place in this one.
void ShellPlaces(std::string_view command, std::string_view cwd,
                 std::map<std::string, int>* places);

// The worktree folders `command` names (`git worktree add <path>`, and
// `remove`, `lock`, `unlock` or `move` of one an earlier session added),
// absolute: a relative path is taken from where the command runs (its leading
// `cd <absolute folder> &&`, else `cwd`), with `.` and `..` resolved. A sibling
// worktree (`git worktree add ../app-fix`) is a checkout of the same project,
// so its files are named as the checkout's are.
std::vector<std::string> WorktreesNamed(std::string_view command, std::string_view cwd);

}  // namespace lore::activity
