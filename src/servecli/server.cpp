// The HTTP side of `lore serve` (server.h, docs/serve.md).
#include "servecli/server.h"

#include <httplib.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "lore/json/dump_js.h"
#include "lore/json/value.h"
#include "proc/process.h"
#include "servecli/front.h"
#include "servecli/markdown.h"
#include "servecli/page_assets.h"

namespace lore::serve {
namespace {

constexpr size_t kMaxBody = 1 << 20;  // an edited record is at most this
constexpr int kWorkers = 4;
constexpr int64_t kCheckSeconds = 10;
constexpr int64_t kPageRows = 200;  // records per page of a list

const char* const kSecurityHeaders[][2] = {
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"Cache-Control", "no-store"},
    {"X-Frame-Options", "DENY"},
    {"Cross-Origin-Resource-Policy", "same-origin"},
};

text::TimePoint Now() { return std::chrono::system_clock::now(); }

int64_t NowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(Now().time_since_epoch()).count();
}

void SendJson(httplib::Response& res, int status, const Json& body) {
  res.status = status;
  res.set_content(body.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json");
}

void SendError(httplib::Response& res, int status, const std::string& what,
               const std::string& repair, const Json* extra = nullptr) {
  Json body = Json::object();
  body["error"] = what;
  body["repair"] = repair;
  if (extra) {
    for (const auto& [k, v] : extra->items()) body[k] = v;
  }
  SendJson(res, status, body);
}

const char* Reason(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 503:
      return "Service Unavailable";
    default:
      return "Error";
  }
}

// A whole answer of the front's own (front.h): an error, and the end of the connection.
std::string RawRefusal(int status, const std::string& what, const std::string& repair) {
  Json body = Json::object();
  body["error"] = what;
  body["repair"] = repair;
  const std::string text = body.dump(-1, ' ', false, Json::error_handler_t::replace);
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) + "\r\n";
  out += "Content-Type: application/json\r\nContent-Length: " + std::to_string(text.size()) +
         "\r\nConnection: close\r\n";
  for (const auto& h : kSecurityHeaders) out += std::string(h[0]) + ": " + h[1] + "\r\n";
  return out + "\r\n" + text;
}

// One whole request as the front received it, read by httplib; its answer
// kept in memory for the front to write.
class MemoryStream : public httplib::Stream {
 public:
  MemoryStream(std::string_view in, int port) : in_(in), port_(port) {}
  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }
  ssize_t read(char* ptr, size_t size) override {
    const size_t n = std::min(size, in_.size() - at_);
    std::memcpy(ptr, in_.data() + at_, n);
    at_ += n;
    return static_cast<ssize_t>(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    // The front has said "100 Continue" already, when the client asked.
    if (out.empty() && std::string_view(ptr, size).starts_with("HTTP/1.1 100 ")) {
      return static_cast<ssize_t>(size);
    }
    out.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip = "127.0.0.1";
    port = port_;
  }
  socket_t socket() const override { return INVALID_SOCKET; }
  std::string out;

 private:
  std::string_view in_;
  size_t at_ = 0;
  int port_;
};

}  // namespace

// httplib's parsing, routes and answers, over requests the front has read whole.
class Server::Engine : public httplib::Server {
 public:
  std::string Answer(std::string_view request, int port, bool* close) {
    MemoryStream strm(request, port);
    bool closed = false;
    const bool ok = process_request(strm, false, closed, [](httplib::Request&) {});
    *close = closed || !ok;
    return std::move(strm.out);
  }
};

