// Query expansion: words the query does not hold but means (docs/search.md).
//
// Each expansion term is searched like a query token, with a weight below 1
// on its BM25 part, and named by --explain with where it came from:
//   compound  the joined form of a hyphenated or split query word
//             ("de-stress", "de stress" -> "destress")
//   synonym   another word of the most frequent WordNet sense of a query word
//   hypernym  a word of that sense's broader senses (WordNet)
//   hyponym   a word of the narrower senses of a noun's most frequent senses
//             ("sport" -> "hockey"; WordNet)
//   feedback  a word frequent in the best first-pass matches (RM3-like
//             pseudo-relevance feedback)
//   cooc      a word that co-occurs with a query word in the store's own
//             records more than chance says (pointwise mutual information)
// and, not an expansion but named the same way, "irregular": a query word
// read as its verb ("bought" -> buy, index/tokenizer.h), whose token is the
// query's own (weight 1, in the text part).
// Every stage has a switch and a weight in search/params.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/search/params.h"

namespace lore::search {

enum class ExpansionStage {
  kCompound,
  kSynonym,
  kHypernym,
  kHyponym,
  kFeedback,
  kCooc,
  kIrregular,
};

std::string_view StageName(ExpansionStage s);

struct Expansion {
  std::string token;  // the searched token (a stem)
  std::string of;     // the query word it expands
  ExpansionStage stage = ExpansionStage::kSynonym;
  double weight = 0;  // multiplies its BM25 part
};

// Synonym and hypernym stems of a stemmed word, from the table generated at
// build time from WordNet (empty when the build had no WordNet data).
struct Related {
  std::vector<std::string> synonyms, hypernyms, hyponyms;
};
Related LookUpRelated(std::string_view stem);

// Turns the expansion stages of `p` on or off from a list: "none", "all",
// or a comma list of compounds, synonyms, hypernyms, hyponyms, feedback, cooc (only those
// on). An error names an unknown stage.
Status SetExpansionStages(std::string_view list, RankingParams* p);

// True when the build carries a WordNet table.
bool HasSynonymTable();

}  // namespace lore::search
