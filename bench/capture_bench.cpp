// Times the capture verbs as whole processes on stores holding 0, 100,000 and
// 1,000,000 raw lines (issues 2 and 16), side by side:
//   lore             this build, as lore
//   reviewer-memory  this build with LORE_COMPAT=reviewer-memory
//   before           another build given with --before (e.g. main's), as lore
// Runs are interleaved (one of each configuration in turn) so that a busy
// machine slows every column alike. Also reports the first call after a
// foreign write (a full check of the log) with the child's peak RSS: it must
// not grow with the log.
//
//   capture_bench [--runs N] [--sizes 0,100000,1000000] [--before /path/to/lore]
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Spawn;

constexpr const char* kRemote = "https://example.com/bench/capture";

struct Config {
  std::string label, binary;
  bool reviewer_memory = false;
  std::string home;  // LORE_HOME for this configuration and size
};

void Use(const Config& c) {
  ::setenv("LORE_HOME", c.home.c_str(), 1);
  if (c.reviewer_memory) {
    ::setenv("LORE_COMPAT", "reviewer-memory", 1);
  } else {
    ::unsetenv("LORE_COMPAT");
  }
}

std::string RawPath(const std::string& home) {
  return home + "/example.com_bench_capture/raw.jsonl";
}

// Fills raw.jsonl with `lines` review records of a realistic size (~230 bytes).
void Fill(const std::string& home, long lines) {
  std::ofstream out(RawPath(home), std::ios::binary | std::ios::trunc);
  std::string pad(120, 'x');
  for (long i = 0; i < lines; ++i) {
    out << "{\"ticket\":\"T-" << i << "\",\"finding\":\"the cache key ignores the locale " << pad
        << "\",\"severity\":\"minor\",\"kind\":\"review\",\"recorded_at\":\"2026-11-30T12:00:00Z\"}"
           "\n";
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
double P90(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() * 9 / 10];
}

// One verb, `runs` times per configuration, interleaved.
void Row(const std::string& verb, std::vector<Config>& configs, int runs,
         const std::string& input) {
  std::vector<std::vector<double>> times(configs.size());
  int failures = 0;
  for (int i = 0; i < runs; ++i) {
    for (size_t c = 0; c < configs.size(); ++c) {
      Use(configs[c]);
      auto r = Spawn({configs[c].binary, verb, kRemote}, input);
      failures += !r.ok;
      times[c].push_back(r.wall_ms);
    }
  }
  std::printf("  %-16s", verb.c_str());
  for (auto& t : times) std::printf(" %7.3f (p90 %7.3f)", Median(t), P90(t));
  std::printf("%s\n", failures ? "   (FAILURES!)" : "");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 301;
  std::vector<long> sizes{0, 100000, 1000000};
  std::string before;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    if (a == "--before" && i + 1 < argc) before = argv[++i];
    if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      std::stringstream ss(argv[++i]);
      for (std::string s; std::getline(ss, s, ',');) sizes.push_back(std::atol(s.c_str()));
    }
  }
  const std::string lore = LORE_BINARY;
  std::string base = (stdfs::temp_directory_path() / "lore-capture-bench").string();
  stdfs::remove_all(base);
  stdfs::create_directories(base);
  std::string input = base + "/record.json";
  std::ofstream(input)
      << R"({"ticket":"WID-12","reviewer":"ann","finding":"cache key ignores the locale","severity":"major","files":["src/cache.cc"]})";

  std::vector<Config> configs;
  if (!before.empty()) configs.push_back({"before", before, false, ""});
  configs.push_back({"lore", lore, false, ""});
  configs.push_back({"reviewer-memory", lore, true, ""});
  std::printf(
      "lore capture benchmark: %d runs each, whole process (fork+exec+wait), medians in ms\n",
      runs);
  std::printf("  %-16s", "");
  for (const auto& c : configs) std::printf(" %-21s", c.label.c_str());
  std::printf("\n");
  for (long size : sizes) {
    for (auto& c : configs) {
      c.home = base + "/" + c.label + "-" + std::to_string(size);
      Use(c);
      if (!Spawn({c.binary, "ensure", kRemote}).ok) {
        std::fprintf(stderr, "ensure failed: %s\n", c.label.c_str());
        return 1;
      }
      Fill(c.home, size);
    }
    std::printf("\nstore with %ld raw lines (%.1f MiB)\n", size,
                stdfs::file_size(RawPath(configs.front().home)) / 1048576.0);
    // The first call after another program wrote the log checks all of it.
    std::printf("  %-16s", "full check");
    for (auto& c : configs) {
      Use(c);
      auto r = Spawn({c.binary, "ensure", kRemote});
      std::printf(" %7.1f ms %6.1f MiB", r.wall_ms, r.maxrss_kib / 1024.0);
    }
    std::printf("   (ensure after a foreign write: wall, peak RSS)\n");
    Row("append-review", configs, runs, input);
    Row("append-slicing", configs, runs, input);
    Row("ensure", configs, runs, "/dev/null");
    Row("pointer", configs, runs, "/dev/null");
    for (auto& c : configs) stdfs::remove_all(c.home);
  }
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) t.push_back(Spawn({"/bin/true"}).wall_ms);
  std::printf("\nbaseline: /bin/true median %.3f ms\n", Median(t));
  stdfs::remove_all(base);
  return 0;
}
