// Heuristics that pull a distiller's fields out of free-form raw records.
// Review records are whatever the reviewer sent; these rules (documented in
// docs/distill.md) find the finding, lesson, severity, files and ticket under
// the names reviewers commonly use. Internal to src/distill/.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "distill/flat_record.h"
#include "distill/model.h"

namespace lore::distill {

// The findings of one review record (none when it names no finding).
// `line` and `date` are the record's raw.jsonl line and recorded_at date.
std::vector<Finding> ReviewFindings(const Flat& record, int64_t line, const std::string& date);

// The slicing outcome of one slicing record.
SlicingOutcome SlicingFields(const Flat& record, int64_t line, const std::string& date);

// A learnings.jsonl record (docs/learnings.md).
Learning LearningFields(const Flat& record);

// The first of `keys` holding a non-blank string or a number.
std::string FirstText(const Flat& object, std::initializer_list<const char*> keys);
// A string, or an array of strings (objects contribute their "path"/"file"/"name").
std::vector<std::string> StringList(const FlatValue& value);

// How severe a severity word is (critical 6 ... info 2, unknown 1, empty 0).
int SeverityRank(const std::string& severity);

}  // namespace lore::distill
