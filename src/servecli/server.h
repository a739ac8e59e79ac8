// The HTTP side of `lore serve` (docs/serve.md): routes to the page's use
// cases (lore/app/browse.h), and the guards every request passes first: the
// Host, the run's token, the origin, and for a change the header token and a
// JSON body.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lore/app/browse.h"
#include "lore/app/curate.h"
#include "lore/error.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace lore::serve {

class Front;

inline constexpr int kDefaultPort = 7317;

// What a request may do, decided from its headers alone.
struct Guard {
  std::string token;
  int port = 0;
};
enum class Verdict { kAllow, kNoToken, kBadHost, kOtherOrigin, kNotJson };
// GET needs the token in `?t=` or the X-Lore-Token header; POST in the
// header, with a JSON body; both a Host of 127.0.0.1 or localhost at the
// port, and no other site's Origin or Sec-Fetch-Site.
Verdict Judge(const Guard& guard, const httplib::Request& req, bool change);

class Server {
 public:
  Server(store::Store store, std::string repo);
  ~Server();
  // Binds 127.0.0.1 (`port` 0: any free port) and makes the run's token.
  Status Bind(int port);
  // http://127.0.0.1:<port>/?t=<token>
  std::string Url() const;
  const std::string& repo() const { return repo_; }
  void Listen();  // until Stop
  void Stop();

 private:
  class Engine;  // httplib's request parsing and routes, over the front's whole requests
  void Routes();
  void Api(const httplib::Request& req, httplib::Response& res, bool change);
  Result<Json> Get(const httplib::Request& req);
  Result<Json> Post(const httplib::Request& req, const Json& body, Json* extra, int* status);

  store::Store store_;
  std::string repo_;
  Guard guard_;
  std::unique_ptr<Engine> http_;
  std::unique_ptr<Front> front_;  // the connections (front.h)
  std::mutex undo_mu_;
  std::vector<app::PageChange> undo_;  // the page's changes, last last
  std::mutex check_mu_;
  std::optional<Json> check_;  // `lore check`'s results, kept for a few seconds
  int64_t check_at_ = 0;
};

}  // namespace lore::serve
