#include "lore/llm/claude_code.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>

#include "consolidate/candidates.h"
#include "consolidate/prompt.h"
#include "consolidate/tools.h"
#include "llm/backends.h"
#include "lore/fs/fd.h"
#include "lore/fs/tree.h"
#include "lore/json/reader.h"
#include "lore/mcp/server.h"
#include "lore/version.h"
#include "proc/process.h"

namespace lore::llm {
namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kMaxLineBytes = size_t{16} << 20;  // one stream-json line
constexpr size_t kStderrTail = 2000;
constexpr const char* kServerName = "lore_run";

Usage UsageOf(const Json& u) {
  Usage r;
  r.input = TokenCount(u, "input_tokens") + TokenCount(u, "cache_creation_input_tokens") +
            TokenCount(u, "cache_read_input_tokens");
  r.output = TokenCount(u, "output_tokens");
  return r;
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s.size() > 300 ? s.substr(0, 300) + "…" : s;
}

// A private folder for one run (0700), removed with what is in it.
class RunDir {
 public:
  static Result<RunDir> Make() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/lore-run-XXXXXX";
    if (::mkdtemp(templ.data()) == nullptr) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot make a private folder", templ));
    }
    RunDir d;
    d.path_ = templ;
    return d;
  }
  RunDir(RunDir&& o) noexcept : path_(std::exchange(o.path_, {})) {}
  ~RunDir() {
    if (!path_.empty()) (void)fs::RemoveTree(path_);
  }
  const std::string& path() const { return path_; }

 private:
  RunDir() = default;
  std::string path_;
};

Error ClaudeError(const ModelSettings& s, std::string what) {
  return Error{ErrorCode::kUnavailable, std::move(what), s.config_path, 0,
               "check that `" + s.claude_command +
                   " -p hello` works in a terminal (log in by running `" + s.claude_command +
                   "` once), set llm.claude_command, choose another llm.provider, or use the "
                   "rules engine (--engine rules)"};
}

std::vector<std::string> Argv(const ModelSettings& s, const ClaudeRequest& r) {
  std::vector<std::string> argv = {s.claude_command,
                                   "-p",
                                   "--output-format",
                                   "stream-json",
                                   "--verbose",
                                   "--no-session-persistence",
                                   "--tools",
                                   "",
                                   "--strict-mcp-config",
                                   "--setting-sources",
                                   "",
                                   "--disable-slash-commands",
                                   "--max-turns",
                                   std::to_string(r.max_turns),
                                   "--system-prompt",
                                   r.system};
  if (!s.model.empty()) argv.insert(argv.end(), {"--model", s.model});
  if (!r.mcp_config.empty()) argv.insert(argv.end(), {"--mcp-config", r.mcp_config});
  if (!r.allowed.empty()) {
    std::string list;
    for (const auto& t : r.allowed) list += (list.empty() ? "" : ",") + t;
    argv.insert(argv.end(), {"--allowedTools", list});
  }
  return argv;
}

// What one stream-json line says.
struct StreamState {
  std::map<std::string, Usage> by_message;  // a message's usage, repeated per block
  Usage sum() const {
    Usage u;
    for (const auto& [id, m] : by_message) u += m;
    return u;
  }
  std::optional<Json> result;
  std::string server_problem;  // the run's MCP server did not connect
};

void TakeLine(std::string_view line, bool want_server, StreamState& st) {
  json::Limits lim;
  lim.max_bytes = kMaxLineBytes;
  lim.max_depth = 128;
  auto j = json::ParseOrdered(line, lim);
  if (!j || !j->is_object() || !j->contains("type") || !(*j)["type"].is_string()) return;
  const std::string type = (*j)["type"].get<std::string>();
  if (type == "assistant" && j->contains("message") && (*j)["message"].is_object()) {
    const Json& m = (*j)["message"];
    std::string id = m.contains("id") && m["id"].is_string() ? m["id"].get<std::string>()
                                                             : std::to_string(st.by_message.size());
    if (m.contains("usage")) st.by_message[id] = UsageOf(m["usage"]);
  } else if (type == "result") {
    st.result = std::move(*j);
  } else if (type == "system" && want_server && j->contains("mcp_servers") &&
             (*j)["mcp_servers"].is_array()) {
    for (const Json& srv : (*j)["mcp_servers"]) {
      if (srv.is_object() && srv.value("name", "") == kServerName &&
          srv.value("status", "") != "connected") {
        st.server_problem = "lore's tool server did not start in claude (status " +
                            srv.value("status", std::string("unknown")) + ")";
      }
    }
  }
}

}  // namespace

