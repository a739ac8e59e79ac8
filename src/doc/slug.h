// Record slugs: the file name of a record, and its id.
#pragma once

#include <cstddef>
#include <string_view>

namespace lore::doc {

inline constexpr size_t kMaxSlugLength = 64;

// The rule in words, for error messages.
inline constexpr const char* kSlugRule =
    "lower-case letters, digits and inner hyphens, 1 to 64 characters "
    "(^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$), not shaped like a secret";

// True when `slug` matches ^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$ and the
// redactor finds no secret in it ("sk-live-..." is an OpenAI key's shape):
// a slug is a file name. A valid slug never contains '/', '.' or "..", so it
// cannot leave its folder.
bool IsValidSlug(std::string_view slug);

}  // namespace lore::doc
