// Times the agents' interfaces as whole processes (issue 7's benchmark):
//   - `lore distill` on a store of 100,000 raw records (target: under 1 s),
//     both rewriting the bundle and finding it unchanged;
//   - each hook command (session-start, pre-compact, session-end,
//     pre-tool-use) with a realistic payload;
//   - an MCP memory_search round trip against a running `lore mcp`.
//
//   agents_bench [--records N] [--runs N] [--hook-runs N] [--mcp-calls N]
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Measure;
using lore::bench::PrintRow;
using lore::bench::RunOnce;
using lore::bench::Timing;

constexpr const char* kRemote = "git@github.com:acme/widgets.git";
constexpr const char* kKey = "github.com_acme_widgets";

// raw.jsonl with `n` records of a realistic size (~230 bytes): two reviews
// for every slicing outcome, 2,000 distinct findings, 50 traits.
void FillRaw(const std::string& path, long n) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (long i = 0; i < n; ++i) {
    std::string day = std::to_string(10 + i % 20);
    if (i % 3 == 0) {
      out << R"({"ticket_id":"WID-)" << i << R"(","verbs":["add","migrate"],"traits":["trait-)"
          << i % 50 << R"("],"depth":)" << i % 4 << R"(,"verdict":")" << (i % 2 ? "split" : "keep")
          << R"(","reason":"the migration and the UI change ship separately )" << i % 100
          << R"(","kind":"slicing","recorded_at":"2026-11-)" << day << R"(T12:00:00Z"})" << '\n';
    } else {
      out << R"({"ticket":"WID-)" << i
          << R"(","reviewer":"ann","finding":"the cache key ignores input )" << i % 2000
          << R"(","severity":")" << (i % 5 ? "minor" : "major") << R"(","files":["src/cache)"
          << i % 40
          << R"(.cc"],"lesson":"key on every input","kind":"review","recorded_at":"2026-11-)" << day
          << R"(T12:00:00Z"})" << '\n';
    }
  }
}

