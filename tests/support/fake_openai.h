// A scripted OpenAI-compatible chat-completions server for tests: real HTTP
// on 127.0.0.1 (an ephemeral port), real JSON. Each request gets the next
// scripted reply; it can also answer late, never (hang) or with garbage.
// Every loop is bounded: the server thread polls in 50 ms steps and stops
// when the object is destroyed. Header-only.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace lore::testing {

class FakeOpenAi {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    bool hang = false;  // accept, read, never answer
  };
  struct Request {
    std::string method, path;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
    nlohmann::json json() const { return nlohmann::json::parse(body, nullptr, false); }
  };

  explicit FakeOpenAi(std::vector<Reply> script) : script_(std::move(script)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(fd_, 16);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~FakeOpenAi() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  FakeOpenAi(const FakeOpenAi&) = delete;
  FakeOpenAi& operator=(const FakeOpenAi&) = delete;

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  std::vector<Request> requests() const {
    std::lock_guard<std::mutex> g(mu_);
    return requests_;
  }

  // A completion whose message calls `calls` (name, arguments object).
  static Reply Calls(const std::vector<std::pair<std::string, nlohmann::json>>& calls) {
    nlohmann::json tool_calls = nlohmann::json::array();
    int n = 0;
    for (const auto& [name, args] : calls) {
      tool_calls.push_back({{"id", "call_" + std::to_string(++n)},
                            {"type", "function"},
                            {"function", {{"name", name}, {"arguments", args.dump()}}}});
    }
    return Completion({{"role", "assistant"}, {"content", nullptr}, {"tool_calls", tool_calls}},
                      "tool_calls");
  }
  static Reply Text(const std::string& content) {
    return Completion({{"role", "assistant"}, {"content", content}}, "stop");
  }

 private:
  static Reply Completion(nlohmann::json message, const char* finish) {
    nlohmann::json j = {
        {"id", "chatcmpl-test"},
        {"object", "chat.completion"},
        {"created", 1764500000},
        {"model", "test-model"},
        {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", finish}}}}};
    return Reply{200, j.dump(), false};
  }

  bool Wait(int fd, short events) {
    while (!stop_) {
      pollfd p{fd, events, 0};
      int r = ::poll(&p, 1, 50);
      if (r > 0) return true;
      if (r < 0 && errno != EINTR) return false;
    }
    return false;
  }

  // Reads one request (headers, then Content-Length bytes) within 10 s.
  bool ReadRequest(int c, Request& req) {
    std::string data;
    char buf[65536];
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    size_t header_end = std::string::npos, want = 0;
    while (std::chrono::steady_clock::now() < deadline && data.size() < (64u << 20)) {
      if (header_end != std::string::npos && data.size() >= header_end + 4 + want) break;
      if (!Wait(c, POLLIN)) return false;
      ssize_t n = ::read(c, buf, sizeof buf);
      if (n <= 0) return false;
      data.append(buf, static_cast<size_t>(n));
      if (header_end == std::string::npos &&
          (header_end = data.find("\r\n\r\n")) != std::string::npos) {
        std::string head = data.substr(0, header_end);
        size_t line_end = head.find("\r\n");
        std::string first = head.substr(0, line_end);
        req.method = first.substr(0, first.find(' '));
        req.path = first.substr(first.find(' ') + 1, first.rfind(' ') - first.find(' ') - 1);
        size_t pos = line_end + 2;
        while (line_end != std::string::npos && pos < head.size()) {
          size_t e = head.find("\r\n", pos);
          std::string line = head.substr(pos, e == std::string::npos ? std::string::npos : e - pos);
          size_t colon = line.find(':');
          if (colon != std::string::npos) {
            std::string name = line.substr(0, colon);
            for (char& ch : name)
              ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            req.headers[name] = value;
          }
          if (e == std::string::npos) break;
          pos = e + 2;
        }
        if (req.headers.count("content-length")) want = std::stoul(req.headers["content-length"]);
      }
    }
    if (header_end == std::string::npos || data.size() < header_end + 4 + want) return false;
    req.body = data.substr(header_end + 4, want);
    return true;
  }

  void Serve() {
    while (!stop_) {
      if (!Wait(fd_, POLLIN)) break;
      int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      Request req;
      if (ReadRequest(c, req)) {
        Reply reply{500, R"({"error":"script exhausted"})", false};
        {
          std::lock_guard<std::mutex> g(mu_);
          if (next_ < script_.size()) reply = script_[next_++];
          requests_.push_back(req);
        }
        if (reply.hang) {
          // Hold the connection until the client gives up (or the test ends).
          while (Wait(c, POLLIN)) {
            char b[256];
            if (::read(c, b, sizeof b) <= 0) break;
          }
        } else {
          std::string out = "HTTP/1.1 " + std::to_string(reply.status) +
                            " Scripted\r\nContent-Type: application/json\r\nContent-Length: " +
                            std::to_string(reply.body.size()) + "\r\nConnection: close\r\n\r\n" +
                            reply.body;
          size_t done = 0;
          while (done < out.size()) {
            ssize_t n = ::send(c, out.data() + done, out.size() - done, MSG_NOSIGNAL);
            if (n <= 0) break;
            done += static_cast<size_t>(n);
          }
        }
      }
      ::close(c);
    }
  }

  std::vector<Reply> script_;
  size_t next_ = 0;
  std::vector<Request> requests_;
  mutable std::mutex mu_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace lore::testing
