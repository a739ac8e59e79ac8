// Private spans and secrets, removed before anything reaches a store.
//
// Text inside <private>...</private> (tags in any case, "<private >" too) is
// dropped with its tags: spans may repeat and nest (the outermost pair
// counts), an unclosed <private> drops everything to the end of the text,
// and a stray </private> is kept as written. Then every secret found by the
// rule table (docs/secrets.md) is replaced by "[REDACTED:<rule>]".
//
// The scanner is hand-written: one forward pass over the bytes, triggered by
// a few ASCII bytes, every look-ahead or look-behind bounded or skipped over
// once matched, so the time is linear in the input (no regular expressions,
// no backtracking, no recursion). It works on raw bytes: every boundary of
// a match is an ASCII byte or an end of the text and a match never stops
// inside a length cap, so a UTF-8 sequence is never split and invalid UTF-8
// is passed through as it is. Text already redacted is left unchanged.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lore::redact {

enum class Rule {
  kPrivate,       // a <private> span (dropped, not replaced)
  kAwsAccessKey,  // AKIA/ASIA/... + 16 [0-9A-Z]
  kGithubToken,   // gh[pousr]_ + 36+ alnum; github_pat_ + 22+
  kSlackToken,    // xox[abprs]- ...
  kOpenaiKey,     // sk-... and sk-proj-...
  kGoogleApiKey,  // AIza + 35
  kPrivateKey,    // a PEM private key block
  kJwt,           // eyJ... . eyJ... . ...
  kUrlPassword,   // the password of scheme://user:pass@host
  kAssignment,    // key/secret/token/password... = <high-entropy value>
};

// "private", "aws-access-key", "github-token", ...: the name in
// "[REDACTED:<name>]" and in `lore check --secrets`.
std::string_view RuleName(Rule rule);

// One match: `length` bytes at `offset` of the text scanned. The secret
// itself is never copied.
struct Finding {
  Rule rule;
  size_t offset = 0;
  size_t length = 0;
};

// Every private span and secret of `text`, in order of offset, not
// overlapping. Secrets are looked for outside private spans only.
std::vector<Finding> Scan(std::string_view text);

// True when Clean would change `text` (cheaper than Clean: nothing built).
bool HasFindings(std::string_view text);

// `text` with private spans dropped and secrets replaced. `findings`, when
// given, receives what was removed: private spans at their offsets in `text`,
// secrets at their offsets in the text left after dropping private spans.
std::string Clean(std::string_view text, std::vector<Finding>* findings = nullptr);

// Clean for a value whose name is known (a JSON member, a flag): when `name`
// is a secret's name (IsSecretName) and the whole cleaned value passes the
// high-entropy test, the value becomes "[REDACTED:assignment]". Returns
// false, leaving `*out` untouched, when nothing changed.
bool CleanNamedValue(std::string_view name, std::string_view value, std::string* out);

// True when `name` (case-insensitive) contains password, passwd,
// passphrase, secret, token, api_key, apikey, api-key, access_key,
// private_key or credential, or ends in "key" ("key", "encryption_key").
bool IsSecretName(std::string_view name);

// The value test of the assignment rule (docs/secrets.md): 8..1024 bytes,
// not a placeholder ($VAR, {{x}}, <x>, %s, ****, [REDACTED...]), at least two
// character classes among lower case, upper case, digits and others, and a
// Shannon entropy of at least 2.5 bits per byte. `quoted` is false for a
// value written without quotes: one made only of letters, '_' and '.' is
// then a name in code (password = config.password), not a secret.
bool LooksSecret(std::string_view value, bool quoted);

}  // namespace lore::redact
