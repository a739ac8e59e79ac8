#include "consolidate/paths.h"

#include "doc/slug.h"
#include "lore/store/layout.h"
#include "lore/sys/uuid.h"

namespace lore::consolidate {
namespace {

constexpr const char* kExpected =
    "use memory/summary.md, memory/decisions/<slug>.md, memory/requests/<slug>.md or "
    "knowledge/<slug>.md";

tl::unexpected<Error> RefusePath(std::string_view path, std::string what,
                                 std::string repair = kExpected) {
  return Fail(ErrorCode::kInvalidInput, std::move(what), std::string(path), 0, std::move(repair));
}

bool HasSegment(std::string_view path, std::string_view seg) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    if (path.substr(start, end - start) == seg) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

bool IsStagedId(std::string_view id) { return sys::IsUuidV7(id); }

Result<StorePath> ParseStorePath(std::string_view path, PathUse use) {
  if (path.empty()) return RefusePath(path, "empty path");
  if (path.front() == '/') {
    return RefusePath(path, "absolute paths are refused: paths are relative to the store",
                      kExpected);
  }
  if (HasSegment(path, ".."))
    return RefusePath(path, "'..' is refused: paths must stay inside the store");
  if (path.find('\\') != std::string_view::npos || path.find('\0') != std::string_view::npos ||
      HasSegment(path, ".") || HasSegment(path, "") || path.back() == '/') {
    return RefusePath(path, "not a canonical path");
  }
  StorePath out;
  out.rel = std::string(path);
  if (path == store::kSummaryFile) {
    out.kind = doc::Kind::kSummary;
    out.slug = std::string(doc::kSummarySlug);
    return out;
  }
  struct Dir {
    std::string_view prefix;
    doc::Kind kind;
  };
  static constexpr Dir kDirs[] = {{"memory/decisions/", doc::Kind::kDecision},
                                  {"memory/requests/", doc::Kind::kRequest},
                                  {"knowledge/", doc::Kind::kKnowledge},
                                  {"memory/workflow/", doc::Kind::kWorkflow}};
  for (const Dir& d : kDirs) {
    if (path.substr(0, d.prefix.size()) != d.prefix) continue;
    if (d.kind == doc::Kind::kWorkflow && use != PathUse::kRead) {
      return RefusePath(
          path, "memory/workflow/ is written by people only",
          "leave workflow records alone; write decisions, requests, the summary or knowledge");
    }
    std::string_view rest = path.substr(d.prefix.size());
    if (rest.size() < 4 || rest.substr(rest.size() - 3) != ".md") {
      return RefusePath(path, "a record path ends in <slug>.md");
    }
    std::string_view slug = rest.substr(0, rest.size() - 3);
    if (!doc::IsValidSlug(slug)) {
      return RefusePath(path, "'" + std::string(slug) + "' is not a valid slug",
                        std::string("use ") + doc::kSlugRule);
    }
    out.kind = d.kind;
    out.slug = std::string(slug);
    return out;
  }
  return RefusePath(path, "not a record path of memory/ or knowledge/");
}

}  // namespace lore::consolidate
