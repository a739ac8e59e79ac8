// One HTTP POST through libcurl (only in lore-llm: the lore binary never
// links curl).
#pragma once

#include <chrono>
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

// Call once at start-up (curl_global_init).
void InitHttp();

}  // namespace lore::llm
