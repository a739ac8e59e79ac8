// Checking the flags of `lore propose` and building the record from them,
// every problem reported at once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/proposals/record.h"

namespace lore::proposals {

inline constexpr size_t kMaxFilePaths = 20;
inline constexpr size_t kMaxFilePathLength = 256;  // code points

struct ProposeFlags {
  std::optional<std::string> type, subject, insight, evidence, confidence;
  std::optional<std::string> wave;      // --wave; when absent, LORE_WAVE
  std::optional<std::string> agent;     // --agent: proposed_by_agent
  std::vector<std::string> file_paths;  // each --file-paths value
  // The overrides of config.toml's memory.proposals settings, as given.
  std::optional<std::string> quota_per_wave;    // --quota-per-wave
  std::optional<std::string> confidence_floor;  // --confidence-floor
};

// The largest --quota-per-wave (a quota bounds one wave's queue).
inline constexpr int64_t kMaxQuotaPerWave = 1000000;

// A whole number of decimal digits (no sign, no blanks), at most `max`;
// nullopt for anything else (a negative number, junk, an overflow).
std::optional<int64_t> ParseCount(std::string_view text, int64_t max);

// A decimal number ("0.85", "1", ".5", "5e-1"); nullopt for anything else
// (NaN, Infinity, hex, trailing text, empty).
std::optional<double> ParseConfidence(std::string_view text);

// The --file-paths values split on commas, trimmed, private spans and
// secrets removed (docs/secrets.md), blanks dropped, duplicates dropped
// (first kept), in order. Adds a message to `errors` for more than 20 paths,
// a path over 256 chars, an absolute path, a ".." segment, a glob character
// (a "[REDACTED:...]" left by a secret is one) or a newline.
std::vector<std::string> SplitFilePaths(const std::vector<std::string>& values,
                                        std::vector<std::string>* errors);

struct Proposal {
  Fields fields;
  bool wave_known = false;                 // from --wave or LORE_WAVE
  std::optional<int64_t> quota_per_wave;   // --quota-per-wave, checked
  std::optional<double> confidence_floor;  // --confidence-floor, checked
  std::vector<std::string> errors;         // empty when the proposal is valid
};

// Checks `flags` (with `env_wave` = $LORE_WAVE, empty when unset). Without a
// known wave the record is checked with the wave "W-dryrun". Every value
// passes the redactor first: subject, insight, evidence, the wave, the agent
// and the paths; a rule broken by what is left says so ("... (after removing
// private spans and secrets)"). The overrides are checked too: an error
// naming the flag for a negative, malformed or too large number.
Proposal CheckFlags(const ProposeFlags& flags, std::string_view env_wave);

}  // namespace lore::proposals
