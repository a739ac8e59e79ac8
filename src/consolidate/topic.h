// How the rules engine names records, and when two decisions are on the same
// topic (docs/consolidation.md, "Same topic and contradiction").
//
// A phrase is normalised by lower-casing ASCII letters, turning every run of
// white space, '_' and '-' into one '-', and trimming '-' at both ends; other
// characters (non-ASCII included) are kept. The slug of a set of phrases is
// the normalised phrases joined by "-or-", exact when every phrase is made of
// [a-z0-9-] only (and none contains "-or-"); otherwise, or when longer than
// 64 characters, the characters outside [a-z0-9-] are dropped, the rest is
// cut to 55 characters and "-<8 hex digits>" of a hash of the whole is
// appended, so that different sets never share a slug in practice.
//
// A slug is a file name: the phrases lose their private spans and secrets
// first (redact::Clean), and a slug in which the redactor still finds one
// (lower case and hyphens can make a secret's shape) is the hash alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lore::consolidate {

// The normalised form of `phrase` (see above).
std::string NormalisePhrase(std::string_view phrase);

// The slug of a set of phrases (order and duplicates do not matter).
std::string SlugOfSet(std::vector<std::string> phrases);

// A decision's topic slug: the slug of its options, or of its chosen option
// when it lists none.
std::string DecisionTopic(const std::vector<std::string>& options, std::string_view chosen);

// The slug of the record that supersedes topic `topic` with `chosen`:
// "<topic>-<slug of chosen>" (hashed and cut like any slug).
std::string SuccessorSlug(std::string_view topic, std::string_view chosen);

// A request's slug: the slug of its intent followed by its target.
std::string RequestSlug(std::string_view intent, std::string_view target);

// True when two chosen options mean the same (equal once normalised).
bool SameChoice(std::string_view a, std::string_view b);

}  // namespace lore::consolidate
