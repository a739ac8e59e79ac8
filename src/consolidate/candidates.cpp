#include "consolidate/candidates.h"

#include <nlohmann/json.hpp>

#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::consolidate {
namespace {

std::optional<doc::Source> ReadSource(const Json& j) {
  if (!j.is_object()) return std::nullopt;
  auto id = j.find("session_id");
  if (id == j.end()) id = j.find("segment_id");
  auto range = j.find("range");
  if (id == j.end() || !id->is_string() || range == j.end() || !range->is_array() ||
      range->size() != 2 || !(*range)[0].is_number_unsigned() ||
      !(*range)[1].is_number_unsigned()) {
    return std::nullopt;
  }
  return doc::Source{id->get<std::string>(),
                     {(*range)[0].get<uint64_t>(), (*range)[1].get<uint64_t>()}};
}

}  // namespace

bool CandidateReport::Covers(const doc::Source& s) const {
  for (const auto& c : sources) {
    if (c.session_id == s.session_id && c.range.from <= s.range.to && s.range.from <= c.range.to)
      return true;
  }
  return false;
}

Result<CandidateReport> ParseCandidates(std::string_view text, const std::string& path) {
  auto bad = [&](const std::string& what) {
    return Fail(
        ErrorCode::kCorrupt, "knowledge-candidate report " + what, path, 0,
        "write {\"candidates\": [{\"source\": {\"session_id\": ..., \"range\": [from, to]}}]} "
        "or remove the file (absent means empty)");
  };
  json::Limits limits;
  limits.max_bytes = size_t{16} << 20;
  auto parsed = json::ParseOrdered(text, limits);
  if (!parsed) return bad("is " + parsed.error().what);
  const Json& j = *parsed;
  const Json* list = &j;
  if (j.is_object()) {
    auto it = j.find("candidates");
    if (it == j.end()) return bad("has no \"candidates\" list");
    list = &*it;
  }
  if (!list->is_array()) return bad("\"candidates\" is not a list");
  CandidateReport out;
  for (size_t i = 0; i < list->size(); ++i) {
    const Json& c = (*list)[i];
    std::string at = "candidate " + std::to_string(i);
    if (!c.is_object()) return bad(at + " is not an object");
    std::vector<const Json*> sources;
    if (auto s = c.find("source"); s != c.end()) sources.push_back(&*s);
    if (auto s = c.find("sources"); s != c.end()) {
      if (!s->is_array()) return bad(at + " has \"sources\" that is not a list");
      for (const auto& one : *s) sources.push_back(&one);
    }
    if (sources.empty()) return bad(at + " names no source");
    for (const Json* s : sources) {
      auto src = ReadSource(*s);
      if (!src) return bad(at + " has a source that is not {session_id, range: [from, to]}");
      out.sources.push_back(std::move(*src));
    }
  }
  out.json = list->dump();
  return out;
}

Result<CandidateReport> LoadCandidates(const store::Store& store) {
  std::string path = store.Path(kCandidatesRel);
  auto text = fs::ReadFile(path, fs::Kind::kState);
  if (!text) {
    if (text.error().code == ErrorCode::kNotFound) return CandidateReport{{}, "[]"};
    return tl::unexpected(text.error());
  }
  return ParseCandidates(*text, path);
}

}  // namespace lore::consolidate
