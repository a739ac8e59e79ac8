// Rendering the distilled pages from the inputs. Each function returns the
// page's bytes, or an empty string when the topic has no content (then the
// page is not written and the index does not link it). Internal.
#pragma once

#include <string>

#include "distill/model.h"

namespace lore::distill {

// The `updated` date for a topic: its newest input, else the newest input of
// all, else the old index's date, else 1970-01-01.
std::string UpdatedDate(const Inputs& in, const std::optional<text::TimePoint>& topic);

// A group of equal findings, most severe and most frequent first.
struct Gotcha {
  std::string text, lesson, severity, first_date, last_date;
  int64_t count = 0;
  int64_t last_line = 0;
  std::vector<std::string> tickets, files;
};
std::vector<Gotcha> GroupFindings(const std::vector<Finding>& findings);

// Verdict -> count, most frequent first (ties by name).
std::vector<std::pair<std::string, int64_t>> VerdictCounts(const std::vector<SlicingOutcome>& o);

std::string GotchasPage(const Inputs& in, const std::vector<Gotcha>& gotchas);
std::string SlicingPage(const Inputs& in);
std::string RequestTypesPage(const Inputs& in);
std::string DecisionsPage(const Inputs& in);
std::string LearningsPage(const Inputs& in);

// The capped digest (at most kIndexMaxLines lines and kIndexMaxBytes bytes).
inline constexpr size_t kIndexMaxLines = 60;
inline constexpr size_t kIndexMaxBytes = 4096;
// `pages`: the topic pages written, as (file name, its Markdown list item text
// "[Title](file.md): what it holds").
std::string IndexPage(const Inputs& in, const std::vector<Gotcha>& gotchas,
                      const std::vector<std::pair<std::string, std::string>>& pages);

}  // namespace lore::distill
