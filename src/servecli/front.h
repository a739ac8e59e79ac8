// The connections of `lore serve` (docs/serve.md, "Slow and idle clients").
//
// One thread polls every connection without blocking: it reads each request
// whole (its head within `head_ms` of the connection being ready for one, its
// body within `body_ms` of the head) and only then hands it to one of the
// workers, which answers it in memory; the same thread writes the answer
// back. No client, however slow to send or to read, ever holds a worker. At
// most `max_connections` are open: a new one closes the longest-waiting
// connection that has no request in the workers' hands (a finished one first,
// then an idle one, then a slow one), and is refused (503) only when every
// open connection has.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace lore::serve {

struct FrontLimits {
  size_t max_connections = 128;
  size_t max_head = 16 * 1024;  // the request line and headers, bytes
  size_t max_body = 1 << 20;    // a request's body, bytes (Content-Length)
  int head_ms = 3000;           // the whole head, from connecting or the last answer
  int body_ms = 10000;          // the whole body, from the end of the head
  int write_ms = 10000;         // an answer, to be read by the client
  int workers = 4;
};

// Answers one whole request (its head and body as received): the whole
// answer, and whether the connection is closed after it.
using Handler = std::function<std::string(std::string_view request, bool* close)>;
// The whole answer the front gives itself to a request it refuses:
// status, what was wrong, the repair.
using Refusal =
    std::function<std::string(int status, const std::string& what, const std::string& repair)>;

class Front {
 public:
  Front(FrontLimits limits, Handler handler, Refusal refusal);
  ~Front();
  Front(const Front&) = delete;
  Front& operator=(const Front&) = delete;

  // Listens on 127.0.0.1:`port` (0: any free port): the port, or -1 (errno set).
  int Bind(int port);
  // Serves until Stop; the workers are joined before it returns.
  void Run();
  // From any thread.
  void Stop();

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kReading, kQueued, kWriting, kDraining };
  struct Conn {
    int fd = -1;
    uint64_t serial = 0;
    State state = State::kReading;
    std::string in;          // received, not yet handed on
    size_t scanned = 0;      // bytes of `in` searched for the head's end
    size_t need = 0;         // head and body, once the head is whole; else 0
    bool chunked = false;    // a body in chunks, its end not found yet
    size_t chunk_at = 0;     // where its next chunk's size line begins
    size_t chunk_total = 0;  // its data so far
    std::string out;         // the answer being written
    size_t out_at = 0;
    bool close_after = false;
    Clock::time_point since;     // waiting since (the oldest is closed first)
    Clock::time_point deadline;  // of its current state
  };
  struct Job {
    int fd;
    uint64_t serial;
    std::string request;
  };
  struct Done {
    int fd;
    uint64_t serial;
    std::string answer;
    bool close;
  };

  void Accept(Clock::time_point now);
  bool Evict();
  void ReadFrom(Conn& c, Clock::time_point now);
  void Parse(Conn& c, Clock::time_point now);
  void Refuse(Conn& c, int status, const std::string& what, const std::string& repair);
  void WriteTo(Conn& c, Clock::time_point now);
  void Ready(Conn& c, Clock::time_point now);  // waits for the next request
  void Close(int fd);
  void Expire(Clock::time_point now);
  void Finished(Clock::time_point now);
  void Work();

  FrontLimits limits_;
  Handler handler_;
  Refusal refusal_;
  int listen_fd_ = -1;
  int wake_[2] = {-1, -1};  // a pipe: a worker's answer, or Stop
  std::atomic<bool> stop_{false};
  uint64_t serial_ = 0;
  std::unordered_map<int, Conn> conns_;

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> jobs_;
  std::vector<Done> done_;
  bool quit_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace lore::serve
