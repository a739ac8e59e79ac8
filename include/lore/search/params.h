// Every ranking parameter of lore search, in one place, with its default.
// docs/search.md explains each one and the measurements behind the values.
#pragma once

namespace lore::search {

struct RankingParams {
  // Okapi BM25 over a record's text: term saturation and length
  // normalisation (0: none, 1: full).
  double k1 = 1.5;
  double b = 0.3;

  // Only the best `candidates` text matches (at least the number of hits
  // asked for) take part in the later stages (context, session, author, time).
  int candidates = 50;

  // Neighbour context: each of the best text matches lends a share of its
  // text score to the records next to it in the same session (same file and
  // session id), up to context_window on either side:
  // context_weight * (1 ± context_forward) * context_decay^(distance-1),
  // with + for the records after the match (an answer follows its question).
  bool context = true;
  int context_window = 3;
  double context_weight = 0.5;
  // Between a session log's records the share is smaller: a session log's hit
  // shows what followed it (Hit::then), so the steps after a match need less
  // lift of their own to be seen, and a run of them no longer crowds out
  // other sessions' answers.
  double log_context_weight = 0.3;
  double context_decay = 0.7;
  double context_forward = 0.3;

  // Session: a record in the same file and session as one of the best
  // `candidates` text matches gets session_weight times the best text score
  // among those of its session (its own included): a session about the
  // subject is where the rest of the evidence usually is.
  bool session = true;
  double session_weight = 0.3;

  // Author: a query word that is (part of) some record's author name counts
  // as a match on the author, not the text: its text weight becomes
  // name_text_weight, and a record by that author gets author_boost times its
  // text and context score.
  bool author = true;
  double name_text_weight = 0.0;
  double author_boost = 1.0;

  // Time: for a question about when, a record whose text holds a time
  // expression (a date, a weekday, "yesterday", "last week"…) gets
  // time_boost times its text and context score.
  // And when the query names a date ("on 8 May, 2023", "in June 2022",
  // "in 2021"), a record whose own time falls on it (a day either side for a
  // full date) gets date_boost times its text and context score.
  bool time = true;
  double time_boost = 0.3;
  double date_boost = 4.0;
  // A query naming a date also considers records of that date that hold no
  // query word (up to date_candidates of them, oldest first): each gets
  // date_prior times the best text score as its time part, before the boosts.
  int date_candidates = 50;
  double date_prior = 0.05;

  // Asking: a record of a JSON Lines log whose words end with a question
  // (index::Asks: "What did you do?") keeps ask_weight of its text and
  // expansion parts; it still lends its full score to the records after it
  // (context), where the answer usually is.
  bool asks = true;
  double ask_weight = 0.8;

  // Trace: a session log's tool call or tool result (a command, its output)
  // keeps trace_weight of its text and expansion parts. What the person and
  // the agent said explains what happened; the trace only shows it, and its
  // raw words (a command repeating the query's words, an error printed ten
  // times) would otherwise outrank the explanation. The weight applies before
  // anything else: what it lends its neighbours (context) is weighed too, so
  // that a run of repeated output cannot lift itself.
  bool trace = true;
  double trace_weight = 0.5;

  // Curated first: a learning the person reviewed and kept (the highest
  // trust lore has) gets curated_boost times its other parts on top, so that
  // it ranks above the session-log lines that say the same thing in passing.
  bool curated = true;
  double curated_boost = 1.0;

  // Diversity: neighbour context lifts the lines around a good match, so
  // the best few hits could all be one stretch of one session log, and a
  // wrong stretch would fill every place. A session log's record with diversity_max
  // better hits of its file within diversity_window lines of it waits until
  // the other records have had their places (it is never dropped). Other
  // scopes are left alone: on LoCoMo's conversations (raw lines) the evidence
  // of one question often is neighbouring turns, and recall fell below its gate.
  bool diversity = true;
  int diversity_window = 4;
  int diversity_max = 2;

  // Distinct: a record whose hit shows little a better hit has not shown (of
  // the searched words its excerpt holds, distinct_share are in a better
  // hit's) waits until the other records have had their places (it is never
  // dropped): a request record restating the person's line beside that line,
  // the same file read twice, a step the agent's summary above it retells. A
  // longer record that holds a better hit's words and more is not judged by
  // them: what it adds is its own. A record of fewer than distinct_min_words
  // such words is never judged: a short line's few words are found in longer
  // texts by chance, and a short command is an act with its own result after it.
  bool distinct = true;
  double distinct_share = 0.8;
  int distinct_min_words = 8;

  // Query expansion (search/expansion.h): tokens the query does not hold,
  // each searched with a weight below the query's own (1) on its BM25 part,
  // shown as the `expansion` part. An expansion token held by more than
  // expansion_max_df of the records (and by more than 50) is not searched (it
  // would say little and cost a scan of its rows).
  double expansion_max_df = 0.05;
  // Compounds: a hyphenated query word also searches its joined form
  // ("de-stress" -> "destress"), two adjacent query words too ("de stress")
  // when the index holds the joined form. (Records index the joined form of
  // their own hyphenated words whatever this says.)
  bool compounds = true;
  double compound_weight = 0.5;
  // WordNet: the other words of the most frequent sense of each query word
  // (synonyms, at most max_synonyms of them per word) and of its broader
  // senses (hypernyms), from the table generated at build time.
  bool synonyms = false;
  double synonym_weight = 0.3;
  int max_synonyms = 4;
  bool hypernyms = false;
  double hypernym_weight = 0.15;
  bool hyponyms = false;
  double hyponym_weight = 0.15;
  int max_hyponyms = 8;
  // Pseudo-relevance feedback (RM3-like): the feedback_terms tokens that
  // weigh most (share of the best feedback_docs first-pass matches' text,
  // weighted by their scores, times idf) are searched in a second pass, the
  // best with feedback_weight and the others in proportion.
  bool feedback = false;
  int feedback_docs = 5;
  int feedback_terms = 5;
  double feedback_weight = 0.2;
  // Co-occurrence (learned from the store's own text): for each query token,
  // the tokens most associated with it by pointwise mutual information over
  // the store, counting a record and the cooc_window records either side of
  // it in its session as one context. A token counts only when it shares at
  // least cooc_min_support contexts with the query token; at most cooc_terms
  // per query token, the best with cooc_weight and the others in proportion
  // of their PMI. At most cooc_sample records of a query token are read.
  bool cooc = false;
  double cooc_weight = 0.2;
  int cooc_terms = 3;
  int cooc_window = 1;
  int cooc_min_support = 3;
  int cooc_sample = 200;
};

}  // namespace lore::search
