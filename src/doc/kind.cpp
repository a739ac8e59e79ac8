#include "lore/doc/kind.h"
#include "lore/store/layout.h"

namespace lore::doc {

std::string_view KindName(Kind kind) {
  switch (kind) {
    case Kind::kSummary:
      return "summary";
    case Kind::kDecision:
      return "decision";
    case Kind::kRequest:
      return "request";
    case Kind::kKnowledge:
      return "knowledge";
    case Kind::kWorkflow:
      return "workflow";
  }
  return "?";
}

std::optional<Kind> ParseKind(std::string_view name) {
  for (Kind k : kAllKinds) {
    std::string_view n = KindName(k);
    if (name == n) return k;
    if (k != Kind::kKnowledge && k != Kind::kSummary && name.size() == n.size() + 1 &&
        name.substr(0, n.size()) == n && name.back() == 's') {
      return k;
    }
  }
  return std::nullopt;
}

std::string_view KindDir(Kind kind) {
  switch (kind) {
    case Kind::kSummary:
      return "memory";
    case Kind::kDecision:
      return "memory/decisions";
    case Kind::kRequest:
      return "memory/requests";
    case Kind::kKnowledge:
      return "knowledge";
    case Kind::kWorkflow:
      return "memory/workflow";
  }
  return "";
}

std::string RelPath(Kind kind, std::string_view slug) {
  if (kind == Kind::kSummary) return std::string(store::kSummaryFile);
  std::string out(KindDir(kind));
  out += '/';
  out += slug;
  out += ".md";
  return out;
}

}  // namespace lore::doc
