// Words for the search index and for queries.
//
// A word is a run of ASCII letters and digits or of non-ASCII letters; ASCII
// punctuation, Unicode punctuation, symbols and emoji separate words. Words
// are lower-cased (ASCII and Latin-1). Tokens are the words that are not stop
// words (nor one ASCII letter), optionally reduced to their stem by the
// Snowball English stemmer, an irregular verb form first read as its verb
// ("bought" -> "buy": WordNet's exception list, which no suffix rule reaches). Tokens never contain
// ASCII punctuation or spaces, so a token is always safe inside a double-quoted FTS5 string, and
// tokens joined by spaces are split back into the same tokens by FTS5's `ascii` tokenizer.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lore::index {

enum class Stemming {
  kOff,              // words as written
  kSnowballEnglish,  // the Snowball English stem
  kEnglish,          // an irregular verb form read as its verb, then the Snowball stem
};

// Every word of `text`, lower-cased, in order (stop words included).
std::vector<std::string> Words(std::string_view text);

// True for English stop words ("the", "was", "when", …) and single ASCII letters.
bool IsStopWord(std::string_view word);

// The Snowball English stem of a lower-case word (the word itself when off);
// with kEnglish, of IrregularVerb(word) when it has one.
std::string Stem(std::string_view word, Stemming stemming);

// The verb of an irregular inflected form ("bought" -> "buy", "went" -> "go",
// "thought" -> "think"), from a table generated at build time from WordNet's
// verb.exc (tools/wordnet_table.cpp); empty for every other word, for forms
// the stemmer already reaches ("running") and for forms more often a noun or
// an adjective ("bit", "bound", "ground"). Empty when the build had no WordNet.
std::string_view IrregularVerb(std::string_view word);

// The words written with ASCII hyphens between letters, joined
// ("De-stress" -> "destress", "mother-in-law" -> "motherinlaw"), lower-cased:
// the same word is written "de-stress" and "destress". With `written`, also
// each as the text wrote it ("De-stress").
std::vector<std::string> Compounds(std::string_view text,
                                   std::vector<std::string>* written = nullptr);

// The searchable tokens of `text`: Words minus stop words, stemmed, then the
// Compounds stemmed (so "de-stress" is found by "destress" too).
std::vector<std::string> Tokenize(std::string_view text, Stemming stemming);

// Calls `f` with each token Tokenize(text, stemming) returns, in the same
// order, without building the vector (the excerpts of a search look each
// token up once and drop it). `f` must not call Stem or Tokenize.
void ForEachToken(std::string_view text, Stemming stemming,
                  const std::function<void(const std::string&)>& f);

// Tokens joined by single spaces (what the index stores).
std::string TokenString(std::string_view text, Stemming stemming);

// The number of time expressions in `text`: weekdays, months, years
// (1900-2099), "yesterday", "last week", "ago"… (English). Stored per record
// so that a question about when can prefer records that say when.
int TimeExpressions(std::string_view text);

// True when the last mark that ends a sentence in `text` (. ! ? … and their
// full-width forms) is a question mark: the record asks rather than tells
// ("That's great! What did you do?"). Stored per record of a JSON Lines log,
// so that ranking can weigh a question below the records that answer it.
bool Asks(std::string_view text);

}  // namespace lore::index
