// The stdio transport: newline-delimited messages with a size limit.
#include <unistd.h>

#include <cerrno>

#include "lore/fs/fd.h"
#include "lore/mcp/server.h"

namespace lore::mcp {
namespace {

constexpr size_t kTailBytes = 256;  // kept of an over-long line, to find its id

class LineReader {
 public:
  explicit LineReader(Server& server, int out_fd) : server_(server), out_(out_fd) {}

  Status Feed(std::string_view data) {
    while (!data.empty()) {
      size_t nl = data.find('\n');
      std::string_view part = data.substr(0, nl);
      Take(part);
      if (nl == std::string_view::npos) break;
      LORE_TRY(EndLine());
      data.remove_prefix(nl + 1);
    }
    return Ok();
  }

  Status Finish() { return line_.empty() && !overflow_ ? Ok() : EndLine(); }

 private:
  void Take(std::string_view part) {
    size_ += part.size();
    if (!overflow_ && line_.size() + part.size() <= kMaxMessageBytes) {
      line_.append(part);
      return;
    }
    if (!overflow_) {
      overflow_ = true;
      line_.clear();
    }
    line_.append(part);
    if (line_.size() > kTailBytes) line_.erase(0, line_.size() - kTailBytes);
  }

  Status EndLine() {
    std::string reply;
    if (overflow_) {
      reply = server_.TooLarge(line_, size_);
    } else {
      std::string_view l = line_;
      if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
      if (l.find_first_not_of(" \t") != std::string_view::npos) reply = server_.HandleLine(l);
    }
    line_.clear();
    size_ = 0;
    overflow_ = false;
    if (reply.empty()) return Ok();
    reply += '\n';
    return fs::WriteAll(out_, reply, "<stdout>");
  }

  Server& server_;
  int out_;
  std::string line_;
  size_t size_ = 0;
  bool overflow_ = false;
};

}  // namespace

Status Serve(Server& server, int in_fd, int out_fd) {
  LineReader reader(server, out_fd);
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(in_fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(fs::ErrnoError(errno, "cannot read", "<stdin>"));
    }
    if (n == 0) break;
    LORE_TRY(reader.Feed(std::string_view(buf, static_cast<size_t>(n))));
  }
  return reader.Finish();
}

}  // namespace lore::mcp