namespace {

int StatusOf(const Error& e) {
  switch (e.code) {
    case ErrorCode::kInvalidInput:
      return 400;
    case ErrorCode::kNotFound:
    case ErrorCode::kSymlink:
      return 404;
    case ErrorCode::kBusy:
    case ErrorCode::kExists:
    case ErrorCode::kUnavailable:  // e.g. a team store's queue, reviewed by lore review only
      return 409;
    default:
      return 500;
  }
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The ids of a JSON array of strings; an error for anything else.
Result<std::vector<std::string>> Ids(const Json& body, const char* key) {
  std::vector<std::string> out;
  if (!body.contains(key)) return out;
  const Json& v = body[key];
  if (!v.is_array()) {
    return Fail(ErrorCode::kInvalidInput, std::string("'") + key + "' must be a list of ids", "", 0,
                "send the proposal ids as a JSON array of strings");
  }
  for (const Json& id : v) {
    if (!id.is_string()) {
      return Fail(ErrorCode::kInvalidInput, std::string("'") + key + "' must hold strings", "", 0,
                  "send the proposal ids as a JSON array of strings");
    }
    out.push_back(id.get<std::string>());
  }
  return out;
}

Result<std::string> StringField(const Json& body, const char* key) {
  if (!body.contains(key) || !body[key].is_string()) {
    return Fail(ErrorCode::kInvalidInput, std::string("'") + key + "' is missing", "", 0,
                std::string("send a JSON object with the string '") + key + "'");
  }
  return body[key].get<std::string>();
}

// A whole number parameter within [low, high]; `fallback` when absent or not one.
int64_t NumberParam(const httplib::Request& req, const char* name, int64_t fallback, int64_t low,
                    int64_t high) {
  if (!req.has_param(name)) return fallback;
  const std::string v = req.get_param_value(name);
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
    return fallback;
  }
  return std::clamp<int64_t>(std::stoll(v), low, high);
}

}  // namespace

Verdict Judge(const Guard& guard, const httplib::Request& req, bool change) {
  const std::string port = std::to_string(guard.port);
  const std::string host = Lower(req.get_header_value("Host"));
  if (host != "127.0.0.1:" + port && host != "localhost:" + port) return Verdict::kBadHost;
  if (req.has_header("Origin")) {
    const std::string origin = Lower(req.get_header_value("Origin"));
    if (origin != "http://127.0.0.1:" + port && origin != "http://localhost:" + port) {
      return Verdict::kOtherOrigin;
    }
  }
  const std::string site = Lower(req.get_header_value("Sec-Fetch-Site"));
  if (site == "cross-site" || site == "same-site") return Verdict::kOtherOrigin;
  std::string token = req.get_header_value("X-Lore-Token");
  if (token.empty() && !change) token = req.get_param_value("t");
  if (!app::SameToken(token, guard.token)) return Verdict::kNoToken;
  if (change) {
    const std::string type = Lower(req.get_header_value("Content-Type"));
    if (type.rfind("application/json", 0) != 0) return Verdict::kNotJson;
  }
  return Verdict::kAllow;
}

Server::Server(store::Store store, std::string repo)
    : store_(std::move(store)), repo_(std::move(repo)), http_(std::make_unique<Engine>()) {
  std::error_code ec;
  if (std::filesystem::exists(repo_, ec)) {
    std::string abs = std::filesystem::absolute(repo_, ec).lexically_normal().string();
    while (abs.size() > 1 && abs.back() == '/') abs.pop_back();
    if (!ec) repo_ = abs;
  }
}

Server::~Server() = default;

Status Server::Bind(int port) {
  guard_.token = app::NewPageToken();
  http_->set_payload_max_length(kMaxBody);
  FrontLimits limits;
  limits.max_body = kMaxBody;
  limits.workers = kWorkers;
  http_->set_keep_alive_timeout(limits.head_ms / 1000);  // what the Keep-Alive header says
  Routes();
  front_ = std::make_unique<Front>(
      limits,
      [this](std::string_view request, bool* close) {
        return http_->Answer(request, guard_.port, close);
      },
      RawRefusal);
  const int bound = front_->Bind(port);
  if (bound <= 0) {
    return Fail(
        ErrorCode::kUnavailable,
        "cannot listen on 127.0.0.1:" + std::to_string(port) + " (" + std::strerror(errno) + ")",
        "", 0, "pass --port <N> for another port, or --port 0 for any free one");
  }
  guard_.port = bound;
  return {};
}

std::string Server::Url() const {
  return "http://127.0.0.1:" + std::to_string(guard_.port) + "/?t=" + guard_.token;
}

void Server::Listen() { front_->Run(); }

void Server::Stop() { front_->Stop(); }

