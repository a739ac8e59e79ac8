// One HTTP POST through libcurl (only in lore-llm: the lore binary never
// links curl).
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "lore/error.h"

namespace lore::llm {

// The largest response body read; a larger one ends the exchange with an
// error (a model's answer is a few kilobytes).
inline constexpr size_t kMaxResponseBytes = size_t{8} << 20;

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;
  std::chrono::milliseconds timeout{120000};  // the whole exchange
  std::chrono::milliseconds connect_timeout{10000};
};

struct HttpResponse {
  long status = 0;
  std::string body;
};

struct HttpResult {
  bool ok = false;  // a response arrived (any status)
  HttpResponse response;
  Error error;             // when !ok: kUnavailable, naming the URL and curl's reason
  bool timed_out = false;  // when !ok: the time ran out
  bool too_large = false;  // when !ok: the body passed kMaxResponseBytes
};

// Posts `request`. Never throws; transport failures come back in the result.
HttpResult Post(const HttpRequest& request);

// Posts `request` until a 2xx answer, retrying network failures, timeouts,
// HTTP 429 and 5xx up to `max_retries` times, waiting `backoff` and doubling
// it. `requests` counts every try. Another status, or the last failure, is
// the error: `explain(status, body)` words a status's (its what and repair).
Result<HttpResponse> PostRetrying(const HttpRequest& request, int max_retries,
                                  std::chrono::milliseconds backoff, int& requests,
                                  const std::function<Error(long, std::string_view)>& explain);

// The first 200 bytes of `body` on one line, for error messages.
std::string Snippet(std::string_view body);

// Call once at start-up (curl_global_init).
void InitHttp();

}  // namespace lore::llm