Result<ClaudeOutcome> RunClaude(const ModelSettings& s, const ClaudeRequest& r,
                                const std::function<std::optional<Error>(const Usage&)>& check) {
  std::optional<RunDir> own;
  std::string cwd = r.cwd;
  if (cwd.empty()) {
    LORE_ASSIGN(RunDir d, RunDir::Make());
    own.emplace(std::move(d));
    cwd = own->path();
  }
  proc::Child::Options o;
  o.argv = Argv(s, r);
  o.cwd = cwd;
  // ENABLE_TOOL_SEARCH=false: the run's six tools are offered whole, not
  // behind Claude Code's tool search (one turn less, nothing to discover).
  o.set_env = {{kModelRunEnv, "1"},
               {"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"},
               {"ENABLE_TOOL_SEARCH", "false"}};
  auto started = proc::Child::Start(o);
  if (!started) {
    std::string why = started.error().what;  // "cannot run: <reason>"
    if (auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
    return tl::unexpected(ClaudeError(s, "cannot run " + s.claude_command + " (" + why + ")"));
  }
  proc::Child& child = *started;
  const auto deadline = Clock::now() + s.run_timeout;
  size_t written = 0;
  std::string out, err;
  bool out_open = true, err_open = true;
  StreamState st;
  std::optional<Error> stop;
  while (out_open || err_open) {
    pollfd fds[3];
    nfds_t n = 0;
    int in_i = -1, out_i = -1, err_i = -1;
    if (child.in() >= 0) fds[in_i = n++] = {child.in(), POLLOUT, 0};
    if (out_open) fds[out_i = n++] = {child.out(), POLLIN, 0};
    if (err_open) fds[err_i = n++] = {child.err(), POLLIN, 0};
    int ready = ::poll(fds, n, 100);
    if (ready < 0 && errno != EINTR) {
      stop = ClaudeError(s, std::string("cannot wait for claude: ") + std::strerror(errno));
    }
    if (in_i >= 0 && fds[in_i].revents) {
      if (fds[in_i].revents & (POLLERR | POLLHUP)) {
        child.CloseIn();
      } else {
        ssize_t w = ::write(child.in(), r.prompt.data() + written, r.prompt.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || written == r.prompt.size()) {
          child.CloseIn();
        }
      }
    }
    char buf[65536];
    if (out_i >= 0 && fds[out_i].revents) {
      ssize_t got = ::read(child.out(), buf, sizeof buf);
      if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
        out_open = false;
      } else if (got > 0) {
        out.append(buf, static_cast<size_t>(got));
        size_t nl;
        while ((nl = out.find('\n')) != std::string::npos) {
          TakeLine(std::string_view(out).substr(0, nl), !r.mcp_config.empty(), st);
          out.erase(0, nl + 1);
        }
        if (out.size() > kMaxLineBytes) {
          stop = ClaudeError(
              s, "claude wrote a line over " + std::to_string(kMaxLineBytes) + " bytes");
        }
      }
    }
    if (err_i >= 0 && fds[err_i].revents) {
      ssize_t got = ::read(child.err(), buf, sizeof buf);
      if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) {
        err_open = false;
      } else if (got > 0) {
        err.append(buf, static_cast<size_t>(got));
        if (err.size() > 2 * kStderrTail) err.erase(0, err.size() - kStderrTail);
      }
    }
    if (!stop && !st.server_problem.empty()) stop = ClaudeError(s, st.server_problem);
    if (!stop) stop = check(st.sum());
    if (!stop && Clock::now() > deadline) {
      stop = Error{
          ErrorCode::kUnavailable,
          "claude did not finish within " + std::to_string(s.run_timeout.count()) + " seconds",
          s.config_path, 0, "nothing was changed; raise llm.run_timeout_seconds in config.toml"};
    }
    if (stop) break;
  }
  if (stop) {
    child.Kill();
    child.Wait();
    return tl::unexpected(*stop);
  }
  // Both streams ended: the child is exiting.
  int status = -1;
  for (;;) {
    if (auto st_code = child.Poll()) {
      status = *st_code;
      break;
    }
    if (Clock::now() > deadline) {
      child.Kill();
      status = child.Wait();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!st.result) {
    std::string tail =
        OneLine(err.size() > kStderrTail ? err.substr(err.size() - kStderrTail) : err);
    return tl::unexpected(ClaudeError(s, "claude ended without a result (exit status " +
                                             std::to_string(status) + ")" +
                                             (tail.empty() ? "" : ": " + tail)));
  }
  const Json& res = *st.result;
  ClaudeOutcome outcome;
  outcome.usage = res.contains("usage") ? UsageOf(res["usage"]) : st.sum();
  if (outcome.usage.total() == 0) outcome.usage = st.sum();
  outcome.turns = TokenCount(res, "num_turns");
  if (res.contains("result") && res["result"].is_string())
    outcome.text = res["result"].get<std::string>();
  const std::string subtype = res.value("subtype", std::string());
  const bool is_error =
      res.contains("is_error") && res["is_error"].is_boolean() && res["is_error"].get<bool>();
  if (subtype == "error_max_turns") {
    return Fail(ErrorCode::kUnavailable,
                "the model did not finish within " + std::to_string(r.max_turns) + " turns",
                s.config_path, 0, "nothing was changed; raise llm.max_turns or try another model");
  }
  if (is_error || (subtype != "success" && !subtype.empty())) {
    return tl::unexpected(ClaudeError(
        s, "claude reported an error (" + (subtype.empty() ? std::string("error") : subtype) + ")" +
               (outcome.text.empty() ? "" : ": " + OneLine(outcome.text))));
  }
  return outcome;
}

