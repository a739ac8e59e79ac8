// The connections of `lore serve` (front.h, docs/serve.md).
#include "servecli/front.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace lore::serve {
namespace {

constexpr int kDrainMs = 2000;  // a refused request's rest, read and dropped

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// What the front needs of a head: its body's length and whether the client
// waits for "100 Continue".
struct Head {
  int64_t length = 0;  // -1: not a number; -2: given twice
  bool chunked = false;
  bool expect = false;
};

Head ReadHead(std::string_view head) {
  Head out;
  bool have_length = false;
  size_t at = head.find("\r\n");
  while (at != std::string_view::npos && at + 2 < head.size()) {
    at += 2;
    size_t end = head.find("\r\n", at);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(at, end - at);
    at = end;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = Lower(Trim(line.substr(0, colon)));
    const std::string_view value = Trim(line.substr(colon + 1));
    if (name == "content-length") {
      if (have_length || value.empty() || value.size() > 15 ||
          value.find_first_not_of("0123456789") != std::string_view::npos) {
        out.length = have_length ? -2 : -1;
        return out;
      }
      have_length = true;
      out.length = std::stoll(std::string(value));
    } else if (name == "transfer-encoding") {
      out.chunked = true;
    } else if (name == "expect") {
      out.expect = Lower(value) == "100-continue";
    }
  }
  return out;
}

enum class Chunks { kMore, kDone, kBad, kTooBig };

// Walks a chunked body (Transfer-Encoding: chunked) from `*at`, the start of
// a chunk's size line, past every whole chunk; at the last (size 0) and its
// trailers, `*end` is the end of the request. `*total` counts the data.
Chunks ScanChunks(const std::string& in, size_t* at, size_t* total, size_t max_body, size_t* end) {
  for (;;) {
    const size_t eol = in.find("\r\n", *at);
    if (eol == std::string::npos) return in.size() - *at > 1024 ? Chunks::kBad : Chunks::kMore;
    std::string_view size_text = std::string_view(in).substr(*at, eol - *at);
    size_text = size_text.substr(0, size_text.find(';'));
    size_text = Trim(size_text);
    if (size_text.empty() || size_text.size() > 8 ||
        size_text.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos) {
      return Chunks::kBad;
    }
    const size_t size = std::stoul(std::string(size_text), nullptr, 16);
    if (size == 0) {
      if (in.compare(eol + 2, 2, "\r\n") == 0) {
        *end = eol + 4;
        return Chunks::kDone;
      }
      const size_t trailers = in.find("\r\n\r\n", eol + 2);
      if (trailers == std::string::npos) {
        return in.size() - eol > 8192 ? Chunks::kBad : Chunks::kMore;
      }
      *end = trailers + 4;
      return Chunks::kDone;
    }
    if (*total + size > max_body) {
      *total += size;
      return Chunks::kTooBig;
    }
    const size_t data_end = eol + 2 + size;
    if (in.size() < data_end + 2) return Chunks::kMore;
    if (in.compare(data_end, 2, "\r\n") != 0) return Chunks::kBad;
    *total += size;
    *at = data_end + 2;
  }
}

}  // namespace

Front::Front(FrontLimits limits, Handler handler, Refusal refusal)
    : limits_(limits), handler_(std::move(handler)), refusal_(std::move(refusal)) {
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
}

Front::~Front() {
  for (auto& [fd, c] : conns_) ::close(fd);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  for (int fd : wake_) {
    if (fd >= 0) ::close(fd);
  }
}

int Front::Bind(int port) {
  if (wake_[0] < 0) return -1;
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(fd, SOMAXCONN) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  listen_fd_ = fd;
  return ntohs(addr.sin_port);
}

void Front::Stop() {
  stop_ = true;
  if (wake_[1] >= 0) (void)!::write(wake_[1], "s", 1);
}

void Front::Run() {
  for (int i = 0; i < limits_.workers; ++i) workers_.emplace_back([this] { Work(); });
  std::vector<pollfd> fds;
  std::vector<int> order;
  while (!stop_) {
    const Clock::time_point now = Clock::now();
    fds.clear();
    order.clear();
    fds.push_back({wake_[0], POLLIN, 0});
    fds.push_back({listen_fd_, POLLIN, 0});
    Clock::time_point next = now + std::chrono::seconds(1);
    for (auto& [fd, c] : conns_) {
      short events = 0;
      if (c.state == State::kReading || c.state == State::kDraining) events = POLLIN;
      if (c.state == State::kWriting) events = POLLOUT;
      if (events == 0) continue;  // in a worker's hands
      fds.push_back({fd, events, 0});
      order.push_back(fd);
      next = std::min(next, c.deadline);
    }
    const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(next - now).count() + 1;
    const int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait, 0)));
    if (n < 0 && errno != EINTR) break;
    const Clock::time_point after = Clock::now();
    if (n > 0) {
      if (fds[0].revents) {
        char buf[256];
        while (::read(wake_[0], buf, sizeof buf) > 0) {
        }
        Finished(after);
      }
      for (size_t i = 2; i < fds.size(); ++i) {
        if (!fds[i].revents) continue;
        auto it = conns_.find(order[i - 2]);
        if (it == conns_.end()) continue;
        Conn& c = it->second;
        if (c.state == State::kWriting) {
          WriteTo(c, after);
        } else {
          ReadFrom(c, after);
        }
      }
      if (fds[1].revents) Accept(after);
    }
    Expire(Clock::now());
  }
  {
    std::lock_guard lock(mu_);
    quit_ = true;
  }
  cv_.notify_all();
  for (std::thread& t : workers_) t.join();
  workers_.clear();
}

