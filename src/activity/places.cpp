#include "activity/places.h"

#include <algorithm>
#include <cctype>

#include "lore/hook/shell_words.h"
#include "text/trim.h"

namespace lore::activity {
namespace {

bool Separator(char c) { return c == '/' || c == '\\'; }

// Whether `path` starts with `folder`, '/' and '\\' alike (a Windows session's
// commands write C:/Users/x where its folder is C:\Users\x).
bool UnderOrAt(std::string_view path, std::string_view folder) {
  if (path.size() < folder.size()) return false;
  for (size_t i = 0; i < folder.size(); ++i) {
    if (path[i] != folder[i] && !(Separator(path[i]) && Separator(folder[i]))) return false;
  }
  return true;
}

// An absolute path: /x, ~/x, or a Windows drive's C:/x or C:\x.
bool Absolute(std::string_view p) {
  return p.starts_with("/") || p.starts_with("~") ||
         (p.size() > 2 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' &&
          Separator(p[2]));
}

// A word of a shell command as the path it names: the quotes of a command inside a
// command (`ssh host "cat /etc/x.yml"`) and a trailing comma or colon taken off; a
// pattern or an expansion (`*.sh`, `$HOME/x`) names no one place.
std::string_view PlaceWord(std::string_view w) {
  while (!w.empty() && (w.front() == '"' || w.front() == '\'' || w.front() == '`'))
    w.remove_prefix(1);
  while (!w.empty() && (w.back() == '"' || w.back() == '\'' || w.back() == '`' || w.back() == ',' ||
                        w.back() == ':'))
    w.remove_suffix(1);
  if (w.find_first_of("*?[]$=<>{}\"'`") != std::string_view::npos) return {};
  return w;
}

// `path` with its `.` and `..` components resolved, without a trailing separator.
std::string Normalized(std::string_view path) {
  std::vector<std::string_view> parts;
  for (std::string_view part : text::Fields(path, "/")) {
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (part != ".") {
      parts.push_back(part);
    }
  }
  std::string out;
  for (std::string_view part : parts) out.append("/").append(part);
  return out.empty() ? "/" : out;
}

}  // namespace

std::string RelativeTo(std::string_view path, std::string_view folder) {
  while (folder.size() > 1 && Separator(folder.back())) folder.remove_suffix(1);
  if (folder.size() < 2 || path.size() <= folder.size() + 1 || !UnderOrAt(path, folder))
    return std::string(path);
  if (!Separator(path[folder.size()])) return std::string(path);
  return std::string(path.substr(folder.size() + 1));
}

std::string RelativeToAny(std::string_view path, const std::vector<std::string>& folders) {
  for (const std::string& folder : folders) {
    std::string r = RelativeTo(path, folder);
    if (r.size() != path.size()) return r;
  }
  return std::string(path);
}

std::string ShownCommand(std::string_view command, std::string_view cwd,
                         const std::vector<std::string>& worktrees) {
  std::string_view c = command;
  std::vector<std::string_view> folders;  // where it ran: a leading cd's, then the session's
  for (;;) {
    std::string_view t = text::Trim(c, " \t");
    if (!t.starts_with("cd ")) break;
    std::string_view rest = text::Trim(t.substr(3), " \t");
    std::string_view dir;
    size_t end = 0;
    if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
      size_t q = rest.find(rest[0], 1);
      if (q == std::string_view::npos) break;
      dir = rest.substr(1, q - 1);
      end = q + 1;
    } else {
      end = std::min(rest.find_first_of(" \t;&|"), rest.size());
      dir = rest.substr(0, end);
    }
    std::string_view after = text::Trim(rest.substr(end), " \t");
    size_t op = after.starts_with("&&") ? 2 : after.starts_with(";") ? 1 : 0;
    if (dir.empty() || op == 0) break;
    folders.push_back(dir);
    c = after.substr(op);
  }
  folders.push_back(cwd);
  for (const std::string& w : worktrees) folders.push_back(w);
  // The innermost folder first: a worktree inside the checkout names its own files.
  std::stable_sort(folders.begin(), folders.end(),
                   [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
  std::string out(text::Trim(c, " \t"));
  for (std::string_view f : folders) {
    while (f.size() > 1 && (f.back() == '/' || f.back() == '\\')) f.remove_suffix(1);
    if (f.size() < 2 || f[0] != '/') continue;
    const std::string prefix = std::string(f) + "/";
    for (size_t at = out.find(prefix); at != std::string::npos; at = out.find(prefix, at)) {
      const bool starts = at == 0 || out[at - 1] == ' ' || out[at - 1] == '"' ||
                          out[at - 1] == '\'' || out[at - 1] == '=';
      if (starts) {
        out.erase(at, prefix.size());
      } else {
        at += prefix.size();
      }
    }
  }
  return out.empty() ? std::string(command) : out;
}

void ShellPlaces(std::string_view command, std::string_view cwd,
                 std::map<std::string, int>* places) {
  std::string_view first = command.substr(0, command.find('\n'));
  size_t pos = 0;
  while (pos < first.size()) {
    while (pos < first.size() && (first[pos] == ' ' || first[pos] == ';' || first[pos] == '&' ||
                                  first[pos] == '|' || first[pos] == '('))
      ++pos;
    size_t end = first.find_first_of(" ;&|)", pos);
    if (end == std::string_view::npos) end = first.size();
    if (end == pos) {  // a ')' alone
      ++pos;
      continue;
    }
    std::string_view raw = first.substr(pos, end - pos);
    pos = end;
    // An option's value is a place by itself (`--config=conf/x.yaml`, `git log
    // -L42,45:src/a.py`), never with the option.
    if (raw.starts_with("-")) {
      size_t value = raw.find_first_of("=:");
      raw = value == std::string_view::npos ? std::string_view() : raw.substr(value + 1);
    }
    std::string_view word = PlaceWord(raw);
    if (word.empty()) continue;
    if (word == "cd" || word == "pushd") {
      size_t a = first.find_first_not_of(' ', pos);
      if (a == std::string_view::npos) break;
      size_t b = first.find_first_of(" ;&|)", a);
      std::string_view target =
          first.substr(a, (b == std::string_view::npos ? first.size() : b) - a);
      target = PlaceWord(target);
      // The session's own folder (however its separators are written) is no place in it.
      std::string_view own = cwd;
      while (own.size() > 1 && Separator(own.back())) own.remove_suffix(1);
      std::string_view bare = target;
      while (bare.size() > 1 && Separator(bare.back())) bare.remove_suffix(1);
      const bool itself = !own.empty() && bare.size() == own.size() && UnderOrAt(bare, own);
      const bool elsewhere = itself || (!cwd.empty() && Absolute(target) &&
                                        RelativeTo(target, cwd) == std::string(target));
      if (target.size() > 1 && target != ".." && !elsewhere) ++(*places)[std::string(target)];
      pos = b == std::string_view::npos ? first.size() : b;
    } else if ((word.starts_with("./") || word.starts_with("~/") || word.starts_with("/")) &&
               word.find('.') != std::string_view::npos && word.size() > 3) {
      ++(*places)[std::string(word)];
    } else if (word.size() > 4 && (word.find('/') != std::string_view::npos) &&
               (word.ends_with(".py") || word.ends_with(".sh") || word.ends_with(".js") ||
                word.ends_with(".ts") || word.ends_with(".rb") || word.ends_with(".ps1"))) {
      ++(*places)[std::string(word)];
    }
  }
}

std::vector<std::string> WorktreesNamed(std::string_view command, std::string_view cwd) {
  std::vector<std::string> out;
  const std::vector<hook::Word> words = hook::SplitWords(command);
  std::string here(cwd);  // where the current command runs
  for (size_t i = 0; i < words.size(); ++i) {
    const hook::Word& w = words[i];
    if (w.op) continue;
    const bool starts = i == 0 || words[i - 1].op;
    if (starts && w.value == "cd" && i + 1 < words.size() && !words[i + 1].op &&
        words[i + 1].value.starts_with("/")) {
      here = Normalized(words[i + 1].value);
      continue;
    }
    if (!starts || w.value != "git") continue;
    // git [-C <folder>] worktree add|remove|lock|unlock|move [options] <path> …
    size_t j = i + 1;
    std::string base = here;
    while (j + 1 < words.size() && !words[j].op && words[j].value == "-C") {
      const std::string& c = words[j + 1].value;
      base = c.starts_with("/") ? Normalized(c) : Normalized(base + "/" + c);
      j += 2;
    }
    if (j + 1 >= words.size() || words[j].value != "worktree") continue;
    const std::string& verb = words[j + 1].value;
    if (verb != "add" && verb != "remove" && verb != "lock" && verb != "unlock" && verb != "move")
      continue;
    for (j += 2; j < words.size() && !words[j].op; ++j) {
      const std::string& v = words[j].value;
      if (v == "-b" || v == "-B" || v == "--reason") {
        ++j;  // the option's value
        continue;
      }
      if (v.starts_with("-")) continue;
      if (v.empty() || base.empty() || (!v.starts_with("/") && !base.starts_with("/"))) break;
      out.push_back(v.starts_with("/") ? Normalized(v) : Normalized(base + "/" + v));
      break;
    }
  }
  return out;
}

}  // namespace lore::activity