void Server::Routes() {
  http_->set_post_routing_handler([](const httplib::Request&, httplib::Response& res) {
    for (const auto& h : kSecurityHeaders) res.set_header(h[0], h[1]);
  });
  // The page's assets: code built into the binary, holding no data.
  for (const PageAsset& a : kPageAssets) {
    if (std::string_view(a.path) == "/index.html") continue;
    http_->Get(a.path, [&a](const httplib::Request&, httplib::Response& res) {
      res.set_content(reinterpret_cast<const char*>(a.data), a.size, a.type);
    });
  }
  http_->Get("/", [this](const httplib::Request& req, httplib::Response& res) {
    if (Judge(guard_, req, false) != Verdict::kAllow) {
      res.status = 403;
      res.set_content("lore: this page needs the address lore serve printed, with its token\n",
                      "text/plain");
      return;
    }
    for (const PageAsset& a : kPageAssets) {
      if (std::string_view(a.path) == "/index.html") {
        res.set_content(reinterpret_cast<const char*>(a.data), a.size, a.type);
      }
    }
  });
  http_->Get(R"(/api/([a-z]+))",
             [this](const httplib::Request& req, httplib::Response& res) { Api(req, res, false); });
  http_->Post(R"(/api/([a-z]+))",
              [this](const httplib::Request& req, httplib::Response& res) { Api(req, res, true); });
  http_->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 404) {
      SendError(res, 404, "no such page", "open the address lore serve printed");
    } else if (res.status == 413) {
      SendError(res, 413, "the request body is over the 1 MiB limit",
                "send at most 1 MiB: an edited record must be shorter");
    } else {
      SendError(res, res.status,
                "the request was refused (HTTP " + std::to_string(res.status) + ")",
                "use the page lore serve printed");
    }
  });
}

void Server::Api(const httplib::Request& req, httplib::Response& res, bool change) {
  switch (Judge(guard_, req, change)) {
    case Verdict::kAllow:
      break;
    case Verdict::kBadHost:
      return SendError(res, 403, "this server answers 127.0.0.1 and localhost only",
                       "open the address lore serve printed");
    case Verdict::kOtherOrigin:
      return SendError(res, 403, "a request from another site is refused",
                       "use the page lore serve printed");
    case Verdict::kNoToken:
      return SendError(res, 403,
                       change ? "a change needs the token in the X-Lore-Token header"
                              : "the token is missing or wrong",
                       "open the address lore serve printed, with its ?t= token");
    case Verdict::kNotJson:
      return SendError(res, 415, "a change must be sent as application/json",
                       "send a JSON object with Content-Type: application/json");
  }
  Json extra = Json::object();
  int status = 200;
  Result<Json> out = Fail(ErrorCode::kInternal, "not answered", "", 0, "");
  if (change) {
    auto body = app::ParseChange(req.body);
    if (!body) return SendError(res, 400, body.error().what, body.error().repair);
    out = Post(req, *body, &extra, &status);
  } else {
    out = Get(req);
  }
  if (!out) {
    const Error& e = out.error();
    const int code = !extra.empty() ? 422 : StatusOf(e);
    std::string what = e.what;
    if (!e.path.empty()) what += ": " + e.path + (e.line > 0 ? ":" + std::to_string(e.line) : "");
    return SendError(res, code, what, e.repair, extra.empty() ? nullptr : &extra);
  }
  SendJson(res, status, *out);
}

