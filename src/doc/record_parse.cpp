// ParseRecord: frontmatter split, YAML parse (yaml-cpp), typed fields, and
// the raw text of every key so that unknown keys survive a re-emission.
#include <algorithm>
#include <set>

#include "doc/frontmatter.h"
#include "doc/yaml_value.h"
#include "lore/doc/record.h"
#include "lore/text/utf8.h"
#include "text/lines.h"

namespace lore::doc {
namespace {

constexpr const char* kYamlRepair =
    "fix the YAML between the '---' lines (quote a value that contains ': ' or starts with a "
    "special character such as [ { * & ! | > ' \" % @)";

// Offsets of the start of every line of `text`.
std::vector<size_t> LineStarts(std::string_view text) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && i + 1 < text.size()) starts.push_back(i + 1);
  }
  return starts;
}

// The text of lines [first, last) of `text`; `last` past the end means to the end.
std::string Lines(std::string_view text, const std::vector<size_t>& starts, size_t first,
                  size_t last) {
  if (first >= starts.size()) return {};
  size_t end = last < starts.size() ? starts[last] : text.size();
  return std::string(text.substr(starts[first], end - starts[first]));
}

struct Entry {
  std::string key;
  YAML::Node value;
  int64_t line = -1;  // 0-based line of the key within the YAML
};

// The file line of a yaml-cpp mark: an error noticed at the end of the YAML
// is reported on its last line, not on the closing '---'.
int64_t FileLine(const YAML::Mark& mark, std::string_view yaml, int64_t yaml_line) {
  int64_t yaml_lines = static_cast<int64_t>(std::count(yaml.begin(), yaml.end(), '\n'));
  int64_t line = std::max(mark.line, 0);
  if (yaml_lines > 0 && line >= yaml_lines) line = yaml_lines - 1;
  return yaml_line + line;
}

}  // namespace

Result<YAML::Node> detail::LoadYaml(std::string_view yaml, const std::string& path,
                                    int64_t yaml_line) {
  // YAML allows no control characters but tab and line breaks; yaml-cpp lets
  // some through inside flow collections and then yields text that is not
  // UTF-8 and cannot be written back (found by the record fuzzer).
  for (size_t i = 0; i < yaml.size(); ++i) {
    auto u = static_cast<unsigned char>(yaml[i]);
    if ((u < 0x20 && u != '\t' && u != '\n' && u != '\r') || u == 0x7f) {
      int64_t line = yaml_line + std::count(yaml.begin(), yaml.begin() + i, '\n');
      return Fail(ErrorCode::kCorrupt, "frontmatter holds a control character", path, line,
                  "remove it: YAML allows only tabs and line breaks");
    }
  }
  try {
    return YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    int64_t line = FileLine(e.mark, yaml, yaml_line);
    return Fail(ErrorCode::kCorrupt, "frontmatter is not valid YAML (" + e.msg + ")", path, line,
                kYamlRepair);
  } catch (const std::exception& e) {
    return Fail(ErrorCode::kCorrupt,
                std::string("frontmatter is not valid YAML (") + e.what() + ")", path, yaml_line,
                kYamlRepair);
  }
}

namespace {

// Reads the entries of the top-level mapping; duplicate and non-text keys
// become issues.
std::vector<Entry> ReadEntries(const YAML::Node& root, int64_t yaml_line, Record& rec) {
  std::vector<Entry> entries;
  std::set<std::string> seen;
  for (const auto& kv : root) {
    int64_t line = kv.first.Mark().line;
    if (!kv.first.IsScalar()) {
      rec.issues.push_back({IssueType::kBadKey, "", yaml_line + std::max<int64_t>(line, 0),
                            "a frontmatter key must be text", "write keys as plain words"});
      continue;
    }
    std::string key = kv.first.Scalar();
    // A key the emitter could not write back as itself (a control character,
    // a NUL, surrounding blanks, over YAML's 1024: found by the record fuzzer)
    // is an issue.
    if (!detail::IsKeyName(key)) {
      rec.issues.push_back({IssueType::kBadKey, "", yaml_line + std::max<int64_t>(line, 0),
                            "a frontmatter key must be one line of at most 1024 characters, "
                            "without control characters",
                            "write keys as plain words"});
      continue;
    }
    if (!seen.insert(key).second) {
      rec.issues.push_back({IssueType::kDuplicateKey, key, yaml_line + std::max<int64_t>(line, 0),
                            "duplicate frontmatter key '" + key + "'",
                            "keep one '" + key + ":' line and delete the other"});
      continue;
    }
    entries.push_back({key, kv.second, line});
  }
  return entries;
}

// The original text of each entry: its lines up to the next key's line, when
// the mapping is in block style with one key per line; else a re-emission.
std::vector<std::string> EntryTexts(const YAML::Node& root, const std::vector<Entry>& entries,
                                    std::string_view yaml, std::string* preamble) {
  std::vector<std::string> texts;
  bool by_lines = root.Style() != YAML::EmitterStyle::Flow;
  for (size_t i = 0; i < entries.size() && by_lines; ++i) {
    if (entries[i].line < 0 || (i > 0 && entries[i].line <= entries[i - 1].line)) by_lines = false;
  }
  if (!by_lines) {
    for (const Entry& e : entries) {
      texts.push_back(EmitString(e.key) + ": " + detail::EmitFlow(e.value) + "\n");
    }
    return texts;
  }
  std::vector<size_t> starts = LineStarts(yaml);
  if (!entries.empty()) *preamble = Lines(yaml, starts, 0, static_cast<size_t>(entries[0].line));
  // The lines before the first key are kept when they are comments and blank
  // lines. Anything else there is YAML that yaml-cpp read into the first entry
  // (" :" above an indented key, found by the fuzzer): written back on its own
  // line above lore's emission, it would read otherwise, so it is not kept.
  for (std::string_view line : text::Lines(*preamble)) {
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') {
      preamble->clear();
      break;
    }
  }
  for (size_t i = 0; i < entries.size(); ++i) {
    size_t last = i + 1 < entries.size() ? static_cast<size_t>(entries[i + 1].line) : starts.size();
    texts.push_back(Lines(yaml, starts, static_cast<size_t>(entries[i].line), last));
    if (!texts.back().empty() && texts.back().back() != '\n') texts.back() += '\n';
  }
  return texts;
}

