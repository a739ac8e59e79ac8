#include "cli/record_flags.h"

#include <charconv>
#include <optional>

#include "cli/io.h"
#include "lore/doc/facts.h"
#include "lore/fs/fd.h"

namespace lore::cli {
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

Status ApplySources(const std::vector<std::string>& specs, doc::Record& r) {
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
Status ApplySet(std::string_view assignment, doc::Record& r) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0) {
    return tl::unexpected(Usage("bad --set '" + std::string(assignment) + "'",
                                "write --set KEY=VALUE, e.g. --set status=resolved"));
  }
  std::string key(assignment.substr(0, eq));
  std::string_view value = assignment.substr(eq + 1);
  Status s;
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

Result<std::string> ReadBody(const RecordFlags& f) {
  if (f.body) return *f.body;
  if (f.body_file == "-") return ReadStdin();
  return fs::ReadFile(f.body_file, fs::Kind::kBody);
}

}  // namespace

bool RecordFlags::Any() const {
  return !set.empty() || !unset.empty() || !source.empty() || body || !body_file.empty() ||
         !append.empty();
}

void AddRecordFlags(CLI::App* sub, RecordFlags& f, bool edit) {
  sub->add_option("--set", f.set,
                  "KEY=VALUE: set a frontmatter field (text fields take VALUE as is; others a "
                  "YAML value such as true or [a, b]); repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--source", f.source,
                  "SESSION:FROM-TO: a source of this change (appended to sources; replaces a "
                  "knowledge page's last_sources); repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  auto* body = sub->add_option_function<std::string>(
      "--body",
      [&f](const std::string& v) { f.body = v.empty() || v.back() == '\n' ? v : v + '\n'; },
      "The body (Markdown after the frontmatter; a final newline is added)");
  sub->add_option("--body-file", f.body_file, "Read the body from a file ('-': standard input)")
      ->excludes(body);
  if (!edit) return;
  sub->add_option("--unset", f.unset, "KEY: remove a frontmatter field; repeatable")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sub->add_option("--append", f.append, "Append a paragraph to the body");
  sub->add_flag("--no-touch", f.no_touch, "Keep updated_at as it is");
}

void BlameFlags(const RecordFlags& f, lint::Report& report) {
  for (auto& finding : report.findings) {
    if (finding.field.empty()) continue;
    for (auto it = f.set.rbegin(); it != f.set.rend(); ++it) {  // the last --set of a key counts
      if (it->compare(0, finding.field.size() + 1, finding.field + "=") != 0) continue;
      finding.path = "--set " + *it;
      finding.line = 0;
      break;
    }
  }
}

Status ApplyRecordFlags(const RecordFlags& f, doc::Record& r, text::TimePoint now, bool touch) {
  for (const auto& key : f.unset) doc::UnsetField(r, key);
  bool set_updated = false;
  for (const auto& a : f.set) {
    LORE_TRY(ApplySet(a, r));
    set_updated = set_updated || a.rfind("updated_at=", 0) == 0;
  }
  LORE_TRY(ApplySources(f.source, r));
  if (f.body || !f.body_file.empty()) {
    LORE_ASSIGN(r.body, ReadBody(f));
  }
  if (!f.append.empty()) {
    if (!r.body.empty() && r.body.back() != '\n') r.body += '\n';
    if (!r.body.empty()) r.body += '\n';
    r.body += f.append;
    if (r.body.back() != '\n') r.body += '\n';
  }
  if (touch && !set_updated && !f.no_touch) {
    LORE_TRY(doc::SetFieldText(r, "updated_at", text::UtcSeconds(now)));
  }
  return Ok();
}

}  // namespace lore::cli
