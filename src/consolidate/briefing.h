// Internal to lore::consolidate: the briefing the rules engine writes as
// memory/summary.md (docs/consolidation.md, "The briefing").
//
// The briefing is rewritten whole on every run, never appended to, from what
// the store holds: the session logs of the latest sessions (activity/card.h),
// the decisions in memory/decisions/ and the gotchas in knowledge/. So a
// second run over the same store writes the same bytes, and the briefing
// never grows past its budget: what falls out of it stays in the decisions,
// requests, knowledge pages and session logs it was made from. Text a person
// wrote in the summary outside lore's markers is kept as it is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "activity/card.h"

namespace lore::consolidate::detail {

// What the briefing is made of, gathered by the rules engine.
struct BriefingInput {
  std::string project;                        // the store's key
  int64_t sessions = 0;                       // session logs in the store
  std::string first_date;                     // of the earliest of them (YYYY-MM-DD), if known
  std::vector<activity::SessionCard> recent;  // the latest sessions, newest first
  struct Earlier {
    std::string date, session_id, task;
  };
  std::vector<Earlier> earlier;  // older sessions, newest first (their tasks)
  struct Instruction {
    std::string date, text;
  };
  std::vector<Instruction> instructions;  // the person's standing instructions, newest first
  struct Decision {
    std::string date, chosen, over, why;
  };
  std::vector<Decision> decisions;  // newest first, not replaced
  struct Gotcha {
    std::string slug, description;
  };
  std::vector<Gotcha> gotchas;
  size_t budget = 6000;  // characters (code points) of the rendered briefing
};

// The slug of knowledge/gotcha-<words>-<hash>.md, the page of an error
// signature (activity::ErrorSignature) seen in several sessions.
std::string GotchaSlug(const std::string& signature);

// How the description of a gotcha page no session had fixed ends. The briefing
// leaves such a page out once a later session dealt with its failure.
inline constexpr std::string_view kNotFixedYet = ": not fixed yet";

// The briefing's Markdown, at most `in.budget` code points, between the
// markers below. A lesson that has a gotcha page is said once, where the page
// would be, with the session's account of it and the page named.
std::string RenderBriefing(const BriefingInput& in);

inline constexpr std::string_view kBriefingStart = "<!-- lore:briefing -->";
inline constexpr std::string_view kBriefingEnd = "<!-- /lore:briefing -->";

// `body` with the text between the markers replaced by `briefing` (the
// markers kept); a body without markers keeps its text after the briefing.
std::string WithBriefing(std::string_view body, std::string_view briefing);

}  // namespace lore::consolidate::detail