// --- the text back end ------------------------------------------------------

Result<Reply> ClaudeCodeModel::Ask(const std::string& system, const std::vector<Turn>& turns,
                                   const std::vector<Tool>& tools) {
  if (!tools.empty()) {
    return Fail(ErrorCode::kInternal, "the claude-code back end answers in text only", "", 0,
                "report this bug");
  }
  // One process per request and no session kept: the conversation so far is
  // the prompt (the engines' retries are a refused answer and the reason).
  std::string prompt;
  if (turns.size() == 1) {
    prompt = turns[0].text;
  } else {
    for (const Turn& t : turns) {
      prompt += t.role == Turn::Role::kAssistant ? "<your_earlier_answer>\n" : "<message>\n";
      prompt += t.text;
      prompt += t.role == Turn::Role::kAssistant ? "\n</your_earlier_answer>\n" : "\n</message>\n";
    }
  }
  ++requests_;
  ClaudeRequest req{system, std::move(prompt), "", {}, 1, ""};
  const Usage before = used();
  LORE_ASSIGN(ClaudeOutcome o, RunClaude(s_, req, [&](const Usage& u) -> std::optional<Error> {
                Usage all = before;
                all += u;
                return BudgetError(s_, all);
              }));
  return Reply{std::move(o.text), {}, o.usage};
}

// --- the consolidation through claude -p ------------------------------------

namespace {

// Listens on a unix socket and serves the run's tools on each connection, in
// a thread of its own, until Stop.
class ToolServer {
 public:
  ToolServer(std::string path, std::function<void(mcp::Server&)> add_tools)
      : path_(std::move(path)), add_tools_(std::move(add_tools)) {}
  ~ToolServer() { Stop(); }

  Status Start() {
    fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot make a socket", path_));
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path_.size() >= sizeof addr.sun_path) {
      return Fail(ErrorCode::kInvalidInput, "the temporary folder's path is too long", path_, 0,
                  "set TMPDIR to a shorter folder");
    }
    std::memcpy(addr.sun_path, path_.c_str(), path_.size() + 1);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(fd_, 4) != 0) {
      return tl::unexpected(fs::ErrnoError(errno, "cannot listen on", path_));
    }
    thread_ = std::thread([this] { Loop(); });
    return Ok();
  }

  void Stop() {
    stop_ = true;
    int c = conn_.exchange(-1);
    if (c >= 0) ::shutdown(c, SHUT_RDWR);
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  void Loop() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      conn_ = c;
      mcp::Server server({kServerName, "lore consolidation", kVersion,
                          "The tools of one lore consolidation run."});
      add_tools_(server);
      (void)mcp::Serve(server, c, c);
      int mine = conn_.exchange(-1);
      if (mine >= 0)
        ::close(mine);
      else
        ::close(c);  // Stop shut it down; close it here, once
    }
  }

  std::string path_;
  std::function<void(mcp::Server&)> add_tools_;
  int fd_ = -1;
  std::atomic<int> conn_{-1};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

