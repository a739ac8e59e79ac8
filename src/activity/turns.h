// Reading the person's turns against the agent's last words: whether a turn
// is a question, an acknowledgement, or an answer choosing one of the options
// the agent offered (docs/extract.md, "Decisions in prose").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lore::activity {

// "ok", "thanks", "continue", "go ahead", "yes" and the like: a turn that
// asks for nothing new. Punctuation and case do not matter.
bool IsAcknowledgement(std::string_view text);

// A bare pick of one of the agent's options: "3", "2.", "B", "option 2". It
// answers the question before it (ChosenOption reads it against the options),
// and is never a request of its own.
bool IsOptionAnswer(std::string_view text);

// A question: its first line ends with '?', or it opens with why/does/is
// there/is it/are there/should we/should I, or with how/what/which/should/
// is/are/do/where/when and holds a '?'. "can you …", "could you …",
// "please …" are requests put politely, not questions.
bool IsQuestion(std::string_view text);

// The options the agent's message lists: "1. **A** — …", "2) B", "- **A**: …",
// "Option A: …", "A) …" / "B) …" lines, at most `max` of them, each its label
// (cut to 160 bytes, emphasis removed); empty when fewer than two. `markers`,
// when given, receives each option's number or letter ("1", "B"; "" for a
// bullet).
std::vector<std::string> ListedOptions(std::string_view text, size_t max = 9,
                                       std::vector<std::string>* markers = nullptr);

// The agent's closing question (its last sentence, when it ends with '?').
std::string ClosingQuestion(std::string_view text);

// What a short reply chooses among `options`: an option's marker ("2",
// "option B"), else its position ("the second", "b"), else the words of one
// option's label ("force push" for "Force push the branch"). nullopt when it
// names none of them.
std::optional<size_t> ChosenOption(std::string_view reply, const std::vector<std::string>& options,
                                   const std::vector<std::string>& markers = {});

// The line of the agent's message that recommends option `chosen` of its
// `options` ("I'd go with 1: smallest blast radius, no inbound port", "I
// recommend option B because …"), by its marker or its label's first word; ""
// when the message recommends none, or another one.
std::string Recommendation(std::string_view text, const std::vector<std::string>& options,
                           const std::vector<std::string>& markers, size_t chosen);

// An agent's numbered questions, each with its lettered options: an
// interview ("### 7. Accessibility API" then "- **A) AXUIElement** — …",
// "| **B) CGWindowList** | …"). A question is a numbered heading or bold line;
// its options are the lines after it up to the next question whose text
// opens with a letter A-H and ")" or "." (list, table or emphasis around it).
struct NumberedQuestion {
  int number = 0;
  std::string title;                 // the heading's words, emphasis removed
  std::vector<std::string> options;  // labels, as ListedOptions cuts them
  std::vector<char> letters;         // each option's letter, upper case
};
// The questions of `text`, in order; empty when it numbers fewer than two.
std::vector<NumberedQuestion> NumberedQuestions(std::string_view text);

// The person's answers to numbered questions: "1.A  2. apple look  3. B"
// -> {1, "A"}, {2, "apple look"}, {3, "B"}. A part starts at a number in
// `numbers` (ascending, each once) followed by '.', ')' or ':' after a space
// or the start; its text runs to the next part.
struct NumberedAnswer {
  int number = 0;
  std::string text;
};
std::vector<NumberedAnswer> NumberedAnswers(std::string_view reply,
                                            const std::vector<int>& numbers);

// The options an answer picks by letter: "C", "A + B", "C sounds best" ->
// their indices in `q.options`; empty when the answer does not open with
// letters of the question's options.
std::vector<size_t> PickedLetters(std::string_view answer, const NumberedQuestion& q);

// True when `reply` answers at least two of the numbered questions of
// `agent` (the agent's message before it): an answer, not a request.
bool AnswersNumberedQuestions(std::string_view reply, std::string_view agent);

// Number of white-space separated words.
size_t WordCount(std::string_view s);

}  // namespace lore::activity
