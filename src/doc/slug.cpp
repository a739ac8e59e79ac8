#include "doc/slug.h"

#include "redact/redact.h"

namespace lore::doc {
namespace {

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool IsValidSlug(std::string_view slug) {
  if (slug.empty() || slug.size() > kMaxSlugLength) return false;
  if (!IsAlnum(slug.front()) || !IsAlnum(slug.back())) return false;
  for (char c : slug) {
    if (!IsAlnum(c) && c != '-') return false;
  }
  // A file name never holds a secret (docs/secrets.md).
  return redact::ScanName(slug).empty();
}

}  // namespace lore::doc