// True when `text` (an entry's own lines) starts at column 0 and reads back
// alone as one entry of `key`: lines cut at key lines can split an entry whose key is not on its
// first line (an explicit `?` key, found by the fuzzer), and such a text must
// not be written back on its own.
bool ReadsBackAs(const std::string& text, const std::string& key) {
  // An entry of an indented mapping starts with blanks: below lore's own
  // lines at column 0 it would continue the line above (found by the fuzzer).
  if (text.empty() || text[0] == ' ' || text[0] == '\t') return false;
  // So does one behind a byte-order mark, which a parser skips at the start of the frontmatter
  // only: "\uFEFF Z]: x" is indented by the blank after it (found by the record fuzzer).
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) return false;
  auto node = detail::LoadYaml(text, "", 1);
  if (!node || !node->IsMap() || node->size() != 1) return false;
  try {
    const YAML::Node k = node->begin()->first;  // a copy: the iterator's value is a temporary
    return k.IsScalar() && k.Scalar() == key;
  } catch (const YAML::Exception&) {
    return false;
  }
}

}  // namespace

Result<Record> ParseRecord(Kind kind, std::string_view text, const std::string& path) {
  LORE_ASSIGN(FrontmatterSplit split, SplitFrontmatter(text, path));
  Record rec;
  rec.kind = kind;
  rec.body = std::string(split.body);
  rec.body_line = split.body_line;
  rec.original_head = std::string(text.substr(0, text.size() - split.body.size()));
  const int64_t yaml_line = split.yaml_line;
  LORE_ASSIGN(YAML::Node root, detail::LoadYaml(split.yaml, path, yaml_line));
  if (root.IsNull()) {
    rec.original_fields = rec.fields;
    return rec;
  }
  if (!root.IsMap()) {
    return Fail(ErrorCode::kCorrupt, "frontmatter is not a mapping of keys to values", path,
                yaml_line, "write one 'key: value' line per field between the '---' lines");
  }
  try {
    std::vector<Entry> entries = ReadEntries(root, yaml_line, rec);
    std::vector<std::string> texts = EntryTexts(root, entries, split.yaml, &rec.preamble);
    for (size_t i = 0; i < entries.size(); ++i) {
      const Entry& e = entries[i];
      int64_t key_line = yaml_line + std::max<int64_t>(e.line, 0);
      rec.lines[e.key] = key_line;
      if (IsKnownKey(kind, e.key)) {
        auto issue = detail::AssignField(rec.fields, e.key, e.value, yaml_line, key_line);
        if (!issue) continue;
        rec.issues.push_back(std::move(*issue));
      }
      rec.fields.extra.push_back(
          {e.key, ReadsBackAs(texts[i], e.key)
                      ? texts[i]
                      : EmitString(e.key) + ": " + detail::EmitFlow(e.value) + "\n"});
    }
  } catch (const YAML::Exception& e) {
    return Fail(ErrorCode::kCorrupt, "frontmatter is not valid YAML (" + e.msg + ")", path,
                FileLine(e.mark, split.yaml, yaml_line), kYamlRepair);
  }
  rec.original_fields = rec.fields;
  return rec;
}

}  // namespace lore::doc
