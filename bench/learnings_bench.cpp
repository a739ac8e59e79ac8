// Whole-process timings of `lore learnings` on a store holding 100,000
// learnings (10% of them expired): the listing as JSON and as a table, a
// contradiction and a prune (which removes the 10,000 expired ones; the file
// is put back before each run, untimed). Prints one line per case.
//
//   learnings_bench [runs] [entries]     (defaults 11 and 100000)
//
// The store lives in a temporary LORE_HOME under $TMPDIR; the contradiction
// and the prune each rewrite the whole file with fsync, so the disk counts.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lore/json/dump_js.h"
#include "lore/proposals/learning.h"
#include "lore/proposals/record.h"
#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Measure;
using lore::bench::PrintRow;
using lore::bench::Timing;

constexpr const char* kRepo = "git@github.com:bench/learnings.git";
constexpr const char* kKey = "github.com_bench_learnings";

const char* const kTypes[] = {"anti-pattern",     "convention",      "fragile-file",
                              "workflow-pattern", "recurring-issue", "design-pattern"};

// `n` learnings as review writes them; every tenth one expired long ago.
std::string Learnings(int n, std::string* middle_id) {
  std::string out;
  const auto base = std::chrono::system_clock::now() - std::chrono::hours(24 * 10);
  const auto old = std::chrono::system_clock::time_point(std::chrono::seconds(1577836800));
  for (int i = 0; i < n; ++i) {
    lore::proposals::Fields f;
    f.wave_id = "W" + std::to_string(i % 97);
    f.type = kTypes[i % 6];
    f.subject = "subject number " + std::to_string(i) + " about module " + std::to_string(i % 113);
    f.insight = "When touching module " + std::to_string(i % 113) +
                ", run the integration suite first; the unit tests miss the cache layer.";
    f.evidence = "Seen in session " + std::to_string(i) + ": three failures after a refactor.";
    f.confidence = 0.6 + 0.01 * (i % 30);
    f.file_paths = {"src/module" + std::to_string(i % 113) + ".cpp"};
    char id[40];
    std::snprintf(id, sizeof id, "%08x-0000-4000-8000-%012d", i, i);
    auto rec = lore::proposals::MakeRecord(f, id, i % 10 == 9 ? old : base);
    out += lore::json::DumpJs(
               lore::proposals::ToLearning(rec, "bench-session", i % 10 == 9 ? old : base)) +
           "\n";
    if (i == n / 2) *middle_id = id;
  }
  return out;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 11;
  const int entries = argc > 2 ? std::atoi(argv[2]) : 100000;
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/lore-learnings-bench-XXXXXX";
  const std::string home = ::mkdtemp(tmpl.data());
  ::setenv("LORE_HOME", home.c_str(), 1);
  const std::string lore = LORE_BINARY;
  if (!lore::bench::Spawn({lore, "ensure", kRepo}).ok) {
    std::fprintf(stderr, "lore ensure failed\n");
    return 1;
  }
  const std::string file = home + "/" + kKey + "/learnings.jsonl";
  std::string middle;
  const std::string bytes = Learnings(entries, &middle);
  WriteFile(file, bytes);
  std::printf("learnings_bench: %d learnings (%zu bytes, 10%% expired), %d runs each\n", entries,
              bytes.size(), runs);

  const std::string n = std::to_string(entries);
  PrintRow("learnings --json (" + n + ")", Measure({lore, "learnings", kRepo, "--json"}, runs));
  PrintRow("learnings table (" + n + ")", Measure({lore, "learnings", kRepo}, runs));
  PrintRow("learnings --all --json (" + n + ")",
           Measure({lore, "learnings", kRepo, "--all", "--json"}, runs));
  PrintRow("learnings contradict (" + n + ")",
           Measure({lore, "learnings", "contradict", kRepo, middle}, runs));

  std::vector<double> times;
  Timing t;
  for (int i = 0; i < runs; ++i) {
    WriteFile(file, bytes);
    stdfs::remove(home + "/" + kKey + "/learnings-archive.jsonl");
    double ms = lore::bench::RunOnce({lore, "learnings", "prune", kRepo});
    if (ms < 0) ++t.failures, ms = -ms;
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  t.median_ms = times[times.size() / 2];
  t.p90_ms = times[times.size() * 9 / 10];
  t.min_ms = times.front();
  PrintRow("learnings prune (" + n + ", " + std::to_string(entries / 10) + " removed)", t);

  std::error_code ec;
  stdfs::remove_all(home, ec);
  return 0;
}
