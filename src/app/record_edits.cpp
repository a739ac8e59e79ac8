// The record built or changed field by field (app/memory.h RecordEdits):
// what the flags of `lore memory write|edit` ask, applied to the record.
#include <algorithm>
#include <charconv>
#include <optional>

#include "lore/app/memory.h"
#include "lore/doc/facts.h"
#include "lore/fs/fd.h"
#include "lore/lint/finding.h"

namespace lore::app {
namespace {

Error Usage(std::string what, std::string repair) {
  return Error{ErrorCode::kInvalidInput, std::move(what), "", 0, std::move(repair)};
}

bool ParseUint(std::string_view s, uint64_t* out) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string_view::npos) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

// "SESSION:FROM-TO" or "SESSION:N" (the session id may itself hold ':').
Result<doc::Source> ParseSource(std::string_view spec) {
  const char* repair = "write --source SESSION:FROM-TO, e.g. --source s1:3-17";
  size_t colon = spec.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    return tl::unexpected(Usage("bad --source '" + std::string(spec) + "'", repair));
  }
  doc::Source s;
  s.session_id = std::string(spec.substr(0, colon));
  std::string_view range = spec.substr(colon + 1);
  size_t dash = range.find('-');
  std::string_view from = range.substr(0, dash);
  std::string_view to = dash == std::string_view::npos ? from : range.substr(dash + 1);
  if (!ParseUint(from, &s.range.from) || !ParseUint(to, &s.range.to) || s.range.from > s.range.to) {
    return tl::unexpected(Usage("bad range in --source '" + std::string(spec) + "'", repair));
  }
  return s;
}

lore::Status ApplySources(const std::vector<std::string>& specs, doc::Record& r) {
  if (specs.empty()) return Ok();
  std::vector<doc::Source> given;
  for (const auto& spec : specs) {
    LORE_ASSIGN(doc::Source s, ParseSource(spec));
    given.push_back(std::move(s));
  }
  if (r.kind == doc::Kind::kKnowledge) {
    r.fields.last_sources = std::move(given);  // the sources of this latest change
    return Ok();
  }
  if (r.kind != doc::Kind::kDecision && r.kind != doc::Kind::kRequest) {
    return tl::unexpected(Usage("--source applies to decisions, requests and knowledge only",
                                "set the summary's range with --set "
                                "last_rewritten_from_range=[FROM, TO]"));
  }
  auto& list = r.fields.sources;
  if (!list) list.emplace();
  for (auto& s : given) {
    if (std::find(list->begin(), list->end(), s) == list->end()) list->push_back(std::move(s));
  }
  return Ok();
}

// Sets KEY from VALUE the way the record parser reads "KEY: VALUE": typed
// keys take the YAML value; text keys (and keys lore does not interpret) the
// scalar's text, so that quotes mean what they mean in the file, or VALUE
// literally when it is not a YAML scalar ("Use: WAL"). Errors name the flag.
lore::Status ApplySet(std::string_view assignment, doc::Record& r) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return tl::unexpected(Usage("bad --set '" + std::string(assignment) + "'",
                                "write --set KEY=VALUE, e.g. --set status=resolved"));
  }
  std::string key(assignment.substr(0, eq));
  std::string_view value = assignment.substr(eq + 1);
  lore::Status s;
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    s = doc::SetFieldYaml(r, key, value);  // refused as a value of more than one line
  } else if (doc::IsKnownKey(r.kind, key) && !doc::IsTextKey(r.kind, key)) {
    s = doc::SetFieldYaml(r, key, value);
  } else if (!doc::IsKnownKey(r.kind, key) && doc::IsFlowCollection(value)) {
    s = doc::SetFieldYaml(r, key, value);
  } else {
    s = doc::SetFieldText(r, key, doc::ScalarText(value).value_or(std::string(value)));
  }
  if (s) return s;
  std::string why = s.error().what;
  if (why.rfind("cannot set ", 0) == 0) why.erase(0, 11);
  std::string shown;  // one line: a line break is shown as \n
  for (char c : assignment) {
    if (c == '\n' || c == '\r') {
      shown += c == '\n' ? "\\n" : "\\r";
    } else {
      shown += c;
    }
  }
  return tl::unexpected(Usage("invalid --set " + shown + " (" + why + ")", s.error().repair));
}

Result<std::string> ReadBody(const RecordEdits& e) {
  if (e.body) return *e.body;
  if (e.body_file == "-") {
    if (!e.read_stdin) return Fail(ErrorCode::kInternal, "no standard input to read", "<stdin>");
    return e.read_stdin();
  }
  return fs::ReadFile(e.body_file, fs::Kind::kBody);
}

lore::Status ApplyEdits(const RecordEdits& e, doc::Record& r, text::TimePoint now, bool touch) {
  for (const auto& key : e.unset) doc::UnsetField(r, key);
  bool set_updated = false;
  for (const auto& a : e.set) {
    LORE_TRY(ApplySet(a, r));
    set_updated = set_updated || a.rfind("updated_at=", 0) == 0;
  }
  LORE_TRY(ApplySources(e.source, r));
  if (e.body || !e.body_file.empty()) {
    LORE_ASSIGN(r.body, ReadBody(e));
  }
  if (!e.append.empty()) {
    if (!r.body.empty() && r.body.back() != '\n') r.body += '\n';
    if (!r.body.empty()) r.body += '\n';
    r.body += e.append;
    if (r.body.back() != '\n') r.body += '\n';
  }
  if (touch && !set_updated && !e.no_touch) {
    LORE_TRY(doc::SetFieldText(r, "updated_at", text::UtcSeconds(now)));
  }
  return Ok();
}

// Each finding about a field given with --set names that flag and its value.
void BlameEdits(const RecordEdits& e, RecordChange& change) {
  if (!change.outcome) return;
  for (auto& finding : change.outcome->report.findings) {
    if (finding.field.empty()) continue;
    for (auto it = e.set.rbegin(); it != e.set.rend(); ++it) {  // the last --set of a key counts
      if (it->compare(0, finding.field.size() + 1, finding.field + "=") != 0) continue;
      finding.path = "--set " + *it;
      finding.line = 0;
      break;
    }
  }
}

}  // namespace

bool RecordEdits::Any() const {
  return !set.empty() || !unset.empty() || !source.empty() || body || !body_file.empty() ||
         !append.empty();
}

Result<std::string> RecordTextFrom(doc::Kind kind, const RecordEdits& edits, text::TimePoint now) {
  doc::Record rec = doc::NewRecord(kind, now);
  LORE_TRY(ApplyEdits(edits, rec, now, false));
  return doc::RenderRecord(rec);
}

RecordChange WriteRecordFrom(const store::Store& store, doc::Kind kind, std::string_view slug,
                             const RecordEdits& edits, text::TimePoint now) {
  auto text = RecordTextFrom(kind, edits, now);
  if (!text) {
    RecordChange out;
    out.outcome = Fail(text.error());
    return out;
  }
  RecordChange out = WriteRecord(store, kind, slug, *text);
  BlameEdits(edits, out);
  return out;
}

RecordChange EditRecordWith(const store::Store& store, doc::Kind kind, std::string_view slug,
                            const RecordEdits& edits, text::TimePoint now) {
  RecordChange out = EditRecord(
      store, kind, slug, [&](doc::Record& rec) { return ApplyEdits(edits, rec, now, true); });
  BlameEdits(edits, out);
  return out;
}

}  // namespace lore::app
