// The names of the rules: "[REDACTED:<name>]" and `lore check --secrets`.
#include "redact/redact.h"

namespace lore::redact {
namespace {

// In the order of enum Rule.
constexpr std::string_view kNames[] = {
    "private",
    "aws-access-key",
    "github-token",
    "slack-token",
    "openai-key",
    "google-api-key",
    "private-key",
    "jwt",
    "url-password",
    "assignment",
    "anthropic-key",
    "stripe-key",
    "webhook-url",
    "gitlab-token",
    "npm-token",
    "huggingface-token",
    "sendgrid-key",
    "twilio-key",
    "digitalocean-token",
    "pypi-token",
    "authorization",
    "secret-flag",
    "azure-client-secret",
    "alibaba-access-key",
    "google-oauth",
    "heroku-api-key",
    "flyio-token",
    "vault-token",
    "terraform-token",
    "databricks-token",
    "cloudflare-origin-ca-key",
    "openshift-token",
    "pulumi-token",
    "planetscale-token",
    "doppler-token",
    "dynatrace-token",
    "infracost-token",
    "age-secret-key",
    "1password-token",
    "yandex-api-key",
    "grafana-token",
    "harness-token",
    "octopus-api-key",
    "sourcegraph-token",
    "prefect-token",
    "postman-token",
    "linear-api-key",
    "atlassian-token",
    "artifactory-token",
    "readme-token",
    "frameio-token",
    "clojars-token",
    "rubygems-token",
    "dockerhub-token",
    "sentry-token",
    "perplexity-key",
    "settlemint-token",
    "typeform-token",
    "scalingo-token",
    "notion-token",
    "easypost-token",
    "adobe-client-secret",
    "duffel-token",
    "shippo-token",
    "shopify-token",
    "square-token",
    "facebook-token",
    "flutterwave-key",
    "sendinblue-key",
    "mailchimp-key",
    "telegram-bot-token",
};
static_assert(sizeof kNames / sizeof kNames[0] == static_cast<size_t>(Rule::kLast) + 1,
              "one name per rule");

}  // namespace

std::string_view RuleName(Rule rule) {
  const auto i = static_cast<size_t>(rule);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "secret";
}

}  // namespace lore::redact
