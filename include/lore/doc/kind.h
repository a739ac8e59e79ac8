// The five kinds of record lore keeps as Markdown files with YAML
// frontmatter (docs/records.md), and where each lives in a store.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lore::doc {

enum class Kind { kSummary, kDecision, kRequest, kKnowledge, kWorkflow };

inline constexpr size_t kKindCount = 5;
inline constexpr std::array<Kind, kKindCount> kAllKinds = {
    Kind::kSummary, Kind::kDecision, Kind::kRequest, Kind::kKnowledge, Kind::kWorkflow};

// "summary", "decision", "request", "knowledge", "workflow".
std::string_view KindName(Kind kind);
// The inverse of KindName; also accepts the plurals ("decisions", ...).
std::optional<Kind> ParseKind(std::string_view name);
// Index of `kind` in kAllKinds (for per-kind arrays).
inline size_t KindIndex(Kind kind) { return static_cast<size_t>(kind); }

// The slug of the one summary record.
inline constexpr std::string_view kSummarySlug = "summary";

// The folder holding records of `kind`, relative to the store:
// "memory" (summary), "memory/decisions", "memory/requests", "knowledge",
// "memory/workflow".
std::string_view KindDir(Kind kind);

// The file of record `slug` relative to the store: "memory/summary.md",
// "memory/decisions/<slug>.md", "memory/requests/<slug>.md",
// "knowledge/<slug>.md", "memory/workflow/<slug>.md". Purely lexical: the
// caller validates `slug` first (IsValidSlug) so that it cannot leave the
// folder.
std::string RelPath(Kind kind, std::string_view slug);

}  // namespace lore::doc
