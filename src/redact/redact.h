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

// The rules of docs/secrets.md, one per kind of secret. The name of each
// (RuleName) is what "[REDACTED:<name>]" and `lore check --secrets` show.
enum class Rule {
  kPrivate,       // a <private> span (dropped, not replaced)
  kAwsAccessKey,  // AKIA/ASIA/... + 16 [0-9A-Z]
  kGithubToken,   // gh[pousr]_ + 36+ alnum; github_pat_ + 22+
  kSlackToken,    // xox[abeoprs]-..., xoxe.xox?-..., xapp-...
  kOpenaiKey,     // sk-... and sk-proj-...
  kGoogleApiKey,  // AIza + 35
  kPrivateKey,    // a PEM or PGP private key block, any case
  kJwt,           // eyJ... . eyJ... . ...
  kUrlPassword,   // the password of scheme://user:pass@host
  kAssignment,    // key/secret/token/password... = <high-entropy value>
  // Rules added for issue 25 (docs/secrets.md lists prefix and shape of each).
  kAnthropicKey,
  kStripeKey,
  kWebhookUrl,  // the secret path of a Slack, Discord or Teams webhook URL
  kGitlabToken,
  kNpmToken,
  kHuggingfaceToken,
  kSendgridKey,
  kTwilioKey,
  kDigitaloceanToken,
  kPypiToken,
  kAuthorization,  // the credentials of an Authorization header
  kSecretFlag,     // --password X, --token 'X', mysql -pX, curl -u user:X
  kAzureSecret,
  kAlibabaKey,
  kGoogleOauth,
  kHerokuKey,
  kFlyioToken,
  kVaultToken,
  kTerraformToken,
  kDatabricksToken,
  kCloudflareKey,
  kOpenshiftToken,
  kPulumiToken,
  kPlanetscaleToken,
  kDopplerToken,
  kDynatraceToken,
  kInfracostToken,
  kAgeSecretKey,
  kOnepasswordToken,
  kYandexKey,
  kGrafanaToken,
  kHarnessToken,
  kOctopusKey,
  kSourcegraphToken,
  kPrefectToken,
  kPostmanToken,
  kLinearKey,
  kAtlassianToken,
  kArtifactoryToken,
  kReadmeToken,
  kFrameioToken,
  kClojarsToken,
  kRubygemsToken,
  kDockerhubToken,
  kSentryToken,
  kPerplexityKey,
  kSettlemintToken,
  kTypeformToken,
  kScalingoToken,
  kNotionToken,
  kEasypostToken,
  kAdobeSecret,
  kDuffelToken,
  kShippoToken,
  kShopifyToken,
  kSquareToken,
  kFacebookToken,
  kFlutterwaveKey,
  kSendinblueKey,
  kMailchimpKey,
  kTelegramToken,
  kLast = kTelegramToken,
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

// Cleans the texts of one message (its text blocks) in order, a private span
// carried from one text to the next: a <private> opened in one text and not
// closed there drops the start of the texts after it up to its </private>
// (or all of them). Everything else is Clean's, text by text (a tag or a
// secret split between two texts is not joined).
class MessageCleaner {
 public:
  // The next text of the message, cleaned.
  std::string Next(std::string_view text);

 private:
  size_t depth_ = 0;  // private spans open at the end of the texts so far
};

// MessageCleaner over `texts`, one result per text.
std::vector<std::string> CleanMessage(const std::vector<std::string>& texts);

// The findings of a file name (or any name made of words joined by '-',
// '_', '.' or '/'): Scan's, and those of every part of it that starts after
// one of those separators (a token glued to the word before, "topic-glpat-
// ...", starts no rule in a text) and ends at the name's end or at one of
// the next four separators (a key of a fixed length glued to the word after
// it). In order, not overlapping.
std::vector<Finding> ScanName(std::string_view name);

// `name` with what ScanName finds removed: private spans dropped, secrets
// replaced by "[REDACTED:<rule>]", again on what is left (a few passes) as
// Clean does: what lore uses to make a file name or to show one.
std::string CleanName(std::string_view name);

// The findings of an id (a session id, a wave): ScanName's, and every token
// glued to the letter or digit before it ("sghp_…", "wave2ghp_…"): an id is
// one word, so a secret's prefix anywhere inside it counts. Quadratic in the
// id's length: the caller bounds the id first (a few hundred bytes).
std::vector<Finding> ScanId(std::string_view id);

// `id` with what ScanId finds removed, as CleanName removes what ScanName
// finds: what lore keeps of an id it was given.
std::string CleanId(std::string_view id);

// Clean for a value whose name is known (a JSON member, a flag): when `name`
// is a secret's name (IsSecretName) and the whole cleaned value passes the
// high-entropy test, the value becomes "[REDACTED:assignment]". Returns
// false, leaving `*out` untouched, when nothing changed.
bool CleanNamedValue(std::string_view name, std::string_view value, std::string* out);

// True when `name` (case-insensitive) contains password, passwd,
// passphrase, secret, token, api_key, apikey, api-key, access_key,
// private_key, credential or creds, ends in "key" ("key", "encryption_key")
// or "auth" ("auth", "basicAuth": Docker's config.json), or ends in "pass"
// or "pwd" after a word boundary ("DB_PASS", "smtpPass", "mysql_pwd"; not
// "bypass", nor "pwd" alone, the shell's working directory). A name whose
// last word is file, path, dir, name, id, url, uri, env, var, endpoint,
// type, length, size or count ("token_file", "secretName", "access_key_id",
// "api_key_env") is about a secret, not one: false.
bool IsSecretName(std::string_view name);

// The value test of the assignment rule (docs/secrets.md): 8..1024 bytes,
// not a placeholder ($VAR, {{x}}, <x>, %s, ****, [REDACTED...]), at least two
// character classes among lower case, upper case, digits and others, and a
// Shannon entropy of at least 2.5 bits per byte. `quoted` is false for a
// value written without quotes: one made only of letters, '_' and '.' is
// then a name in code (password = config.password), not a secret.
bool LooksSecret(std::string_view value, bool quoted);

}  // namespace lore::redact
