// CleanRecord: private spans and secrets out of a record, frontmatter and
// body, before any writer stores it (docs/secrets.md).
#include <set>

#include "doc/yaml_value.h"
#include "lore/doc/record.h"
#include "redact/redact.h"
#include "text/lines.h"

namespace lore::doc {
namespace {

constexpr const char* kPrivateMarker = "[REDACTED:private]";

// A value of member `name`, as a JSON member's (redact::CleanJsonString).
bool CleanValue(std::string_view name, std::optional<std::string>& value) {
  std::string out;
  if (!value || !redact::CleanNamedValue(name, *value, &out)) return false;
  value = std::move(out);
  return true;
}

bool CleanSources(std::optional<std::vector<Source>>& sources) {
  bool changed = false;
  if (!sources) return false;
  for (Source& s : *sources) {
    std::optional<std::string> id = s.session_id;
    if (CleanValue("session_id", id)) {
      // An id that was all private is no id: a source without one would not read back as a
      // source (found by the record property test). It is named by its rule's marker.
      if (id->find_first_not_of(" \t") == std::string::npos) *id = kPrivateMarker;
      s.session_id = std::move(*id);
      changed = true;
    }
  }
  return changed;
}

// The comment lines before the first key, each cleaned alone (a private
// span left open drops the rest of its line only: the next line stays a
// comment of its own).
bool CleanPreamble(std::string& preamble) {
  if (!redact::HasFindings(preamble)) return false;
  std::string out;
  for (std::string_view line : text::Lines(preamble)) {
    out += redact::Clean(line);
    out += '\n';
  }
  preamble = std::move(out);
  return true;
}

// An entry lore does not interpret (its key and YAML kept as written): when
// its key, a key or a string inside its value, or its text (a comment)
// holds a secret, it is written again by the emitter with every key and
// string cleaned (comments dropped). `taken`: the record's keys; a key that
// cleaning changed and made like one of them gets "~2", "~3", ...
bool CleanRaw(RawEntry& entry, std::set<std::string>& taken) {
  const detail::ScalarFilter filter = [](std::string_view name, std::string_view value,
                                         std::string* out) {
    return redact::CleanNamedValue(name, value, out);
  };
  std::string key = redact::Clean(entry.key);
  // A private span at a key's end leaves blanks there, which no parser reads
  // back as part of a key (found by the record property test): they go.
  while (!key.empty() && key.back() == ' ') key.pop_back();
  while (!key.empty() && key.front() == ' ') key.erase(0, 1);
  // A key that was all private is no key a parser reads back: it is named
  // by the marker of its rule, as a secret's would be.
  if (!detail::IsKeyName(key)) key = kPrivateMarker;
  bool value_changed = true;
  // What the parser keeps reads back as one entry; anything else (it
  // cannot be) is kept as its text, cleaned.
  std::string value = EmitString(redact::Clean(entry.text));
  try {
    if (auto node = detail::LoadYaml(entry.text, "", 1);
        node && node->IsMap() && node->size() == 1) {
      const YAML::Node v = node->begin()->second;
      value = detail::EmitFlow(v, &filter, entry.key);
      value_changed = value != detail::EmitFlow(v);
    }
  } catch (const YAML::Exception&) {
  }
  if (key != entry.key) {
    const std::string base = key;
    for (int n = 2; taken.count(key); ++n) key = base + "~" + std::to_string(n);
    taken.insert(key);
  }
  if (key == entry.key && !value_changed && !redact::HasFindings(entry.text)) return false;
  entry.key = key;
  entry.text = EmitString(key) + ": " + value + "\n";
  return true;
}

}  // namespace

bool CleanRecord(Record& r) {
  Fields& f = r.fields;
  bool head = false;
  const std::pair<std::string_view, std::optional<std::string>*> texts[] = {
      {"created_at", &f.created_at},
      {"updated_at", &f.updated_at},
      {"kind", &f.kind},
      {"description", &f.description},
      {"status", &f.status},
      {"replaced_by", &f.replaced_by}};
  for (const auto& [key, slot] : texts) head = CleanValue(key, *slot) || head;
  if (f.requirements) {
    for (std::string& s : *f.requirements) {
      std::optional<std::string> v = s;
      if (CleanValue({}, v)) {
        s = std::move(*v);
        head = true;
      }
    }
  }
  head = CleanSources(f.sources) || head;
  head = CleanSources(f.last_sources) || head;
  // The keys cleaning leaves as they are keep their names; one it changes
  // must not become one of them.
  std::set<std::string> taken;
  for (std::string_view key : KnownKeys(r.kind)) {
    if (HasValue(f, key)) taken.insert(std::string(key));
  }
  for (const RawEntry& e : f.extra) {
    if (!redact::HasFindings(e.key)) taken.insert(e.key);
  }
  for (RawEntry& e : f.extra) head = CleanRaw(e, taken) || head;
  head = CleanPreamble(r.preamble) || head;
  // A secret left in the file's own head (a comment beside a known key) goes
  // with the re-emission of the frontmatter.
  if (!r.original_head.empty() && (head || redact::HasFindings(r.original_head))) {
    r.original_head.clear();
    head = true;
  }
  std::string body;
  if (!redact::CleanNamedValue("", r.body, &body)) return head;
  r.body = std::move(body);
  return true;
}

}  // namespace lore::doc
