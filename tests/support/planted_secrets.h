// Planted secrets for the redaction tests (the secret doors e2e test, the
// redact fuzzer): one or more of every kind the redactor knows
// (docs/secrets.md), fake but shaped as the real ones, each with its core:
// bytes that must never be found in a store (nor, in any case, in a file
// name) once the text went through lore. Header-only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lore::testing {

struct Planted {
  std::string rule;  // the rule that finds it
  std::string text;  // as written
  std::string core;  // what must never be found after cleaning
  // `text` is one word of [A-Za-z0-9_-]: it fits a wave id or a file name.
  bool word = false;
};

// `n` pseudo-random bytes of `alphabet` (a fixed sequence per `seed`), with a
// digit second and, when the alphabet has them, both cases: varied as real
// keys are.
inline std::string Fake(size_t n, std::string_view alphabet, uint32_t seed) {
  std::string out;
  uint32_t x = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; ++i) {
    x = x * 1664525u + 1013904223u;
    out += alphabet[(x >> 16) % alphabet.size()];
  }
  if (n > 2) {
    out[1] = '7';
    if (alphabet.find('q') != std::string_view::npos) out[0] = 'q';
    if (alphabet.find('Q') != std::string_view::npos) out[2] = 'Q';
  }
  return out;
}

namespace planted {
inline constexpr std::string_view kAlnum =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
inline constexpr std::string_view kHex = "0123456789abcdef";
inline constexpr std::string_view kUpperDigit = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
}  // namespace planted

