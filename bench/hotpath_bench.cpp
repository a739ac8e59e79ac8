// Side by side: the hot-path verbs of two lore binaries, interleaved run by
// run so that both see the same machine (load, caches, CPU frequency).
//
//   hotpath_bench --before OLD_LORE [--after NEW_LORE] [--runs N]
//
// Each binary gets its own store (LORE_HOME); each case runs OLD, NEW, OLD,
// NEW, ... and prints both medians and NEW/OLD. Cases: append-review,
// propose (a fresh wave per run, so the quota never bites), the PreToolUse
// audit hook, the SessionStart hook, and --version (the process floor).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Spawn;

constexpr const char* kRemote = "https://example.com/bench/hotpath";

struct Side {
  std::string lore;
  std::string home;
  std::vector<double> times;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// Runs `args(i)` for both sides in turn, `runs` times each.
template <class Args>
bool Case(const char* name, Side* a, Side* b, int runs, const std::string& stdin_path, Args args) {
  for (Side* s : {a, b}) s->times.clear();
  for (int i = 0; i < runs; ++i) {
    for (Side* s : (i % 2 ? std::vector<Side*>{b, a} : std::vector<Side*>{a, b})) {
      ::setenv("LORE_HOME", s->home.c_str(), 1);
      std::vector<std::string> argv = {s->lore};
      for (auto& x : args(i)) argv.push_back(x);
      auto r = Spawn(argv, stdin_path);
      if (!r.ok) {
        std::fprintf(stderr, "%s failed with %s\n", name, s->lore.c_str());
        return false;
      }
      s->times.push_back(r.wall_ms);
    }
  }
  double ma = Median(a->times), mb = Median(b->times);
  std::printf("%-26s before %7.3f ms   after %7.3f ms   after/before %.3f\n", name, ma, mb,
              mb / ma);
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string before, after = LORE_BINARY;
  int runs = 301;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--before") before = argv[i + 1];
    if (a == "--after") after = argv[i + 1];
    if (a == "--runs") runs = std::atoi(argv[i + 1]);
  }
  if (before.empty()) {
    std::fprintf(stderr, "usage: hotpath_bench --before OLD_LORE [--after NEW_LORE] [--runs N]\n");
    return 2;
  }
  std::string base = (stdfs::temp_directory_path() / "lore-hotpath-bench").string();
  stdfs::remove_all(base);
  stdfs::create_directories(base);
  Side a{before, base + "/before", {}}, b{after, base + "/after", {}};
  const std::string record = base + "/record.json";
  std::ofstream(record)
      << R"({"ticket":"WID-12","reviewer":"ann","finding":"cache key ignores the locale","severity":"major","files":["src/cache.cc"]})";
  const std::string pre_tool = base + "/pre_tool.json";
  std::ofstream(pre_tool)
      << R"({"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls -la"}})";
  const std::string start = base + "/start.json";
  std::ofstream(start) << R"({"session_id":"s1","hook_event_name":"SessionStart","cwd":")" << base
                       << R"(","source":"startup"})";

  std::printf("hot path, %d interleaved runs each, whole process\n  before: %s\n  after:  %s\n",
              runs, before.c_str(), after.c_str());
  bool ok = true;
  for (Side* s : {&a, &b}) {
    ::setenv("LORE_HOME", s->home.c_str(), 1);
    ok = ok && Spawn({s->lore, "ensure", kRemote}).ok;
  }
  ok = ok && Case("--version", &a, &b, runs, "",
                  [](int) { return std::vector<std::string>{"--version"}; });
  ok = ok && Case("append-review", &a, &b, runs, record, [](int) {
         return std::vector<std::string>{"append-review", kRemote};
       });
  ok = ok && Case("propose", &a, &b, runs, "", [](int i) {
         return std::vector<std::string>{"propose",      kRemote,
                                         "--type",       "convention",
                                         "--subject",    "subject " + std::to_string(i),
                                         "--insight",    "an insight",
                                         "--evidence",   "evidence",
                                         "--confidence", "0.8",
                                         "--wave",       "w" + std::to_string(i)};
       });
  ok = ok && Case("hook pre-tool-use", &a, &b, runs, pre_tool, [](int) {
         return std::vector<std::string>{"hook", "pre-tool-use"};
       });
  ok = ok && Case("hook session-start", &a, &b, runs, start, [](int) {
         return std::vector<std::string>{"hook", "session-start"};
       });
  stdfs::remove_all(base);
  return ok ? 0 : 1;
}
