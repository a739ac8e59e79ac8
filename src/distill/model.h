// What the distiller reads, reduced to the fields its pages use.
// Internal to src/distill/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lore/text/time.h"

namespace lore::distill {

// One finding of a review record (a record may hold several).
struct Finding {
  int64_t line = 0;      // raw.jsonl line
  std::string text;      // what was found (one line)
  std::string lesson;    // what to do about it, may be empty
  std::string severity;  // lower case, may be empty
  std::string ticket;    // may be empty
  std::string date;      // YYYY-MM-DD from recorded_at, may be empty
  std::vector<std::string> files;
};

struct SlicingOutcome {
  int64_t line = 0;
  std::string ticket, verdict, reason, depth, date;
  std::vector<std::string> verbs, traits;
};

struct Learning {
  std::string type, subject, insight, created_at, expires_at;
  std::optional<double> confidence;
  std::vector<std::string> files;
};

// A decision or request record from memory/.
struct MemoryRecord {
  std::string slug;
  std::string status;   // decisions: open | resolved | replaced (empty = open)
  std::string type;     // requests: frontmatter type/intent/kind, else the slug's first word
  std::string updated;  // YYYY-MM-DD, may be empty
  std::string title;    // the body's first heading, else the slug
  std::string excerpt;  // the body's first paragraph, one line
};

// The newest time seen per topic, for the pages' `updated` field.
struct Newest {
  std::optional<text::TimePoint> reviews, slicing, learnings, decisions, requests, summary;
  void Note(std::optional<text::TimePoint>* slot, std::optional<text::TimePoint> t) {
    if (t && (!*slot || *t > **slot)) *slot = t;
  }
  std::optional<text::TimePoint> All() const;
};

struct Inputs {
  std::string key;
  int64_t raw_records = 0, reviews = 0, slicing = 0, other_records = 0;
  int64_t reviews_without_finding = 0;
  std::vector<Finding> findings;
  std::vector<SlicingOutcome> outcomes;
  std::vector<Learning> learnings;
  int64_t learning_parse_errors = 0;
  std::vector<MemoryRecord> decisions;  // every status; pages show the open ones
  std::vector<MemoryRecord> requests;
  std::vector<std::string> summary_lines;  // the summary's body, non-blank lines
  std::vector<std::string> other_pages;    // okf/ files lore did not generate, carried over
  std::string previous_updated;            // the old index's `updated`, for an empty store
  Newest newest;
};

}  // namespace lore::distill