// Every kind, in the order of the rule table.
inline const std::vector<Planted>& AllPlanted() {
  using planted::kAlnum, planted::kHex, planted::kUpperDigit;
  static const std::vector<Planted> kAll = [] {
    std::vector<Planted> v;
    uint32_t seed = 1;
    // A token: `prefix` + `n` bytes of `alphabet` (the core), then `suffix`.
    auto token = [&](std::string rule, std::string prefix, size_t n, std::string_view alphabet,
                     std::string suffix = "") {
      std::string core = Fake(n, alphabet, seed++);
      std::string text = prefix + core + suffix;
      bool word = text.find_first_not_of(
                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                  std::string::npos;
      v.push_back({std::move(rule), std::move(text), std::move(core), word});
    };
    // A value found by its context: `before` + core + `after`.
    auto context = [&](std::string rule, std::string before, std::string after = "") {
      std::string core = Fake(16, kAlnum, seed++);
      v.push_back({std::move(rule), before + core + after, core, false});
    };
    token("aws-access-key", "AKIA", 16, kUpperDigit);
    token("github-token", "ghp_", 36, kAlnum);
    token("github-token", "github_pat_", 82, kAlnum);
    token("slack-token", "xoxb-1234567890-", 24, kAlnum);
    token("slack-token", "xapp-1-A0123456789-", 40, kHex);
    token("openai-key", "sk-proj-", 48, kAlnum);
    token("google-api-key", "AIza", 35, kAlnum);
    token("private-key", "-----BEGIN RSA PRIVATE KEY-----\n", 40, kAlnum,
          "\n-----END RSA PRIVATE KEY-----");
    token("private-key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n", 40, kAlnum,
          "\n-----END PGP PRIVATE KEY BLOCK-----");
    token("private-key", "-----begin private key-----\n", 40, kAlnum,
          "\n-----end private key-----");
    token("jwt", "eyJhbGciOiJIUzI1NiJ9.eyJ", 30, kAlnum, ".sig0123456789");
    context("url-password", "postgres://admin:", "@db.example.com/app");
    context("url-password", "mysql://app:p@", "@db.example.com:3306/app");  // '@' inside
    context("assignment", "api_key=\"", "\"");
    context("assignment", "{\"auths\":{\"r.io\":{\"auth\":\"", "\"}}}");  // Docker
    token("anthropic-key", "sk-ant-api03-", 93, kAlnum, "AA");
    token("stripe-key", "sk_live_", 24, kAlnum);
    token("stripe-key", "rk_live_", 24, kAlnum);
    token("stripe-key", "sk_test_", 24, kAlnum);
    token("webhook-url", "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/", 24, kAlnum);
    token("gitlab-token", "glpat-", 20, kAlnum);
    token("npm-token", "npm_", 36, kAlnum);
    token("huggingface-token", "hf_", 34, kAlnum);
    token("sendgrid-key", "SG.", 22, kAlnum, "." + Fake(43, kAlnum, 999));
    token("twilio-key", "SK", 32, kHex);
    token("digitalocean-token", "dop_v1_", 64, kHex);
    token("pypi-token", "pypi-AgEIcHlwaS5vcmc", 60, kAlnum);
    context("authorization", "Authorization: Bearer ");
    context("authorization", "Authorization: Basic ", "==");
    context("secret-flag", "mysql -u root -p", " app");
    context("secret-flag", "tool --password ", " --verbose");
    context("secret-flag", "gpg --passphrase '", "' -d f");
    context("secret-flag", "curl -u deploy:", " https://example.com");
    token("azure-client-secret", "aB38Q~", 34, kAlnum);
    token("alibaba-access-key", "LTAI", 20, kAlnum);
    token("google-oauth", "GOCSPX-", 28, kAlnum);
    token("heroku-api-key", "HRKU-AA", 58, kAlnum);
    token("flyio-token", "fo1_", 43, kAlnum);
    token("vault-token", "hvs.", 95, kAlnum);
    token("terraform-token", "abcdefgh012345.atlasv1.", 67, kAlnum);
    token("databricks-token", "dapi", 32, kHex);
    token("cloudflare-origin-ca-key", "v1.0-" + Fake(24, kHex, 998) + "-", 146, kHex);
    token("openshift-token", "sha256~", 43, kAlnum);
    token("pulumi-token", "pul-", 40, kHex);
    token("planetscale-token", "pscale_tkn_", 43, kAlnum);
    token("doppler-token", "dp.pt.", 43, kAlnum);
    token("dynatrace-token", "dt0c01." + Fake(24, kAlnum, 997) + ".", 64, kAlnum);
    token("infracost-token", "ico-", 32, kAlnum);
    token("age-secret-key", "AGE-SECRET-KEY-1", 58, kUpperDigit);
    token("1password-token", "ops_eyJ", 260, kAlnum);
    token("yandex-api-key", "AQVN", 36, kAlnum);
    token("grafana-token", "glc_", 40, kAlnum);
    token("harness-token", "pat." + Fake(22, kAlnum, 996) + "." + Fake(24, kAlnum, 995) + ".", 20,
          kAlnum);
    token("octopus-api-key", "API-", 26, kUpperDigit);
    token("sourcegraph-token", "sgp_", 40, kHex);
    token("prefect-token", "pnu_", 36, kAlnum);
    token("postman-token", "PMAK-" + Fake(24, kHex, 994) + "-", 34, kHex);
    token("linear-api-key", "lin_api_", 40, kAlnum);
    token("atlassian-token", "ATATT3", 186, kAlnum);
    token("artifactory-token", "AKCp", 69, kAlnum);
    token("readme-token", "rdme_", 70, kAlnum);
    token("frameio-token", "fio-u-", 64, kAlnum);
    token("clojars-token", "CLOJARS_", 60, kAlnum);
    token("rubygems-token", "rubygems_", 48, kHex);
    token("dockerhub-token", "dckr_pat_", 27, kAlnum);
    token("sentry-token", "sntryu_", 64, kHex);
    token("perplexity-key", "pplx-", 48, kAlnum);
    token("settlemint-token", "sm_pat_", 16, kAlnum);
    token("typeform-token", "tfp_", 59, kAlnum);
    token("scalingo-token", "tk-us-", 48, kAlnum);
    token("notion-token", "ntn_", 46, kAlnum);
    token("easypost-token", "EZAK", 54, kAlnum);
    token("adobe-client-secret", "p8e-", 32, kAlnum);
    token("duffel-token", "duffel_live_", 43, kAlnum);
    token("shippo-token", "shippo_live_", 40, kHex);
    token("shopify-token", "shpat_", 32, kHex);
    token("square-token", "sq0atp-", 22, kAlnum);
    token("facebook-token", "EAAC", 120, kAlnum);
    token("flutterwave-key", "FLWSECK_TEST-", 32, kHex);
    token("sendinblue-key", "xkeysib-" + Fake(64, kHex, 993) + "-", 16, kAlnum);
    token("mailchimp-key", "", 32, kHex, "-us12");
    token("telegram-bot-token", "123456789:A", 34, kAlnum);
    v.push_back({"private", "<private>PRIVATE-CANARY-7731</private>", "PRIVATE-CANARY-7731"});
    return v;
  }();
  return kAll;
}

}  // namespace lore::testing
