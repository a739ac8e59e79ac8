#include "lore/llm/http.h"

#include <curl/curl.h>

#include <thread>

namespace lore::llm {
namespace {

struct Sink {
  std::string* body;
  bool too_large = false;
};

// Returning less than it was given makes curl end the transfer (CURLE_WRITE_ERROR).
size_t Collect(char* data, size_t size, size_t n, void* out) {
  Sink* sink = static_cast<Sink*>(out);
  const size_t len = size * n;
  if (sink->body->size() + len > kMaxResponseBytes) {
    sink->too_large = true;
    return 0;
  }
  sink->body->append(data, len);
  return len;
}

}  // namespace

void InitHttp() { curl_global_init(CURL_GLOBAL_DEFAULT); }

HttpResult Post(const HttpRequest& req) {
  HttpResult out;
  CURL* curl = curl_easy_init();
  if (!curl) {
    out.error =
        Error{ErrorCode::kInternal, "cannot start an HTTP client", req.url, 0, "report this bug"};
    return out;
  }
  curl_slist* headers = nullptr;
  for (const auto& h : req.headers) headers = curl_slist_append(headers, h.c_str());
  headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip
  char reason[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, req.body.data());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout.count()));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(req.connect_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Collect);
  Sink sink{&out.response.body};
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(kMaxResponseBytes));
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, reason);
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  CURLcode rc = curl_easy_perform(curl);
  if (rc == CURLE_OK) {
    out.ok = true;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.response.status);
  } else if (sink.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    out.too_large = true;
    out.error =
        Error{ErrorCode::kUnavailable,
              "the LLM endpoint's answer is over the limit of " +
                  std::to_string(kMaxResponseBytes) + " bytes",
              req.url, 0, "check llm.base_url in config.toml: is it a chat-completions server?"};
  } else {
    out.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    std::string why = reason[0] ? reason : curl_easy_strerror(rc);
    out.error =
        Error{ErrorCode::kUnavailable,
              out.timed_out ? "the LLM endpoint did not answer in time (" + why + ")"
                            : "cannot reach the LLM endpoint (" + why + ")",
              req.url, 0,
              out.timed_out
                  ? "check that the server is healthy, or raise llm.timeout_seconds in config.toml"
                  : "check llm.base_url in config.toml and that the server is running"};
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return out;
}

std::string Snippet(std::string_view body) {
  std::string s(body.substr(0, 200));
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return body.size() > 200 ? s + "…" : s;
}

Result<HttpResponse> PostRetrying(const HttpRequest& request, int max_retries,
                                  std::chrono::milliseconds backoff, int& requests,
                                  const std::function<Error(long, std::string_view)>& explain) {
  auto wait = backoff;
  Error last;
  int attempts = 0;
  for (int attempt = 0; attempt <= max_retries; ++attempt) {
    if (attempt > 0) {
      std::this_thread::sleep_for(wait);
      wait *= 2;
    }
    ++requests;
    ++attempts;
    HttpResult r = Post(request);
    if (!r.ok) {
      last = r.error;
      if (r.too_large) break;  // asking again would only read as much again
      continue;
    }
    const long status = r.response.status;
    if (status >= 200 && status < 300) return std::move(r.response);
    last = explain(status, r.response.body);
    if (status != 429 && status < 500) break;
  }
  if (attempts > 1) last.what += " (after " + std::to_string(attempts) + " attempts)";
  return tl::unexpected(last);
}

}  // namespace lore::llm
