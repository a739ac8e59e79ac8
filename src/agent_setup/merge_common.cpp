#include "agent_setup/merge_common.h"

#include <cstdint>

#include "agent_setup/key_line.h"
#include "lore/agent_setup/merge.h"
#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/json/value.h"

namespace lore::agent_setup {
namespace {

// The subtype of a binary value that stands for a number as the person wrote
// it: nlohmann keeps a number as an int64, uint64 or double and would write
// 12345678901234567890123 as 1.2345678901234568e+22, -0 as 0 and 1E5 as
// 100000.0. Render writes the lexeme back.
constexpr std::uint8_t kLexemeSubtype = 0x4c;

// The number lexemes of `text` (valid JSON), in the order written.
std::vector<std::string_view> NumberLexemes(std::string_view text) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"';) i += text[i] == '\\' ? 2 : 1;
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const size_t from = i;
      while (i < text.size() &&
             (std::string_view("0123456789+-.eE").find(text[i]) != std::string_view::npos)) {
        ++i;
      }
      out.push_back(text.substr(from, i - from));
    } else {
      ++i;
    }
  }
  return out;
}

// Replaces each number of `j` (in document order: keys keep their order and
// repeated keys are refused, so the n-th number is the n-th lexeme) that
// nlohmann would not write as written by its lexeme.
void KeepSpelling(Json& j, const std::vector<std::string_view>& lexemes, size_t* next) {
  if (j.is_object() || j.is_array()) {
    for (Json& v : j) KeepSpelling(v, lexemes, next);
    return;
  }
  if (!j.is_number() || *next >= lexemes.size()) return;
  const std::string_view lexeme = lexemes[(*next)++];
  if (j.dump() == lexeme) return;
  j = Json::binary(std::vector<std::uint8_t>(lexeme.begin(), lexeme.end()), kLexemeSubtype);
}

void Write(const Json& j, int indent, int depth, std::string* out) {
  const bool object = j.is_object();
  if ((object || j.is_array()) && !j.empty()) {
    const std::string pad = indent < 0 ? "" : "\n" + std::string(indent * (depth + 1), ' ');
    *out += object ? '{' : '[';
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) *out += ',';
      first = false;
      *out += pad;
      if (object) {
        *out += Json(it.key()).dump(-1, ' ', false, Json::error_handler_t::replace);
        *out += indent < 0 ? ":" : ": ";
      }
      Write(*it, indent, depth + 1, out);
    }
    if (indent >= 0) *out += "\n" + std::string(indent * depth, ' ');
    *out += object ? '}' : ']';
    return;
  }
  if (j.is_binary() && j.get_binary().has_subtype() && j.get_binary().subtype() == kLexemeSubtype) {
    out->append(j.get_binary().begin(), j.get_binary().end());
    return;
  }
  *out += j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

std::string_view StateName(PieceState s) {
  switch (s) {
    case PieceState::kInstalled:
      return "installed";
    case PieceState::kMissing:
      return "missing";
    case PieceState::kDifferent:
      return "different";
  }
  return "missing";
}

std::string MalformedRepair(std::string_view expected) {
  return "fix the file by hand (" + std::string(expected) +
         ") or move it aside, then run 'lore init' again; nothing was changed";
}

Result<Json> ReadObject(std::string_view text, const std::string& path, std::string_view expected) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return Json::object();
  }
  json::Limits limits;
  limits.max_bytes = size_t{8} << 20;
  limits.max_depth = 128;
  LORE_ASSIGN(auto doc, json::ParseOrdered(text, limits, {path, 1, MalformedRepair(expected)}));
  if (!doc.is_object()) {
    return Fail(ErrorCode::kCorrupt, "not a JSON object", path, 1, MalformedRepair(expected));
  }
  size_t next = 0;
  KeepSpelling(doc, NumberLexemes(text), &next);
  return doc;
}

Error ShapeError(std::string_view text, const std::string& path,
                 const std::vector<std::string>& keys, std::string_view what,
                 std::string_view expected) {
  return Error{ErrorCode::kCorrupt, std::string(what), path, LineOfKey(text, keys),
               MalformedRepair(expected)};
}

bool NamesLore(std::string_view program) { return fs::Basename(program) == "lore"; }

std::string Render(const nlohmann::ordered_json& doc) {
  std::string out;
  Write(doc, 2, 0, &out);
  return out + "\n";
}

std::string RenderCompact(const nlohmann::ordered_json& value) {
  std::string out;
  Write(value, -1, 0, &out);
  return out;
}

}  // namespace lore::agent_setup