Result<std::vector<std::string>> ClaudeCodeEngine::Run(const consolidate::RunInput& in,
                                                       consolidate::Workspace& ws) {
  const consolidate::Settings& s = *in.settings;
  LORE_ASSIGN(ModelSettings ms, ModelSettingsFor(s, store_, "", "use --engine rules"));
  LORE_ASSIGN(auto candidates, consolidate::LoadCandidates(store_));
  LORE_ASSIGN(auto prompt, consolidate::BuildPrompt(in, ws, candidates));
  consolidate::ToolBox tools(store_.dir(), ws, in, candidates);
  LORE_ASSIGN(RunDir dir, RunDir::Make());
  const std::string socket_path = fs::Join(dir.path(), "tools.sock");

  std::mutex mu;  // the tools run on the server's thread; the rest is read after Stop
  int failures = 0;
  std::string last_refusal;
  std::atomic<bool> aborted{false};
  const std::vector<Tool> specs = ToolsFromFunctions(consolidate::ToolBox::Schemas());
  std::vector<std::string> allowed;
  for (const Tool& t : specs) allowed.push_back(std::string("mcp__") + kServerName + "__" + t.name);
  ToolServer server(socket_path, [&](mcp::Server& srv) {
    for (const Tool& t : specs) {
      srv.AddTool({t.name, t.name, t.description, t.parameters},
                  [&, name = t.name](const Json& args) -> Result<Json> {
                    std::lock_guard<std::mutex> lock(mu);
                    if (aborted) {
                      return Fail(ErrorCode::kInvalidInput,
                                  "the run was aborted after too many refused writes", "", 0,
                                  "stop: nothing of this run will be kept");
                    }
                    auto outcome =
                        tools.Call(name, args.dump(-1, ' ', false, Json::error_handler_t::replace));
                    if (outcome.rejected) {
                      last_refusal = outcome.content;
                      if (++failures >= s.max_lint_failures) aborted = true;
                      return Fail(ErrorCode::kInvalidInput, OneLine(outcome.content), "", 0,
                                  "fix the write and call the tool again");
                    }
                    auto j = json::ParseOrdered(outcome.content, json::Limits{});
                    if (j && j->is_object()) return std::move(*j);
                    return Json{{"result", j ? std::move(*j) : Json(outcome.content)}};
                  });
    }
  });
  LORE_TRY(server.Start());

  Json config = {{"mcpServers",
                  {{kServerName,
                    {{"type", "stdio"},
                     {"command", relay_},
                     {"args", Json::array({"tool-relay", socket_path})}}}}}};
  ClaudeRequest req;
  req.system = prompt.system + "\n\nYour tools are offered as mcp__" + kServerName +
               "__<name> (memory_read, memory_write, memory_edit, memory_search, "
               "knowledge_search, finish). Call finish when you are done.";
  req.prompt = prompt.user;
  req.mcp_config = config.dump();
  req.allowed = allowed;
  req.max_turns = s.llm_max_turns;
  req.cwd = dir.path();
  auto outcome = RunClaude(ms, req, [&](const Usage& u) -> std::optional<Error> {
    used_ = u;
    if (aborted) {
      std::lock_guard<std::mutex> lock(mu);
      return Error{ErrorCode::kInvalidInput,
                   "the LLM run was aborted after " + std::to_string(failures) +
                       " refused writes (last: " + OneLine(last_refusal) + ")",
                   store_.config_path(), 0,
                   "nothing was changed; the staged entries stay "
                   "(memory.consolidation.max_lint_failures sets the limit)"};
    }
    return BudgetError(ms, u);
  });
  server.Stop();
  if (!outcome) return tl::unexpected(outcome.error());
  used_ = outcome->usage;
  if (aborted) {
    return Fail(ErrorCode::kInvalidInput,
                "the LLM run was aborted after " + std::to_string(failures) +
                    " refused writes (last: " + OneLine(last_refusal) + ")",
                store_.config_path(), 0,
                "nothing was changed; the staged entries stay "
                "(memory.consolidation.max_lint_failures sets the limit)");
  }
  return tools.notes();
}

Status RelayStdio(const std::string& socket_path) {
  int sock = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0) return tl::unexpected(fs::ErrnoError(errno, "cannot make a socket", socket_path));
  fs::Fd guard(sock);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (socket_path.size() >= sizeof addr.sun_path) {
    return Fail(ErrorCode::kInvalidInput, "the socket's path is too long", socket_path, 0,
                "set TMPDIR to a shorter folder");
  }
  std::memcpy(addr.sun_path, socket_path.c_str(), socket_path.size() + 1);
  if (::connect(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    return tl::unexpected(fs::ErrnoError(errno, "cannot connect to", socket_path));
  }
  bool in_open = true;
  char buf[65536];
  auto write_all = [](int fd, const char* p, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(fd, p, n);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return false;
      p += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  };
  for (;;) {
    pollfd fds[2] = {{sock, POLLIN, 0}, {0, static_cast<short>(in_open ? POLLIN : 0), 0}};
    if (::poll(fds, in_open ? 2 : 1, -1) < 0) {
      if (errno == EINTR) continue;
      return tl::unexpected(fs::ErrnoError(errno, "cannot wait on", socket_path));
    }
    if (fds[0].revents) {
      ssize_t got = ::read(sock, buf, sizeof buf);
      if (got <= 0) return Ok();  // the run ended
      if (!write_all(1, buf, static_cast<size_t>(got))) return Ok();
    }
    if (in_open && fds[1].revents) {
      ssize_t got = ::read(0, buf, sizeof buf);
      if (got <= 0) {
        in_open = false;
        ::shutdown(sock, SHUT_WR);
      } else if (!write_all(sock, buf, static_cast<size_t>(got))) {
        return Ok();
      }
    }
  }
}

}  // namespace lore::llm
