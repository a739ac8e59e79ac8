#include "agentmem/agentmem.h"

#include <fcntl.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "doc/frontmatter.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/text/utf8.h"
#include "text/lines.h"
#include "text/trim.h"

namespace lore::agentmem {
namespace {

std::string Lower(std::string_view s) { return text::AsciiLower(s); }

// White space runs (newlines included) as one space, trimmed.
std::string Squeezed(std::string_view s) { return text::FoldSpace(s, SIZE_MAX, " \t\r\n"); }

size_t Indent(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && (line[n] == ' ' || line[n] == '\t')) n += 1;
  return n;
}

// Nothing but white space: a carriage return inside the line counts as space,
// as Squeezed drops it.
bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// A fence line (``` or ~~~ after at most three spaces).
bool Fence(std::string_view line) {
  size_t i = Indent(line);
  return i <= 3 && (line.substr(i, 3) == "```" || line.substr(i, 3) == "~~~");
}

// "## Title" -> level 2 and "Title"; 0 when the line is no heading.
int Heading(std::string_view line, std::string* title) {
  size_t i = Indent(line);
  if (i > 3) return 0;
  size_t level = 0;
  while (i + level < line.size() && line[i + level] == '#') ++level;
  if (level == 0 || level > 6) return 0;
  size_t at = i + level;
  if (at < line.size() && line[at] != ' ' && line[at] != '\t') return 0;
  std::string_view rest = line.substr(at);
  while (!rest.empty() && (rest.back() == '#' || rest.back() == ' ')) rest.remove_suffix(1);
  *title = Squeezed(rest);
  return static_cast<int>(level);
}

// A list item: its marker's indent and the text after the marker.
bool Item(std::string_view line, size_t* indent, std::string_view* text) {
  size_t i = Indent(line);
  if (i >= line.size()) return false;
  size_t j = i;
  if (line[j] == '-' || line[j] == '*' || line[j] == '+') {
    ++j;
  } else {
    while (j < line.size() && j - i < 9 && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
    if (j == i || j >= line.size() || (line[j] != '.' && line[j] != ')')) return false;
    ++j;
  }
  if (j >= line.size() || (line[j] != ' ' && line[j] != '\t')) return false;
  std::string_view rest = line.substr(j);
  // A thematic break ("- - -", "* * *") is no item.
  if (Squeezed(rest).find_first_not_of("-*_ ") == std::string::npos) return false;
  *indent = i;
  *text = rest;
  return true;
}

// A heading that names what an agent remembers.
bool MemoryHeading(const std::string& title) {
  const std::string t = Lower(title);
  for (const char* word : {"memor", "remember", "note", "lesson", "learn", "gotcha"}) {
    if (t.find(word) != std::string::npos) return true;
  }
  return false;
}

// A whole word of `text` (case-insensitive): `needle` not inside a longer name.
bool Mentions(std::string_view text, std::string_view needle) {
  if (needle.empty()) return true;
  const std::string t = Lower(text), n = Lower(needle);
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  };
  for (size_t at = t.find(n); at != std::string::npos; at = t.find(n, at + 1)) {
    bool before = at == 0 || !word(t[at - 1]);
    bool after = at + n.size() >= t.size() || !word(t[at + n.size()]);
    if (before && after) return true;
  }
  return false;
}

// A MEMORY.md index line: a link to a topic file, with or without its hook.
bool LinkToTopic(std::string_view text) {
  if (text.empty() || text.front() != '[') return false;
  size_t close = text.find("](");
  if (close == std::string_view::npos) return false;
  size_t end = text.find(')', close);
  return end != std::string_view::npos && end > close + 5 && text.substr(end - 3, 3) == ".md";
}

struct Section {
  bool memory = false;    // under a memory heading
  bool mentions = false;  // its heading (or an enclosing one) names the project
  std::string text;       // its own lines, for a mention in the text
  std::vector<Fact> facts;
};

}  // namespace

