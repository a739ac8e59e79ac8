// Every ranking parameter of lore search, in one place, with its default.
// docs/search.md explains each one and the measurements behind the values.
#pragma once

namespace lore::search {

struct RankingParams {
  // Okapi BM25 over a record's text: term saturation and length
  // normalisation (0: none, 1: full).
  double k1 = 1.5;
  double b = 0.75;

  // Only the best `candidates` text matches take part in the later stages
  // (context, author, time); enough for any k up to 100.
  int candidates = 200;

  // Neighbour context: a record is lifted by the text score of the records
  // next to it in the same session (same file and session id), by
  // context_weight * context_decay^(distance-1) for each of up to
  // context_window neighbours on either side.
  bool context = false;
  int context_window = 1;
  double context_weight = 0.5;
  double context_decay = 0.5;

  // Author: a query word that is (part of) some record's author name counts
  // as a match on the author, not the text: its text weight becomes
  // name_text_weight, and a record by that author gets author_boost times its
  // text and context score.
  bool author = false;
  double name_text_weight = 0.0;
  double author_boost = 0.5;

  // Time: for a question about when, a record whose text holds a time
  // expression (a date, a weekday, "yesterday", "last week"…) gets
  // time_boost times its text and context score.
  bool time = false;
  double time_boost = 0.3;
};

}  // namespace lore::search
