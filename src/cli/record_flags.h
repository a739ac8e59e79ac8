// The flags `lore memory write` and `lore memory edit` take to build or
// change a record without writing its Markdown by hand.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "lore/doc/record.h"
#include "lore/error.h"
#include "lore/lint/finding.h"
#include "lore/text/time.h"

namespace lore::cli {

struct RecordFlags {
  std::vector<std::string> set;     // KEY=VALUE
  std::vector<std::string> unset;   // KEY
  std::vector<std::string> source;  // SESSION:FROM-TO
  std::optional<std::string> body;
  std::string body_file;  // "-" is standard input
  std::string append;
  bool no_touch = false;

  // True when any flag that builds or changes a record was given.
  bool Any() const;
};

// Adds the flags to `sub`; `edit` adds --unset, --append and --no-touch.
void AddRecordFlags(CLI::App* sub, RecordFlags& flags, bool edit);

// Applies the flags to `record`: unset, set, sources, body, append, and
// (when `touch` and updated_at was not set explicitly) updated_at = now.
// Errors name the flag and its value (`invalid --set status=bogus (...)`).
Status ApplyRecordFlags(const RecordFlags& flags, doc::Record& record, text::TimePoint now,
                        bool touch);

// Makes each finding about a field given with --set name that flag and its
// value instead of the record's file and line: the value is the caller's,
// not the file's.
void BlameFlags(const RecordFlags& flags, lint::Report& report);

}  // namespace lore::cli