std::vector<Fact> Bullets(std::string_view text, bool sections_only, std::string_view mentioning) {
  std::vector<Section> sections(1);
  std::vector<std::pair<int, std::pair<bool, bool>>> open;  // level -> (memory, mentions)
  Fact* current = nullptr;
  size_t current_indent = 0;
  bool after_blank = false, in_fence = false;
  int64_t number = 0;
  for (std::string_view line : text::Lines(text)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    if (Fence(line)) {
      in_fence = !in_fence;
      current = nullptr;
      continue;
    }
    if (in_fence) continue;
    std::string title;
    if (int level = Heading(line, &title)) {
      while (!open.empty() && open.back().first >= level) open.pop_back();
      bool memory = MemoryHeading(title), mentions = Mentions(title, mentioning);
      for (const auto& [l, flags] : open) memory |= flags.first, mentions |= flags.second;
      open.emplace_back(level, std::make_pair(memory, mentions));
      Section s;
      s.memory = memory;
      s.mentions = mentions;
      sections.push_back(std::move(s));
      current = nullptr;
      continue;
    }
    Section& section = sections.back();
    section.text += line;
    section.text += '\n';
    if (Blank(line)) {
      after_blank = true;
      continue;
    }
    size_t indent = 0;
    std::string_view item;
    if (Item(line, &indent, &item)) {
      if (current && indent >= current_indent + 2) {  // a nested item joins its parent
        current->text +=
            (!current->text.empty() && current->text.back() == ':' ? " " : "; ") + Squeezed(item);
      } else {
        Fact f;
        f.text = Squeezed(item);
        f.line = number;
        section.facts.push_back(std::move(f));
        current = &section.facts.back();
        current_indent = indent;
      }
      after_blank = false;
      continue;
    }
    // A continuation: right under the item, or indented after a blank line.
    if (current && (!after_blank || Indent(line) >= current_indent + 2)) {
      current->text += " " + Squeezed(line);
    } else {
      current = nullptr;
    }
    after_blank = false;
  }
  std::vector<Fact> out;
  for (Section& s : sections) {
    if (sections_only && !s.memory) continue;
    if (!mentioning.empty() && !s.mentions && !Mentions(s.text, mentioning)) continue;
    for (Fact& f : s.facts) {
      if (f.text.size() >= 3) out.push_back(std::move(f));
    }
  }
  return out;
}

std::vector<Fact> TopicFile(std::string_view text) {
  if (text.substr(0, 4) != "---\n" && text.substr(0, 5) != "---\r\n") {
    std::vector<Fact> facts = Bullets(text, false, "");
    if (facts.empty()) {
      std::string body = Squeezed(text);
      if (!body.empty()) facts.push_back(Fact{body, "", "", "", "", 1});
    }
    return facts;
  }
  auto split = doc::SplitFrontmatter(text, "");
  if (!split) return Bullets(text, false, "");
  std::string name, description;
  for (std::string_view line : text::Lines(split->yaml)) {
    auto value = [&](std::string_view key, std::string* out) {
      if (line.substr(0, key.size()) != key) return;
      std::string v = Squeezed(line.substr(key.size()));
      if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
        v = v.substr(1, v.size() - 2);
      }
      *out = v;
    };
    value("name:", &name);
    value("description:", &description);
  }
  // The body without its headings, as one fact.
  std::string body;
  int64_t first = 0, number = split->body_line - 1;
  for (std::string_view line : text::Lines(split->body)) {
    ++number;
    std::string title;
    if (Blank(line) || Heading(line, &title)) continue;
    if (first == 0) first = number;
    body += line;
    body += '\n';
  }
  Fact f;
  f.text = Squeezed(body);
  if (f.text.empty()) f.text = description;
  f.title = !description.empty() ? description : name;
  f.line = first ? first : 1;
  if (f.text.empty()) return {};
  return {std::move(f)};
}

std::string ClaudeMemoryFolder(const std::string& home, const std::string& project) {
  std::string name = project;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
  }
  return home + "/.claude/projects/" + name + "/memory";
}

