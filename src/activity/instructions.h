// What a person's turn says in their own words, and the standing rules it
// sets ("never push to main", "from now on …"): the instructions a session card
// (activity/card.h) carries into the briefing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lore::activity {

// What of a person's turn is their own words, not a block they pasted or
// quoted: without quoted lines ("> …"), fenced blocks and harness tags; and of
// a long turn (pasted material: an issue, a log, a page) only its first and
// last paragraphs, each when short, where a person frames what they pasted.
std::string OwnWords(std::string_view text);

// The sentences of a person's turn (its own words) that set a standing rule:
// "always …", "never …", "don't …", "from now on …", what follows the colon of
// a sentence announcing rules; a rule pointing back said with the sentence
// before it, a short one with the sentence after it; not what the person says
// of themselves ("dont know …") nor an instruction for the moment ("… yet").
// At most three.
std::vector<std::string> Instructions(std::string_view turn);

}  // namespace lore::activity