void WriteFile(const std::string& path, const std::string& text) {
  stdfs::create_directories(stdfs::path(path).parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A running `lore mcp` with pipes to talk to it.
class McpChild {
 public:
  McpChild(const std::string& lore, const std::string& repo) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) std::abort();
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      int devnull = ::open("/dev/null", O_WRONLY);
      ::dup2(devnull, 2);
      ::close(in[1]);
      ::close(out[0]);
      ::execl(lore.c_str(), lore.c_str(), "mcp", "--repo", repo.c_str(), nullptr);
      _exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~McpChild() {
    ::close(to_);
    ::close(from_);
    ::waitpid(pid_, nullptr, 0);
  }
  // Sends one line and waits for one reply line; returns the reply.
  std::string Call(const std::string& line) {
    std::string msg = line + "\n";
    if (::write(to_, msg.data(), msg.size()) != static_cast<ssize_t>(msg.size())) return {};
    for (;;) {
      size_t nl = buf_.find('\n');
      if (nl != std::string::npos) {
        std::string reply = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return reply;
      }
      char chunk[65536];
      ssize_t n = ::read(from_, chunk, sizeof chunk);
      if (n <= 0) return {};
      buf_.append(chunk, static_cast<size_t>(n));
    }
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buf_;
};

// `tool` is memory_search or search (the one search of every scope).
Timing McpSearch(const std::string& lore, const std::string& repo, int calls,
                 const std::string& tool) {
  McpChild mcp(lore, repo);
  mcp.Call(
      R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})");
  const std::string queries[] = {"cache key locale", "sqlite ranking", "schema migration",
                                 "retry backoff"};
  // The first search brings the index up to date (a one-off cost, reported apart).
  auto t0 = std::chrono::steady_clock::now();
  mcp.Call(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":")" + tool +
           R"(","arguments":{"query":"warm up"}}})");
  double first =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::printf("%-44s %7.1f ms (indexing the store once)\n", ("mcp: first " + tool).c_str(), first);
  std::vector<double> times;
  Timing t;
  for (int i = 0; i < calls; ++i) {
    std::string req = R"({"jsonrpc":"2.0","id":)" + std::to_string(i + 2) +
                      R"(,"method":"tools/call","params":{"name":")" + tool +
                      R"(","arguments":{"query":")" + queries[i % 4] + R"("}}})";
    auto start = std::chrono::steady_clock::now();
    std::string reply = mcp.Call(req);
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    if (reply.find("\"isError\":false") == std::string::npos) ++t.failures;
  }
  std::sort(times.begin(), times.end());
  t.median_ms = times[times.size() / 2];
  t.p90_ms = times[times.size() * 9 / 10];
  t.min_ms = times.front();
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  long records = 100000;
  int runs = 7, hook_runs = 301, mcp_calls = 301;
  for (int i = 1; i + 1 < argc; ++i) {
    std::string a = argv[i];
    if (a == "--records") records = std::atol(argv[++i]);
    if (a == "--runs") runs = std::atoi(argv[++i]);
    if (a == "--hook-runs") hook_runs = std::atoi(argv[++i]);
    if (a == "--mcp-calls") mcp_calls = std::atoi(argv[++i]);
  }
  const std::string lore = LORE_BINARY;
  const std::string base = (stdfs::temp_directory_path() / "lore-agents-bench").string();
  stdfs::remove_all(base);
  const std::string repo = base + "/widgets", home = base + "/stores", store = home + "/" + kKey;
  WriteFile(repo + "/.git/config", std::string("[remote \"origin\"]\n\turl = ") + kRemote + "\n");
  ::setenv("LORE_HOME", home.c_str(), 1);
  ::unsetenv("LORE_WAVE");
  if (RunOnce({lore, "ensure", repo}) < 0) {
    std::fprintf(stderr, "lore ensure failed\n");
    return 1;
  }
  FillRaw(store + "/raw.jsonl", records);
  WriteFile(store + "/memory/summary.md",
            "---\nupdated_at: 2026-11-01T00:00:00Z\n---\n# Summary\n\n"
            "The widgets service caches rendered pages.\n");
  for (int i = 0; i < 300; ++i) {
    WriteFile(store + "/memory/decisions/decision-" + std::to_string(i) + ".md",
              "---\ncreated_at: 2026-11-01T00:00:00Z\nupdated_at: 2026-11-02T00:00:00Z\nsources: "
              "[]\nstatus: open\n---\n"
              "# Decision " +
                  std::to_string(i) +
                  "\n\nUse SQLite FTS5 for ranking, cache keys on every input.\n");
  }
  WriteFile(store + "/proposals.jsonl", "");
  std::printf(
      "lore agents benchmark: %ld raw records, whole process (fork+exec+wait); 2-core machine\n",
      records);
  RunOnce({lore, "distill", repo});  // warm the page cache and the validation memory

  // distill: rewriting (a page removed before each run) and unchanged.
  std::vector<double> write_ms, cpu_ms;
  for (int i = 0; i < runs; ++i) {
    stdfs::remove(store + "/okf/gotchas.md");
    struct rusage before, after;
    ::getrusage(RUSAGE_CHILDREN, &before);
    write_ms.push_back(std::abs(RunOnce({lore, "distill", repo})));
    ::getrusage(RUSAGE_CHILDREN, &after);
    auto ms = [](const timeval& t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; };
    cpu_ms.push_back(ms(after.ru_utime) - ms(before.ru_utime) + ms(after.ru_stime) -
                     ms(before.ru_stime));
  }
  std::sort(cpu_ms.begin(), cpu_ms.end());
  std::printf("%-44s median %7.1f ms of CPU (user + system, both threads)\n",
              "distill (rewrites okf/)", cpu_ms[cpu_ms.size() / 2]);
  std::sort(write_ms.begin(), write_ms.end());
  Timing w;
  w.median_ms = write_ms[write_ms.size() / 2];
  w.p90_ms = write_ms[write_ms.size() * 9 / 10];
  w.min_ms = write_ms.front();
  PrintRow("distill (rewrites okf/)", w);
  PrintRow("distill (unchanged)", Measure({lore, "distill", repo}, runs));

  // hooks, with their payloads on stdin.
  // A transcript that exists and holds nothing new (an empty file): the hooks
  // that extract find nothing to do, as between two turns of a session.
  const std::string transcript = base + "/transcript.jsonl";
  WriteFile(transcript, "");
  auto payload = [&](const std::string& name, const std::string& event, const std::string& extra) {
    std::string path = base + "/" + name + ".json";
    WriteFile(path, R"({"session_id":"s1","transcript_path":")" + transcript + R"(","cwd":")" +
                        repo + R"(","hook_event_name":")" + event + "\"" + extra + "}");
    return path;
  };
  std::string start = payload("start", "SessionStart", R"(,"source":"startup")");
  std::string compact = payload("compact", "SessionStart", R"(,"source":"compact")");
  std::string pre = payload("pre", "PreCompact", R"(,"trigger":"auto","custom_instructions":"")");
  // pre-compact with nothing staged returns at once; with something staged it
  // starts a consolidation, measured once apart below.
  std::string end = payload("end", "SessionEnd", R"(,"reason":"exit")");
  std::string tool =
      payload("tool", "PreToolUse", R"(,"tool_name":"Bash","tool_input":{"command":"ls -la src"})");
  PrintRow("hook session-start (startup)",
           Measure({lore, "hook", "session-start"}, hook_runs, start));
  PrintRow("hook session-start (compact)",
           Measure({lore, "hook", "session-start"}, hook_runs, compact));
  PrintRow("hook pre-compact", Measure({lore, "hook", "pre-compact"}, hook_runs, pre));
  PrintRow("hook session-end", Measure({lore, "hook", "session-end"}, hook_runs, end));
  PrintRow("hook pre-tool-use (not a propose call)",
           Measure({lore, "hook", "pre-tool-use"}, hook_runs, tool));
  PrintRow("lore --version (process floor)", Measure({lore, "--version"}, hook_runs));

  PrintRow("mcp: memory_search round trip", McpSearch(lore, repo, mcp_calls, "memory_search"));
  PrintRow("mcp: search round trip (scope all)", McpSearch(lore, repo, mcp_calls, "search"));
  stdfs::remove_all(base);
  return 0;
}
