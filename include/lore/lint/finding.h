// What the linter reports: findings (errors and warnings), each naming the
// file, the field or line, and how to fix it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "lore/error.h"
#include "lore/json/value.h"

namespace lore::lint {

enum class Severity { kError, kWarning };

// "error" or "warning".
std::string_view SeverityName(Severity s);

struct Finding {
  Severity severity = Severity::kError;
  std::string rule;     // stable id, e.g. "missing-field" (docs/records.md lists them)
  std::string path;     // the record's file
  int64_t line = 0;     // 1-based line in that file; 0 when the finding has none
  std::string field;    // the frontmatter key concerned; may be empty
  std::string message;  // what is wrong
  std::string repair;   // how to fix it

  // "<severity>: <message>: <path>[:<line>]; <repair>".
  std::string Format() const;
  // {"severity","rule","path","line","field","message","repair"}; line and
  // field are null when absent.
  Json ToJson() const;
};

struct Report {
  std::vector<Finding> findings;

  size_t Errors() const;
  size_t Warnings() const;
  bool HasErrors() const { return Errors() > 0; }
  void Add(Finding f) { findings.push_back(std::move(f)); }
  void Append(const Report& other);
  // [finding.ToJson(), ...]
  Json FindingsJson() const;
};

}  // namespace lore::lint
