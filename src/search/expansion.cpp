#include "lore/search/expansion.h"

#include <cstddef>

#include "text/table.h"

namespace lore::search {
namespace internal {
// Generated at build time by tools/wordnet_table.cpp (cmake/SynonymTable.cmake):
// sorted lines "<stem>\t<synonyms>\t<hypernyms>\t<hyponyms>\n".
extern const char kSynonymTable[];
extern const size_t kSynonymTableSize;
}  // namespace internal

namespace {

std::vector<std::string> Split(std::string_view s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t sp = s.find(' ', pos);
    if (sp == std::string_view::npos) sp = s.size();
    if (sp > pos) out.emplace_back(s.substr(pos, sp - pos));
    pos = sp + 1;
  }
  return out;
}

}  // namespace

std::string_view StageName(ExpansionStage s) {
  switch (s) {
    case ExpansionStage::kCompound:
      return "compound";
    case ExpansionStage::kSynonym:
      return "synonym";
    case ExpansionStage::kHypernym:
      return "hypernym";
    case ExpansionStage::kHyponym:
      return "hyponym";
    case ExpansionStage::kFeedback:
      return "feedback";
    case ExpansionStage::kCooc:
      return "cooc";
    case ExpansionStage::kIrregular:
      return "irregular";
  }
  return "?";
}

Status SetExpansionStages(std::string_view list, RankingParams* p) {
  bool all = list == "all";
  p->compounds = p->synonyms = p->hypernyms = p->hyponyms = p->feedback = p->cooc = all;
  if (all || list == "none") return Ok();
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string_view::npos) comma = list.size();
    std::string_view s = list.substr(pos, comma - pos);
    if (s == "compounds") {
      p->compounds = true;
    } else if (s == "synonyms") {
      p->synonyms = true;
    } else if (s == "hypernyms") {
      p->hypernyms = true;
    } else if (s == "hyponyms") {
      p->hyponyms = true;
    } else if (s == "feedback") {
      p->feedback = true;
    } else if (s == "cooc") {
      p->cooc = true;
    } else {
      return Fail(
          ErrorCode::kInvalidInput, "unknown expansion stage '" + std::string(s) + "'", "", 0,
          "use none, all, or a comma list of compounds, synonyms, hypernyms, hyponyms, feedback, "
          "cooc");
    }
    pos = comma + 1;
  }
  return Ok();
}

bool HasSynonymTable() { return internal::kSynonymTableSize > 0; }

Related LookUpRelated(std::string_view stem) {
  Related r;
  std::string_view table(internal::kSynonymTable, internal::kSynonymTableSize);
  std::string_view line = text::FindTableLine(table, stem);
  if (line.empty()) return r;
  size_t t1 = line.find('\t');
  size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
  size_t t3 = t2 == std::string_view::npos ? t2 : line.find('\t', t2 + 1);
  if (t3 == std::string_view::npos) return r;
  r.synonyms = Split(line.substr(t1 + 1, t2 - t1 - 1));
  r.hypernyms = Split(line.substr(t2 + 1, t3 - t2 - 1));
  r.hyponyms = Split(line.substr(t3 + 1));
  return r;
}

}  // namespace lore::search
