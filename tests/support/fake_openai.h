// A scripted model server for tests: real HTTP on 127.0.0.1 (an ephemeral
// port), real JSON. It speaks OpenAI's chat completions and Anthropic's
// Messages API (plain JSON, or server-sent events when the request asks to
// stream, as Claude Code does). Each request gets the next scripted reply; it
// can also answer late, never (hang) or with garbage. A request that
// `side_request` says is not part of the conversation (Claude Code's own
// small requests: token counts, titles) gets a short text and leaves the
// script where it is.
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
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace lore::testing {

class FakeOpenAi {
 public:
  struct Reply {
    Reply(int status_ = 200, std::string body_ = {}, bool hang_ = false,
          nlohmann::json message_ = {})
        : status(status_), body(std::move(body_)), hang(hang_), message(std::move(message_)) {}
    int status = 200;
    std::string body;
    bool hang = false;  // accept, read, never answer
    // An Anthropic message ({"content": [...], "stop_reason", "usage"}):
    // sent as JSON, or as events when the request streams.
    nlohmann::json message;
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

  // Which requests are not the conversation's (answered with a short text).
  std::function<bool(const Request&)> side_request = [](const Request& r) {
    if (r.path.find("/v1/messages") == std::string::npos) return false;
    if (r.path.find("count_tokens") != std::string::npos) return true;
    auto j = r.json();
    // Claude Code's helper requests ask for a few tokens with no tools.
    return j.is_object() && j.value("max_tokens", 0) > 0 && j.value("max_tokens", 0) <= 512 &&
           (!j.contains("tools") || j["tools"].empty());
  };

  int port() const { return port_; }
  std::string anthropic_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // The conversation's requests (side requests left out).
  std::vector<Request> main_requests() const {
    std::lock_guard<std::mutex> g(mu_);
    std::vector<Request> out;
    for (size_t i = 0; i < requests_.size(); ++i)
      if (!side_[i]) out.push_back(requests_[i]);
    return out;
  }
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

  // Anthropic replies: text, and tool_use blocks (name, input object).
  static Reply Message(const std::string& text,
                       const std::vector<std::pair<std::string, nlohmann::json>>& calls = {},
                       int input_tokens = 100, int output_tokens = 20) {
    nlohmann::json content = nlohmann::json::array();
    if (!text.empty()) content.push_back({{"type", "text"}, {"text", text}});
    int n = 0;
    for (const auto& [name, input] : calls) {
      content.push_back({{"type", "tool_use"},
                         {"id", "toolu_" + std::to_string(++n) + "_" + name},
                         {"name", name},
                         {"input", input}});
    }
    Reply r;
    r.message = {{"content", content},
                 {"stop_reason", calls.empty() ? "end_turn" : "tool_use"},
                 {"usage", {{"input_tokens", input_tokens}, {"output_tokens", output_tokens}}}};
    return r;
  }

  // `message` as the Messages API sends it: a whole JSON object, or events.
  // A usage of -1 input tokens counts the request: its bytes / 4, the usual
  // rule of thumb (for benchmarks of what a back end sends).
  static std::pair<std::string, std::string> Render(nlohmann::json message, bool stream,
                                                    const std::string& model,
                                                    size_t request_bytes = 0) {
    if (message["usage"]["input_tokens"].get<int>() < 0)
      message["usage"]["input_tokens"] = static_cast<int>(request_bytes / 4);
    static int serial = 0;
    const std::string id = "msg_test_" + std::to_string(++serial);
    nlohmann::json whole = {{"id", id},
                            {"type", "message"},
                            {"role", "assistant"},
                            {"model", model},
                            {"content", message["content"]},
                            {"stop_reason", message["stop_reason"]},
                            {"stop_sequence", nullptr},
                            {"usage", message["usage"]}};
    if (!stream) return {"application/json", whole.dump()};
    std::string out;
    auto event = [&](const char* name, const nlohmann::json& data) {
      out += std::string("event: ") + name + "\ndata: " + data.dump() + "\n\n";
    };
    nlohmann::json start = whole;
    start["content"] = nlohmann::json::array();
    start["stop_reason"] = nullptr;
    start["usage"] = {{"input_tokens", message["usage"]["input_tokens"]}, {"output_tokens", 1}};
    event("message_start", {{"type", "message_start"}, {"message", start}});
    int index = 0;
    for (const auto& block : message["content"]) {
      if (block["type"] == "text") {
        event("content_block_start", {{"type", "content_block_start"},
                                      {"index", index},
                                      {"content_block", {{"type", "text"}, {"text", ""}}}});
        event("content_block_delta",
              {{"type", "content_block_delta"},
               {"index", index},
               {"delta", {{"type", "text_delta"}, {"text", block["text"]}}}});
      } else {
        nlohmann::json head = block;
        head["input"] = nlohmann::json::object();
        event("content_block_start",
              {{"type", "content_block_start"}, {"index", index}, {"content_block", head}});
        event("content_block_delta",
              {{"type", "content_block_delta"},
               {"index", index},
               {"delta", {{"type", "input_json_delta"}, {"partial_json", block["input"].dump()}}}});
      }
      event("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
      ++index;
    }
    event("message_delta",
          {{"type", "message_delta"},
           {"delta", {{"stop_reason", message["stop_reason"]}, {"stop_sequence", nullptr}}},
           {"usage", {{"output_tokens", message["usage"]["output_tokens"]}}}});
    event("message_stop", {{"type", "message_stop"}});
    return {"text/event-stream", out};
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
        Reply reply{500, R"({"error":"script exhausted"})", false, {}};
        const bool side = side_request && side_request(req);
        {
          std::lock_guard<std::mutex> g(mu_);
          if (side) {
            reply = Message("ok", {}, 5, 1);
          } else if (next_ < script_.size()) {
            reply = script_[next_++];
          }
          requests_.push_back(req);
          side_.push_back(side);
        }
        std::string type = "application/json";
        if (!reply.message.is_null()) {
          auto j = req.json();
          bool stream = j.is_object() && j.value("stream", false);
          std::string model = j.is_object() ? j.value("model", std::string("test")) : "test";
          std::tie(type, reply.body) = Render(reply.message, stream, model, req.body.size());
        }
        if (reply.hang) {
          // Hold the connection until the client gives up (or the test ends).
          while (Wait(c, POLLIN)) {
            char b[256];
            if (::read(c, b, sizeof b) <= 0) break;
          }
        } else {
          std::string out = "HTTP/1.1 " + std::to_string(reply.status) +
                            " Scripted\r\nContent-Type: " + type +
                            "\r\nContent-Length: " + std::to_string(reply.body.size()) +
                            "\r\nConnection: close\r\n\r\n" + reply.body;
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
  std::vector<bool> side_;
  mutable std::mutex mu_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace lore::testing
