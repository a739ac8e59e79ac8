// Whole-process timings of the proposal verbs: fork/exec of the real `lore`
// binary, many runs, medians. Prints one line per case.
//
//   proposals_bench [runs]       (default 101; the review cases run runs/5)
//
// Each case runs on $TMPDIR (the disk) and, when it exists, on /dev/shm
// (tmpfs), because `lore propose` makes its line durable with fdatasync and
// the disk's sync cost dominates there. Besides wall time it reports the CPU
// time (user + system, from wait4) of the child: on a machine shared with
// other work the wall time is inflated by waiting for a core, the CPU time
// much less so.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lore/json/dump_js.h"
#include "lore/proposals/batches.h"
#include "lore/proposals/collect.h"
#include "lore/proposals/record.h"
#include "lore/sys/uuid.h"

namespace {

namespace stdfs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Sample {
  double wall_ms = 0;
  double cpu_ms = 0;
};

struct Stats {
  double median_ms, p10_ms, p90_ms, cpu_median_ms;
};

Stats Summarise(const std::vector<Sample>& samples) {
  std::vector<double> v, c;
  for (const auto& s : samples) {
    v.push_back(s.wall_ms);
    c.push_back(s.cpu_ms);
  }
  std::sort(v.begin(), v.end());
  std::sort(c.begin(), c.end());
  auto at = [](const std::vector<double>& x, double q) {
    return x[static_cast<size_t>(q * static_cast<double>(x.size() - 1))];
  };
  return {at(v, 0.5), at(v, 0.1), at(v, 0.9), at(c, 0.5)};
}

// Runs lore with `args` (stdin from `input`); its wall and CPU time in ms.
Sample Time(const std::vector<std::string>& args, const std::string& home,
            const std::string& input = "") {
  int in[2];
  if (::pipe(in) != 0) std::abort();
  const auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::close(in[1]);
    int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::setenv("LORE_HOME", home.c_str(), 1);
    std::vector<char*> argv{const_cast<char*>(LORE_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    _exit(127);
  }
  ::close(in[0]);
  if (!input.empty()) (void)!::write(in[1], input.data(), input.size());
  ::close(in[1]);
  int status = 0;
  struct rusage ru;
  ::wait4(pid, &status, 0, &ru);
  Sample sample;
  sample.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  sample.cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1)) {
    std::fprintf(stderr, "lore %s exited with %d\n", args[0].c_str(), status);
  }
  return sample;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string QueueOf(int lines) {
  std::string out;
  for (int i = 0; i < lines; ++i) {
    lore::proposals::Fields f{"P" + std::to_string(i / 5),
                              "convention",
                              "a subject of moderate length " + std::to_string(i),
                              std::string(160, 'i'),
                              std::string(120, 'e'),
                              0.8,
                              std::nullopt,
                              {"src/a.cc"}};
    out += lore::json::DumpJs(lore::proposals::MakeRecord(f, lore::sys::NewUuidV4(),
                                                          std::chrono::system_clock::now())) +
           "\n";
  }
  return out;
}

void Report(const char* what, const std::string& fs, const Stats& s, int runs) {
  std::printf("%-40s %-6s median %7.3f ms  p10 %7.3f  p90 %7.3f  cpu %6.3f ms  (%d runs)\n", what,
              fs.c_str(), s.median_ms, s.p10_ms, s.p90_ms, s.cpu_median_ms, runs);
  std::fflush(stdout);
}

void ProposeCase(const std::string& base, const std::string& fs, int queue_lines, int runs) {
  const std::string home = base + "/propose-" + std::to_string(queue_lines);
  const std::string repo = "bench.example/propose";
  Time({"ensure", repo}, home);
  const std::string queue = home + "/bench.example_propose/proposals.jsonl";
  const std::string fill = QueueOf(queue_lines);
  std::vector<Sample> ms;
  for (int i = 0; i < runs; ++i) {
    WriteFile(queue, fill);  // the same queue for every run (untimed)
    ms.push_back(Time({"propose", repo, "--type", "convention", "--subject", "bench subject",
                       "--insight", "bench insight", "--evidence", "bench evidence", "--confidence",
                       "0.8", "--wave", "B" + std::to_string(i)},
                      home));
  }
  std::string what = "propose, queue of " + std::to_string(queue_lines) + " lines";
  Report(what.c_str(), fs, Summarise(ms), runs);
}

void ReviewCase(const std::string& base, const std::string& fs, int runs) {
  const std::string home = base + "/review";
  const std::string repo = "bench.example/review";
  Time({"ensure", repo}, home);
  const std::string dir = home + "/bench.example_review";
  const std::string fill = QueueOf(1000);
  std::vector<Sample> ms;
  for (int i = 0; i < runs; ++i) {
    WriteFile(dir + "/proposals.jsonl", fill);
    for (const char* f :
         {"learnings.jsonl", "proposals.rejected.jsonl", "proposals-archive.jsonl"}) {
      stdfs::remove(dir + "/" + f);
    }
    ms.push_back(Time({"review", repo, "--session", "bench", "--approve-all", "--json"}, home));
  }
  Report("review --approve-all, 1,000 proposals", fs, Summarise(ms), runs);
}

// The review rendered by an agent: --batches --json on 1,000 pending
// proposals, and --answers picking two of every four (the queue and the
// output files restored before every run, untimed).
void AgentReviewCase(const std::string& base, const std::string& fs, int runs) {
  namespace lp = lore::proposals;
  const std::string home = base + "/agent-review";
  const std::string repo = "bench.example/agent";
  Time({"ensure", repo}, home);
  const std::string dir = home + "/bench.example_agent";
  const std::string fill = QueueOf(1000);
  lp::ReviewSet set;
  set.scan = lp::ScanQueue(fill);
  set.pending = lp::FifoOrder(set.scan);
  lore::Json answers = lore::Json::object();
  answers["queue"] = lp::QueueFingerprint(set, set.pending);
  answers["batches"] = lore::Json::array();
  for (const auto& b : lp::AgentBatches(set, set.pending)) {
    lore::Json picked = lore::Json::array();
    for (size_t k = 0; k < b.options.size() && k < 2; ++k) picked.push_back(b.options[k].label);
    answers["batches"].push_back({{"batch", b.batch}, {"picked", picked}});
  }
  const std::string answers_path = base + "/answers.json";
  WriteFile(answers_path, lore::json::DumpJs(answers));
  std::vector<Sample> batches, apply;
  for (int i = 0; i < runs; ++i) {
    WriteFile(dir + "/proposals.jsonl", fill);
    for (const char* f :
         {"learnings.jsonl", "proposals.rejected.jsonl", "proposals-archive.jsonl"}) {
      stdfs::remove(dir + "/" + f);
    }
    batches.push_back(Time({"review", repo, "--batches", "--json"}, home));
    apply.push_back(
        Time({"review", repo, "--session", "bench", "--answers", answers_path, "--json"}, home));
  }
  // The answers must have been applied, not refused (exit 1 is not reported by Time).
  std::ifstream learned(dir + "/learnings.jsonl");
  const auto lines =
      std::count(std::istreambuf_iterator<char>(learned), std::istreambuf_iterator<char>(), '\n');
  if (lines != 500) std::fprintf(stderr, "review --answers wrote %ld learnings, not 500\n", lines);
  Report("review --batches --json, 1,000 proposals", fs, Summarise(batches), runs);
  Report("review --answers, 1,000 proposals", fs, Summarise(apply), runs);
}

void HookCase(const std::string& base, const std::string& fs, int runs) {
  const std::string home = base + "/hook";
  stdfs::create_directories(base + "/hook-repo");
  const std::string propose =
      R"({"session_id":"s","cwd":")" + base +
      R"(/hook-repo","tool_name":"Bash","tool_input":{"command":"lore propose . --subject \"x y\" --insight=z --wave W1"}})";
  const std::string other = R"({"session_id":"s","cwd":")" + base +
                            R"(/hook-repo","tool_name":"Bash","tool_input":{"command":"ls -la"}})";
  std::vector<Sample> hit, miss;
  for (int i = 0; i < runs; ++i) {
    hit.push_back(Time({"hook", "pre-tool-use"}, home, propose));
    miss.push_back(Time({"hook", "pre-tool-use"}, home, other));
  }
  Report("hook pre-tool-use, a propose call", fs, Summarise(hit), runs);
  Report("hook pre-tool-use, another command", fs, Summarise(miss), runs);
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 101;
  std::vector<std::pair<std::string, std::string>> places;
  const char* tmp = std::getenv("TMPDIR");
  places.emplace_back(tmp && *tmp ? tmp : "/tmp", "disk");
  if (stdfs::is_directory("/dev/shm")) places.emplace_back("/dev/shm", "tmpfs");
  std::vector<Sample> start;
  for (int i = 0; i < runs; ++i) start.push_back(Time({"--version"}, "/nonexistent"));
  Report("lore --version (process start-up)", "-", Summarise(start), runs);
  for (const auto& [root, fs] : places) {
    std::string base = root + "/lore-bench-XXXXXX";
    if (::mkdtemp(base.data()) == nullptr) continue;
    ProposeCase(base, fs, 0, runs);
    ProposeCase(base, fs, 10000, runs);
    ReviewCase(base, fs, std::max(5, runs / 5));
    AgentReviewCase(base, fs, std::max(5, runs / 5));
    HookCase(base, fs, runs);
    stdfs::remove_all(base);
  }
  return 0;
}