Result<Json> Server::Get(const httplib::Request& req) {
  const std::string name = req.matches[1];
  if (name == "overview") return app::OverviewJson(store_, repo_, MarkdownHtml);
  if (name == "status") {
    Json check;
    {
      std::lock_guard lock(check_mu_);
      if (!check_ || NowSeconds() - check_at_ >= kCheckSeconds) {
        check_ = app::CheckJson(store_);
        check_at_ = NowSeconds();
      }
      check = *check_;
    }
    return app::WatchJson(store_, check);
  }
  if (name == "records") {
    return app::RecordsJson(store_, req.get_param_value("kind"),
                            NumberParam(req, "offset", 0, 0, INT32_MAX),
                            NumberParam(req, "limit", kPageRows, 1, 1000));
  }
  if (name == "item") {
    // An id that names nothing in the store, or leaves it, is not found.
    auto item = app::ItemJson(store_, req.get_param_value("id"), MarkdownHtml);
    if (!item && item.error().code == ErrorCode::kInvalidInput) {
      Error e = item.error();
      e.code = ErrorCode::kNotFound;
      return tl::unexpected(std::move(e));
    }
    return item;
  }
  if (name == "learnings") return app::LearningsJson(store_, Now());
  if (name == "sessions") {
    int64_t limit = app::kSessionPage;
    if (req.has_param("limit")) {
      const std::string v = req.get_param_value("limit");
      if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
        return Fail(
            ErrorCode::kInvalidInput,
            "'limit' must be a whole number from 1 to " + std::to_string(app::kMaxSessionPage), "",
            0, "leave 'limit' out for " + std::to_string(app::kSessionPage) + " sessions a page");
      }
      limit = std::stoll(v);
    }
    return app::SessionsJson(store_, req.get_param_value("after"), limit);
  }
  if (name == "activity") return app::ActivityJson(store_);
  if (name == "review") return app::ReviewBatchJson(store_);
  if (name == "search") {
    const std::string scope = req.has_param("scope") ? req.get_param_value("scope") : "all";
    const bool explain = req.get_param_value("explain") == "1";
    return app::SearchJson(store_, req.get_param_value("q"), scope, explain, 20, Now());
  }
  return Fail(ErrorCode::kNotFound, "no such view: " + name, "", 0,
              "open the address lore serve printed");
}

Result<Json> Server::Post(const httplib::Request& req, const Json& body, Json* extra, int* status) {
  (void)status;
  const std::string name = req.matches[1];
  auto remember = [this](app::PageChange c) -> Result<Json> {
    Json result = c.result;
    std::lock_guard lock(undo_mu_);
    undo_.push_back(std::move(c));
    return result;
  };
  if (name == "review") {
    LORE_ASSIGN(std::vector<std::string> approve, Ids(body, "approve"));
    LORE_ASSIGN(std::vector<std::string> decline, Ids(body, "decline"));
    std::string reason = body.contains("reason") && body["reason"].is_string()
                             ? body["reason"].get<std::string>()
                             : std::string("user-declined");
    return app::ReviewByIds(store_, repo_, approve, decline, reason, Now());
  }
  if (name == "edit") {
    LORE_ASSIGN(std::string id, StringField(body, "id"));
    LORE_ASSIGN(std::string text, StringField(body, "text"));
    Json findings;
    auto c = app::EditRecordText(store_, id, text, &findings);
    if (!c) {
      if (!findings.is_null()) (*extra)["findings"] = findings;
      return tl::unexpected(c.error());
    }
    return remember(std::move(*c));
  }
  if (name == "replace") {
    LORE_ASSIGN(std::string id, StringField(body, "id"));
    LORE_ASSIGN(std::string by, StringField(body, "by"));
    Json findings;
    auto c = app::ReplaceRecord(store_, id, by, Now(), &findings);
    if (!c) {
      if (!findings.is_null()) (*extra)["findings"] = findings;
      return tl::unexpected(c.error());
    }
    return remember(std::move(*c));
  }
  if (name == "pin") {
    LORE_ASSIGN(std::string id, StringField(body, "id"));
    const bool pin = !body.contains("pin") || body["pin"] != false;
    LORE_ASSIGN(app::PageChange c, app::PinFromPage(store_, id, pin, Now()));
    return remember(std::move(c));
  }
  if (name == "undo") {
    std::lock_guard lock(undo_mu_);
    if (undo_.empty()) {
      return Fail(ErrorCode::kBusy, "nothing to undo", "", 0,
                  "undo takes back an edit, a replace or a pin made on this page");
    }
    LORE_ASSIGN(std::string what, app::UndoChange(store_, undo_.back(), Now()));
    undo_.pop_back();
    Json out = Json::object();
    out["undone"] = what;
    return out;
  }
  if (name == "consolidate") {
    const std::string lore = proc::Beside("lore");
    LORE_TRY(proc::StartDetached({lore, "consolidate", repo_, "--flush"}, "lore consolidate"));
    Json out = Json::object();
    out["started"] = true;
    return out;
  }
  return Fail(ErrorCode::kNotFound, "no such change: " + name, "", 0,
              "use the page lore serve printed");
}

}  // namespace lore::serve