namespace {

// A file the person or an agent wrote, outside any store: followed like any
// file they name, bounded, invalid UTF-8 replaced. nullopt when missing.
Result<std::optional<std::string>> ReadSource(const std::string& path) {
  auto fd = fs::OpenNamedFile(path);
  if (!fd) {
    if (fd.error().code == ErrorCode::kNotFound) return std::optional<std::string>();
    return tl::unexpected(fd.error());
  }
  LORE_ASSIGN(std::string text, fs::ReadAll(fd->get(), path, fs::Kind::kAgentSettings));
  return std::optional<std::string>(text::ReplaceInvalidUtf8(text));
}

void Stamp(std::vector<Fact>* facts, std::string_view agent, std::string_view origin,
           const std::string& path, std::vector<Fact>* out) {
  for (Fact& f : *facts) {
    f.agent = std::string(agent);
    f.origin = std::string(origin);
    f.path = path;
    out->push_back(std::move(f));
  }
}

}  // namespace

Result<std::vector<Fact>> Read(const std::string& project, const std::string& home) {
  std::vector<Fact> out;
  if (!home.empty()) {
    const std::string folder = ClaudeMemoryFolder(home, project);
    LORE_ASSIGN(auto entries, fs::ListExisting(fs::Dirname(folder), fs::Basename(folder)));
    std::vector<std::string> topics;
    for (const auto& e : entries) {
      if (!e.is_file || e.name.size() < 4 || e.name.substr(e.name.size() - 3) != ".md") continue;
      if (e.name != "MEMORY.md") topics.push_back(e.name);
    }
    const std::string origin = "Claude Code's auto memory";
    const std::string index = folder + "/MEMORY.md";
    LORE_ASSIGN(auto text, ReadSource(index));
    if (text) {
      std::vector<Fact> facts = Bullets(*text, false, "");
      std::erase_if(facts, [](const Fact& f) { return LinkToTopic(f.text); });
      Stamp(&facts, "claude-code", origin, index, &out);
    }
    for (const std::string& name : topics) {
      const std::string path = folder + "/" + name;
      LORE_ASSIGN(auto topic, ReadSource(path));
      if (!topic) continue;
      std::vector<Fact> facts = TopicFile(*topic);
      Stamp(&facts, "claude-code", origin, path, &out);
    }
  }
  struct Instruction {
    const char* rel;
    const char* agent;
  };
  for (const Instruction& f :
       {Instruction{"CLAUDE.md", "claude-code"}, Instruction{".claude/CLAUDE.md", "claude-code"},
        Instruction{"CLAUDE.local.md", "claude-code"}, Instruction{"QWEN.md", "qwen-code"},
        Instruction{"GEMINI.md", "gemini-cli"}, Instruction{"AGENTS.md", "codex"}}) {
    const std::string path = project + "/" + f.rel;
    LORE_ASSIGN(auto text, ReadSource(path));
    if (!text) continue;
    std::vector<Fact> facts = Bullets(*text, true, "");
    Stamp(&facts, f.agent, f.rel, path, &out);
  }
  if (!home.empty()) {
    const std::string path = home + "/.codex/memories/MEMORY.md";
    LORE_ASSIGN(auto text, ReadSource(path));
    // A folder name shorter than five characters ("app", "main") would name too much.
    std::string folder = fs::Basename(project);
    if (folder.size() < 5) folder = project;
    if (text) {
      // Codex keeps one memory for every project: only what names this one.
      std::vector<Fact> facts = Bullets(*text, false, project);
      std::vector<Fact> by_name = Bullets(*text, false, folder);
      for (Fact& f : by_name) {
        bool seen = std::any_of(facts.begin(), facts.end(),
                                [&](const Fact& g) { return g.line == f.line; });
        if (!seen) facts.push_back(std::move(f));
      }
      std::sort(facts.begin(), facts.end(),
                [](const Fact& a, const Fact& b) { return a.line < b.line; });
      Stamp(&facts, "codex", "Codex's memories", path, &out);
    }
  }
  return out;
}

}  // namespace lore::agentmem
