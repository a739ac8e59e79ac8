// The secrets known by a fixed prefix and the alphabet and length of what
// follows it (docs/secrets.md, "The rule table"). Internal to src/redact/.
//
// A rule matches at a position that no byte of the token alphabet or of its
// own alphabet precedes: the prefix, then the longest run of its alphabet
// (read at most max + 1 bytes far), `min` to `max` bytes long, holding a
// digit or both cases, and not followed by a letter, a digit or '_'. The
// rules with their own look (AWS, GitHub, Slack, OpenAI, JWT, PEM...) are in
// rules.cpp; their first three bytes are listed here too (kCustomStarts).
#pragma once

#include <cstdint>
#include <string_view>

#include "redact/redact.h"

namespace lore::redact::internal {

enum class Alpha : uint8_t {
  kAlnum,       // [A-Za-z0-9]
  kTok,         // [A-Za-z0-9_-]
  kHex,         // [0-9a-fA-F]
  kHexDash,     // [0-9a-fA-F-]
  kUpperDigit,  // [A-Z0-9]
  kB64,         // [A-Za-z0-9+/=_-]: base64 and base64url
  kTokDot,      // [A-Za-z0-9_.-]
  kTokEq,       // [A-Za-z0-9_=-]
  kTokDotEq,    // [A-Za-z0-9_.=-]
  kAlnumDot,    // [A-Za-z0-9.]
};

struct PrefixRule {
  std::string_view prefix;
  Rule rule;
  Alpha alpha;
  uint16_t min;  // bytes after the prefix
  uint16_t max;
};

// Grouped by what the secret opens: cloud, CI and code hosting, registries
// and developer tools, payment, mail and chat.
inline constexpr PrefixRule kPrefixRules[] = {
    // Cloud providers.
    {"GOCSPX-", Rule::kGoogleOauth, Alpha::kTok, 24, 40},
    {"ya29.", Rule::kGoogleOauth, Alpha::kTokDot, 30, 2048},
    {"LTAI", Rule::kAlibabaKey, Alpha::kAlnum, 20, 30},
    {"dop_v1_", Rule::kDigitaloceanToken, Alpha::kHex, 64, 64},
    {"doo_v1_", Rule::kDigitaloceanToken, Alpha::kHex, 64, 64},
    {"dor_v1_", Rule::kDigitaloceanToken, Alpha::kHex, 64, 64},
    {"HRKU-AA", Rule::kHerokuKey, Alpha::kTok, 58, 58},
    {"fo1_", Rule::kFlyioToken, Alpha::kTok, 43, 43},
    {"fm1a_", Rule::kFlyioToken, Alpha::kB64, 100, 4096},
    {"fm1r_", Rule::kFlyioToken, Alpha::kB64, 100, 4096},
    {"fm2_", Rule::kFlyioToken, Alpha::kB64, 100, 4096},
    {"hvs.", Rule::kVaultToken, Alpha::kTok, 90, 200},
    {"hvb.", Rule::kVaultToken, Alpha::kTok, 138, 400},
    {"dapi", Rule::kDatabricksToken, Alpha::kHex, 32, 32},
    {"v1.0-", Rule::kCloudflareKey, Alpha::kHexDash, 171, 171},
    {"sha256~", Rule::kOpenshiftToken, Alpha::kTok, 43, 43},
    {"pul-", Rule::kPulumiToken, Alpha::kHex, 40, 40},
    {"pscale_tkn_", Rule::kPlanetscaleToken, Alpha::kTokDotEq, 32, 64},
    {"pscale_oauth_", Rule::kPlanetscaleToken, Alpha::kTokDotEq, 32, 64},
    {"pscale_pw_", Rule::kPlanetscaleToken, Alpha::kTokDotEq, 32, 64},
    {"dp.pt.", Rule::kDopplerToken, Alpha::kAlnum, 43, 43},
    {"dt0c01.", Rule::kDynatraceToken, Alpha::kAlnumDot, 89, 89},
    {"ico-", Rule::kInfracostToken, Alpha::kAlnum, 32, 32},
    {"AGE-SECRET-KEY-1", Rule::kAgeSecretKey, Alpha::kUpperDigit, 58, 58},
    {"ops_eyJ", Rule::kOnepasswordToken, Alpha::kB64, 250, 4096},
    {"AQVN", Rule::kYandexKey, Alpha::kTok, 35, 38},
    // CI services, code hosting, observability.
    {"glpat-", Rule::kGitlabToken, Alpha::kTokDot, 20, 400},
    {"glcbt-", Rule::kGitlabToken, Alpha::kTok, 21, 100},
    {"gldt-", Rule::kGitlabToken, Alpha::kTok, 20, 100},
    {"glffct-", Rule::kGitlabToken, Alpha::kTok, 20, 100},
    {"glft-", Rule::kGitlabToken, Alpha::kTok, 20, 100},
    {"glimt-", Rule::kGitlabToken, Alpha::kTok, 25, 100},
    {"glagent-", Rule::kGitlabToken, Alpha::kTok, 50, 100},
    {"gloas-", Rule::kGitlabToken, Alpha::kTok, 64, 100},
    {"glptt-", Rule::kGitlabToken, Alpha::kHex, 40, 40},
    {"glrt-", Rule::kGitlabToken, Alpha::kTokDot, 20, 400},
    {"glsoat-", Rule::kGitlabToken, Alpha::kTok, 20, 100},
    {"GR1348941", Rule::kGitlabToken, Alpha::kTok, 20, 20},
    {"glc_", Rule::kGrafanaToken, Alpha::kB64, 32, 400},
    {"glsa_", Rule::kGrafanaToken, Alpha::kTok, 41, 41},
    {"pat.", Rule::kHarnessToken, Alpha::kTokDot, 68, 68},
    {"sat.", Rule::kHarnessToken, Alpha::kTokDot, 68, 68},
    {"API-", Rule::kOctopusKey, Alpha::kUpperDigit, 26, 26},
    {"sgp_", Rule::kSourcegraphToken, Alpha::kTok, 40, 64},
    {"pnu_", Rule::kPrefectToken, Alpha::kAlnum, 36, 36},
    {"PMAK-", Rule::kPostmanToken, Alpha::kHexDash, 59, 59},
    {"lin_api_", Rule::kLinearKey, Alpha::kAlnum, 40, 40},
    {"ATATT3", Rule::kAtlassianToken, Alpha::kTokEq, 180, 400},
    {"sntryu_", Rule::kSentryToken, Alpha::kHex, 64, 64},
    {"sntrys_eyJ", Rule::kSentryToken, Alpha::kB64, 60, 600},
    {"sm_pat_", Rule::kSettlemintToken, Alpha::kAlnum, 16, 16},
    {"sm_aat_", Rule::kSettlemintToken, Alpha::kAlnum, 16, 16},
    {"sm_sat_", Rule::kSettlemintToken, Alpha::kAlnum, 16, 16},
    {"tk-us-", Rule::kScalingoToken, Alpha::kTok, 48, 48},
    // Package registries, AI services, developer tools.
    {"npm_", Rule::kNpmToken, Alpha::kAlnum, 36, 36},
    {"pypi-AgE", Rule::kPypiToken, Alpha::kTok, 40, 4096},
    {"rubygems_", Rule::kRubygemsToken, Alpha::kHex, 48, 48},
    {"CLOJARS_", Rule::kClojarsToken, Alpha::kAlnum, 60, 60},
    {"dckr_pat_", Rule::kDockerhubToken, Alpha::kTok, 20, 64},
    {"AKCp", Rule::kArtifactoryToken, Alpha::kAlnum, 69, 69},
    {"cmVmd", Rule::kArtifactoryToken, Alpha::kAlnum, 59, 59},
    {"hf_", Rule::kHuggingfaceToken, Alpha::kAlnum, 30, 40},
    {"api_org_", Rule::kHuggingfaceToken, Alpha::kAlnum, 30, 40},
    {"pplx-", Rule::kPerplexityKey, Alpha::kAlnum, 48, 48},
    {"rdme_", Rule::kReadmeToken, Alpha::kAlnum, 70, 70},
    {"fio-u-", Rule::kFrameioToken, Alpha::kTokEq, 64, 64},
    {"tfp_", Rule::kTypeformToken, Alpha::kTokDotEq, 59, 59},
    {"ntn_", Rule::kNotionToken, Alpha::kAlnum, 46, 46},
    // Payment.
    {"sk_live_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"sk_test_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"sk_prod_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"rk_live_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"rk_test_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"rk_prod_", Rule::kStripeKey, Alpha::kAlnum, 10, 255},
    {"whsec_", Rule::kStripeKey, Alpha::kB64, 24, 128},
    {"sq0atp-", Rule::kSquareToken, Alpha::kTok, 22, 60},
    {"sq0csp-", Rule::kSquareToken, Alpha::kTok, 40, 60},
    {"EAAA", Rule::kSquareToken, Alpha::kTok, 22, 60},
    {"EAAC", Rule::kFacebookToken, Alpha::kAlnum, 100, 4096},
    {"EAAM", Rule::kFacebookToken, Alpha::kAlnum, 100, 4096},
    {"shpat_", Rule::kShopifyToken, Alpha::kHex, 32, 32},
    {"shpca_", Rule::kShopifyToken, Alpha::kHex, 32, 32},
    {"shppa_", Rule::kShopifyToken, Alpha::kHex, 32, 32},
    {"shpss_", Rule::kShopifyToken, Alpha::kHex, 32, 32},
    {"EZAK", Rule::kEasypostToken, Alpha::kAlnum, 54, 54},
    {"EZTK", Rule::kEasypostToken, Alpha::kAlnum, 54, 54},
    {"p8e-", Rule::kAdobeSecret, Alpha::kAlnum, 32, 32},
    {"duffel_live_", Rule::kDuffelToken, Alpha::kTokEq, 43, 43},
    {"duffel_test_", Rule::kDuffelToken, Alpha::kTokEq, 43, 43},
    {"shippo_live_", Rule::kShippoToken, Alpha::kHex, 40, 40},
    {"shippo_test_", Rule::kShippoToken, Alpha::kHex, 40, 40},
    {"FLWSECK-", Rule::kFlutterwaveKey, Alpha::kHex, 32, 32},
    {"FLWSECK_TEST-", Rule::kFlutterwaveKey, Alpha::kHex, 12, 32},
    // Mail and chat.
    {"SG.", Rule::kSendgridKey, Alpha::kTokDot, 66, 69},
    {"SK", Rule::kTwilioKey, Alpha::kHex, 32, 32},
    {"xkeysib-", Rule::kSendinblueKey, Alpha::kTok, 81, 81},
};

// The first three bytes of the rules of rules.cpp: AWS (AKIA, ASIA, ABIA,
// ACCA, AGPA, AIDA, AIPA, ANPA, ANVA, APKA, AROA, ASCA, A3T), Google (AIza),
// GitHub (gh[pousr]_, github_pat_), Slack (xox*, xapp-), OpenAI and
// Anthropic (sk-), JWT and Grafana keys (eyJ).
inline constexpr std::string_view kCustomStarts[] = {
    "AKI", "ASI", "ABI", "ACC", "AGP", "AID", "AIP", "ANP", "ANV", "APK", "ARO", "ASC",
    "A3T", "AIz", "ghp", "gho", "ghu", "ghs", "ghr", "git", "xox", "xap", "sk-", "eyJ"};

// Bit (c0, c1) of `first` set when some rule's prefix begins with c0 c1, bit
// (c1, c2) of `second` when its second and third bytes are c1 c2.
struct PairTable {
  uint64_t first[256][4] = {};
  uint64_t second[256][4] = {};
  static constexpr void Set(uint64_t (&bits)[256][4], unsigned char a, unsigned char b) {
    bits[a][b >> 6] |= uint64_t{1} << (b & 63);
  }
  constexpr void Add(std::string_view p) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(p[k]); };
    Set(first, byte(0), byte(1));
    if (p.size() > 2) {
      Set(second, byte(1), byte(2));
      return;
    }
    // A two-byte prefix ("SK" of Twilio, then hex): any hex digit may follow.
    for (unsigned char c : std::string_view("0123456789abcdefABCDEF")) Set(second, byte(1), c);
  }
  constexpr PairTable() {
    for (const PrefixRule& r : kPrefixRules) Add(r.prefix);
    for (std::string_view p : kCustomStarts) Add(p);
  }
};
inline constexpr PairTable kPairs;

// True when bytes c0 c1 c2 may begin the prefix of some token rule (two
// table look-ups).
inline bool MayStartToken(unsigned char c0, unsigned char c1, unsigned char c2) {
  return ((kPairs.first[c0][c1 >> 6] >> (c1 & 63)) & 1) &&
         ((kPairs.second[c1][c2 >> 6] >> (c2 & 63)) & 1);
}

}  // namespace lore::redact::internal
