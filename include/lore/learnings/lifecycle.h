// The life of one learning after promotion (docs/learnings.md): how long
// it lives by type, when a new one confirms it, what a confirmation and a
// contradiction change, and when it is live. Pure functions: "now" is always
// a parameter. docs/learnings.md describes the rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lore/json/value.h"
#include "lore/text/time.h"

namespace lore::learnings {

// Days a learning of `type` stays valid: the original's current registry
// (30, 45, 60 or 90; 60 for a type it does not list).
int TtlDays(std::string_view type);

// What a confirmation adds to and a contradiction takes from confidence.
inline constexpr double kConfirmStep = 0.15;
inline constexpr double kContradictStep = 0.2;

// The key two learnings are compared by: ASCII letters lower-cased (every
// other byte, UTF-8 included, kept as is), runs of ASCII white space made one
// space, leading and trailing white space removed, then trailing ASCII
// punctuation (. , ; : ! ?) and the white space before it dropped.
// "  Use  RAII. " and "use raii" are the same subject; "Ünïcode" stays.
std::string NormaliseSubject(std::string_view subject);

// `v` rounded to 9 decimal places, so that 0.45 + 0.15 is stored as 0.6,
// not 0.6000000000000001 (the shortest form JSON.stringify would print).
double RoundConfidence(double v);

// The fields of a learnings.jsonl line that the lifecycle reads.
struct Facts {
  std::string id, type, subject;  // subject as written
  std::optional<double> confidence;
  std::optional<int64_t> occurrences;
  std::optional<text::TimePoint> expires_at;  // nullopt: missing or not a time
};

// Reads `learning`'s facts (missing or mistyped fields are left empty).
Facts FactsOf(const Json& learning);

// Live: not past expires_at (a learning without a readable expires_at never
// expires) and confidence above 0 (one without a number counts as above).
bool IsLive(const Facts& f, text::TimePoint now);

// Confirms `learning` by the proposal `proposal_id`: occurrences + 1 (1 when
// missing, so the first confirmation gives 2), confidence + 0.15 capped at 1
// (rounded), expires_at = now + TtlDays(type), and `proposal_id` appended to
// the array `confirmed_by` (created after the other keys when missing), which
// is how a rerun after a crash knows the proposal is settled.
void Confirm(Json* learning, std::string_view proposal_id, text::TimePoint now);

// confidence - 0.2, floor 0 (rounded); a learning without a number gets 0.
void Contradict(Json* learning);

}  // namespace lore::learnings