void Front::Accept(Clock::time_point now) {
  for (int i = 0; i < 64; ++i) {
    int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN, or a connection gone before it was taken
    if (conns_.size() >= limits_.max_connections && !Evict()) {
      const std::string busy =
          refusal_(503,
                   "lore serve has " + std::to_string(limits_.max_connections) +
                       " connections open, each with a request being answered",
                   "try again in a moment");
      (void)!::send(fd, busy.data(), busy.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      ::close(fd);
      continue;
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    Conn& c = conns_[fd];
    c = Conn{};
    c.fd = fd;
    c.serial = ++serial_;
    Ready(c, now);
  }
}

// Closes the connection that has waited longest and has no request with a
// worker: one already answered and closing first, then an idle one, then one
// still sending its request. False when every connection has one.
bool Front::Evict() {
  int best = -1;
  int best_rank = 3;
  Clock::time_point best_since{};
  for (const auto& [fd, c] : conns_) {
    int rank = 3;
    if (c.state == State::kDraining) {
      rank = 0;
    } else if (c.state == State::kReading) {
      rank = c.in.empty() ? 1 : 2;
    }
    if (rank < best_rank || (rank == best_rank && rank < 3 && c.since < best_since)) {
      best = fd;
      best_rank = rank;
      best_since = c.since;
    }
  }
  if (best < 0) return false;
  Close(best);
  return true;
}

void Front::Ready(Conn& c, Clock::time_point now) {
  c.state = State::kReading;
  c.scanned = 0;
  c.need = 0;
  c.chunked = false;
  c.out.clear();
  c.out_at = 0;
  c.since = now;
  c.deadline = now + std::chrono::milliseconds(limits_.head_ms);
  if (!c.in.empty()) Parse(c, now);  // the next request, sent before the answer
}

void Front::ReadFrom(Conn& c, Clock::time_point now) {
  const int fd = c.fd;
  char buf[65536];
  // At most 1 MiB a turn: a client sending without pause has the thread no
  // longer than the others.
  for (int turn = 0; turn < 16; ++turn) {
    const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
    if (n > 0) {
      if (c.state == State::kDraining) continue;  // dropped
      c.in.append(buf, static_cast<size_t>(n));
      // Never more than one request's worth is kept.
      if (c.in.size() > limits_.max_head + 2 * limits_.max_body) break;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // The client closed (or the connection broke): a whole request it sent
    // before is still answered.
    if (n == 0 && c.state == State::kReading && !c.in.empty()) {
      Parse(c, now);
      auto it = conns_.find(fd);
      if (it == conns_.end() || it->second.state != State::kReading) return;
    }
    return Close(fd);
  }
  if (c.state == State::kReading) Parse(c, now);
}

void Front::Parse(Conn& c, Clock::time_point now) {
  if (c.need == 0) {
    const size_t from = c.scanned >= 3 ? c.scanned - 3 : 0;
    const size_t end = c.in.find("\r\n\r\n", from);
    if (end == std::string::npos) {
      c.scanned = c.in.size();
      if (c.in.size() > limits_.max_head) {
        return Refuse(c, 431,
                      "the request head is over the " + std::to_string(limits_.max_head / 1024) +
                          " KiB limit",
                      "send a shorter request line and fewer headers");
      }
      return;
    }
    const size_t head_size = end + 4;
    if (head_size > limits_.max_head) {
      return Refuse(
          c, 431,
          "the request head is over the " + std::to_string(limits_.max_head / 1024) + " KiB limit",
          "send a shorter request line and fewer headers");
    }
    const Head head = ReadHead(std::string_view(c.in).substr(0, end));
    if (head.chunked) {
      if (head.length != 0) {
        return Refuse(c, 400, "a body is sent both with Content-Length and in chunks",
                      "send either a Content-Length header or Transfer-Encoding: chunked");
      }
      c.chunked = true;
      c.chunk_at = head_size;
      c.chunk_total = 0;
      c.need = head_size;
      c.deadline = now + std::chrono::milliseconds(limits_.body_ms);
      if (head.expect) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)!::send(c.fd, kContinue.data(), kContinue.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      }
    }
    if (head.length < 0) {
      return Refuse(c, 400,
                    head.length == -2 ? "Content-Length is given twice"
                                      : "Content-Length is not a whole number",
                    "send one Content-Length header with the body's size in bytes");
    }
    if (static_cast<uint64_t>(head.length) > limits_.max_body) {
      return Refuse(c, 413,
                    "the request body (" + std::to_string(head.length) +
                        " bytes) is over the 1 MiB limit (" + std::to_string(limits_.max_body) +
                        " bytes)",
                    "send at most 1 MiB: an edited record must be shorter");
    }
    if (!c.chunked) c.need = head_size + static_cast<size_t>(head.length);
    if (head.length > 0) {
      c.deadline = now + std::chrono::milliseconds(limits_.body_ms);
      if (head.expect && c.in.size() < c.need) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        (void)!::send(c.fd, kContinue.data(), kContinue.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      }
    }
  }
  if (c.chunked) {
    size_t end = 0;
    switch (ScanChunks(c.in, &c.chunk_at, &c.chunk_total, limits_.max_body, &end)) {
      case Chunks::kMore:
        if (c.in.size() > limits_.max_head + 2 * limits_.max_body) {
          return Refuse(c, 413, "the request body's chunks are over twice the 1 MiB limit",
                        "send the body in fewer chunks, or whole with a Content-Length header");
        }
        return;
      case Chunks::kBad:
        return Refuse(c, 400, "the request body's chunks are not well formed",
                      "send the body whole, with a Content-Length header");
      case Chunks::kTooBig:
        return Refuse(c, 413,
                      "the request body (at least " + std::to_string(c.chunk_total) +
                          " bytes) is over the 1 MiB limit (" + std::to_string(limits_.max_body) +
                          " bytes)",
                      "send at most 1 MiB: an edited record must be shorter");
      case Chunks::kDone:
        c.need = end;
        c.chunked = false;
        break;
    }
  }
  if (c.in.size() < c.need) return;
  Job job{c.fd, c.serial, c.in.substr(0, c.need)};
  c.in.erase(0, c.need);
  c.need = 0;
  c.scanned = 0;
  c.state = State::kQueued;
  {
    std::lock_guard lock(mu_);
    jobs_.push_back(std::move(job));
  }
  cv_.notify_one();
}

void Front::Refuse(Conn& c, int status, const std::string& what, const std::string& repair) {
  c.in.clear();
  c.out = refusal_(status, what, repair);
  c.out_at = 0;
  c.close_after = true;
  c.state = State::kWriting;
  c.deadline = Clock::now() + std::chrono::milliseconds(limits_.write_ms);
  WriteTo(c, Clock::now());
}

void Front::WriteTo(Conn& c, Clock::time_point now) {
  while (c.out_at < c.out.size()) {
    const ssize_t n =
        ::send(c.fd, c.out.data() + c.out_at, c.out.size() - c.out_at, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      c.out_at += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;  // polled again
    return Close(c.fd);
  }
  if (!c.close_after) return Ready(c, now);
  // Closed gently: the client reads the whole answer before the end of the
  // connection, and whatever it still sends (a refused body) is dropped.
  ::shutdown(c.fd, SHUT_WR);
  c.state = State::kDraining;
  c.in.clear();
  c.since = now;
  c.deadline = now + std::chrono::milliseconds(kDrainMs);
}

void Front::Close(int fd) {
  ::close(fd);
  conns_.erase(fd);
}

void Front::Expire(Clock::time_point now) {
  std::vector<int> late;
  for (const auto& [fd, c] : conns_) {
    if (c.state != State::kQueued && c.deadline <= now) late.push_back(fd);
  }
  for (int fd : late) {
    Conn& c = conns_[fd];
    if (c.state == State::kReading && (!c.in.empty() || c.need > 0)) {
      // Slow: told so, then closed.
      if (c.need == 0) {
        Refuse(c, 408,
               "the request head did not arrive within " + std::to_string(limits_.head_ms / 1000) +
                   " s",
               "send the whole request at once");
      } else {
        Refuse(c, 408,
               "the request body did not arrive within " + std::to_string(limits_.body_ms / 1000) +
                   " s",
               "send the whole request at once");
      }
      continue;  // the refusal has write_ms to go, then the connection is closed
    }
    Close(fd);  // idle, an answer not read, or a refused request's rest
  }
}

void Front::Finished(Clock::time_point now) {
  std::vector<Done> done;
  {
    std::lock_guard lock(mu_);
    done.swap(done_);
  }
  for (Done& d : done) {
    auto it = conns_.find(d.fd);
    if (it == conns_.end() || it->second.serial != d.serial) continue;
    Conn& c = it->second;
    c.out = std::move(d.answer);
    c.out_at = 0;
    c.close_after = d.close;
    c.state = State::kWriting;
    c.deadline = now + std::chrono::milliseconds(limits_.write_ms);
    WriteTo(c, now);
  }
}

void Front::Work() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [this] { return quit_ || !jobs_.empty(); });
      if (quit_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    bool close = false;
    std::string answer = handler_(job.request, &close);
    {
      std::lock_guard lock(mu_);
      done_.push_back({job.fd, job.serial, std::move(answer), close});
    }
    (void)!::write(wake_[1], "d", 1);
  }
}

}  // namespace lore::serve
