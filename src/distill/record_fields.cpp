#include "distill/record_fields.h"

#include <cstdlib>

#include "distill/markdown.h"

namespace lore::distill {
namespace {

// Keys tried in order; the first non-empty string wins.
constexpr std::initializer_list<const char*> kFindingKeys = {
    "finding", "gotcha",  "problem",     "summary", "title", "issue",
    "comment", "message", "description", "note",    "body",  "text"};
constexpr std::initializer_list<const char*> kFindingListKeys = {"findings", "issues", "problems",
                                                                 "gotchas", "comments"};
constexpr std::initializer_list<const char*> kLessonKeys = {
    "lesson", "learning", "takeaway", "advice", "recommendation", "suggestion", "fix"};
constexpr std::initializer_list<const char*> kSeverityKeys = {"severity", "level", "priority",
                                                              "impact"};
constexpr std::initializer_list<const char*> kFileKeys = {
    "files", "file", "file_paths", "paths", "path", "locations", "location"};
constexpr std::initializer_list<const char*> kTicketKeys = {
    "ticket", "ticket_id", "pr", "pull_request", "issue_id", "change", "id"};

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

std::vector<std::string> FilesOf(const Flat& object) {
  for (const char* k : kFileKeys) {
    const FlatValue* v = object.Find(k);
    if (!v) continue;
    auto files = StringList(*v);
    if (!files.empty()) return files;
  }
  return {};
}

Finding FromObject(const Flat& o, const Finding& parent) {
  Finding f = parent;
  f.text = OneLine(FirstText(o, kFindingKeys), 1000);
  if (auto lesson = FirstText(o, kLessonKeys); !lesson.empty()) f.lesson = OneLine(lesson, 1000);
  if (auto sev = FirstText(o, kSeverityKeys); !sev.empty()) f.severity = Lower(OneLine(sev, 40));
  if (auto files = FilesOf(o); !files.empty()) f.files = files;
  return f;
}

}  // namespace

std::string FirstText(const Flat& object, std::initializer_list<const char*> keys) {
  for (const char* k : keys) {
    const FlatValue* v = object.Find(k);
    if (v && v->scalar && v->text.find_first_not_of(" \t\r\n") != std::string::npos) return v->text;
  }
  return {};
}

std::vector<std::string> StringList(const FlatValue& value) {
  std::vector<std::string> out;
  auto add = [&out](const std::string& text) {
    std::string s = OneLine(text, 200);
    if (!s.empty()) out.push_back(std::move(s));
  };
  if (value.list) {
    for (const auto& item : value.items) {
      add(item.object >= 0
              ? FirstText(value.objects[static_cast<size_t>(item.object)], {"path", "file", "name"})
              : item.text);
    }
  } else if (value.scalar) {
    add(value.text);
  }
  return out;
}

int SeverityRank(const std::string& s) {
  if (s.empty()) return 0;
  if (s == "critical" || s == "blocker" || s == "blocking") return 6;
  if (s == "high" || s == "major" || s == "severe" || s == "error") return 5;
  if (s == "medium" || s == "moderate" || s == "normal" || s == "warning") return 4;
  if (s == "low" || s == "minor") return 3;
  if (s == "info" || s == "nit" || s == "trivial" || s == "style" || s == "suggestion") return 2;
  return 1;
}

std::vector<Finding> ReviewFindings(const Flat& record, int64_t line, const std::string& date) {
  Finding base;
  base.line = line;
  base.date = date;
  base.ticket = OneLine(FirstText(record, kTicketKeys), 60);
  if (FirstText(record, {"ticket", "ticket_id"}).empty()) {
    std::string pr = FirstText(record, {"pr", "pull_request"});
    if (!pr.empty() && pr.find_first_not_of("0123456789") == std::string::npos)
      base.ticket = "PR #" + pr;
  }
  base.severity = Lower(OneLine(FirstText(record, kSeverityKeys), 40));
  base.lesson = OneLine(FirstText(record, kLessonKeys), 1000);
  base.files = FilesOf(record);
  std::vector<Finding> out;
  for (const char* k : kFindingListKeys) {
    const FlatValue* list = record.Find(k);
    if (!list || !list->list) continue;
    for (const auto& item : list->items) {
      Finding f = item.object >= 0
                      ? FromObject(list->objects[static_cast<size_t>(item.object)], base)
                      : base;
      if (item.object < 0) f.text = OneLine(item.text, 1000);
      if (!f.text.empty()) out.push_back(std::move(f));
    }
    if (!out.empty()) return out;
  }
  Finding f = FromObject(record, base);
  if (!f.text.empty()) out.push_back(std::move(f));
  return out;
}

SlicingOutcome SlicingFields(const Flat& r, int64_t line, const std::string& date) {
  SlicingOutcome s;
  s.line = line;
  s.date = date;
  s.ticket = OneLine(FirstText(r, {"ticket_id", "ticket", "id"}), 60);
  s.verdict = Lower(OneLine(FirstText(r, {"verdict", "outcome", "decision"}), 40));
  if (s.verdict.empty()) s.verdict = "(none)";
  s.reason = OneLine(FirstText(r, {"reason", "rationale", "why"}), 1000);
  s.depth = OneLine(FirstText(r, {"depth"}), 20);
  if (const FlatValue* v = r.Find("verbs")) s.verbs = StringList(*v);
  if (const FlatValue* v = r.Find("traits")) s.traits = StringList(*v);
  for (auto& v : s.verbs) v = Lower(v);
  for (auto& t : s.traits) t = Lower(t);
  return s;
}

Learning LearningFields(const Flat& r) {
  Learning l;
  l.type = OneLine(FirstText(r, {"type"}), 60);
  if (l.type.empty()) l.type = "(untyped)";
  l.subject = OneLine(FirstText(r, {"subject"}), 200);
  l.insight = OneLine(FirstText(r, {"insight"}), 2000);
  l.created_at = OneLine(FirstText(r, {"created_at"}), 40);
  l.expires_at = OneLine(FirstText(r, {"expires_at"}), 40);
  if (const FlatValue* v = r.Find("confidence"); v && v->scalar) {
    char* end = nullptr;
    double c = std::strtod(v->text.c_str(), &end);
    if (end && *end == '\0' && !v->text.empty() && v->text.find_first_of("0123456789") == 0)
      l.confidence = c;
  }
  if (const FlatValue* v = r.Find("file_paths")) l.files = StringList(*v);
  return l;
}

}  // namespace lore::distill
