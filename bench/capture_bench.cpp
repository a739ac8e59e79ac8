// Times `lore append-review` and `lore ensure` as whole processes on stores
// holding 0, 100,000 and 1,000,000 raw lines (issue 2's benchmark).
//
//   capture_bench [--runs N] [--sizes 0,100000,1000000]
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Measure;
using lore::bench::PrintRow;
using lore::bench::RunOnce;

constexpr const char* kRemote = "https://example.com/bench/capture";

std::string RawPath(const std::string& home) { return home + "/example.com_bench_capture/raw.jsonl"; }

// Fills raw.jsonl with `lines` review records of a realistic size (~230 bytes).
void Fill(const std::string& home, long lines) {
  std::ofstream out(RawPath(home), std::ios::binary | std::ios::trunc);
  std::string pad(120, 'x');
  for (long i = 0; i < lines; ++i) {
    out << "{\"ticket\":\"T-" << i << "\",\"finding\":\"the cache key ignores the locale " << pad
        << "\",\"severity\":\"minor\",\"kind\":\"review\",\"recorded_at\":\"2026-11-30T12:00:00Z\"}\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 301;
  std::vector<long> sizes{0, 100000, 1000000};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
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
  std::ofstream(input) << R"({"ticket":"WID-12","reviewer":"ann","finding":"cache key ignores the locale","severity":"major","files":["src/cache.cc"]})";

  std::printf("lore capture benchmark: %d runs each, whole process (fork+exec+wait)\n", runs);
  for (long size : sizes) {
    std::string home = base + "/h" + std::to_string(size);
    ::setenv("LORE_HOME", home.c_str(), 1);
    if (RunOnce({lore, "ensure", kRemote}) < 0) {
      std::fprintf(stderr, "ensure failed\n");
      return 1;
    }
    Fill(home, size);
    // The first call after another program wrote the log re-validates all of it.
    double full = RunOnce({lore, "ensure", kRemote});
    std::printf("\nstore with %ld raw lines (%.1f MiB)\n", size,
                stdfs::file_size(RawPath(home)) / 1048576.0);
    std::printf("%-44s %7.3f ms (once)\n", "  ensure after a foreign write (full check)", std::abs(full));
    PrintRow("  append-review", Measure({lore, "append-review", kRemote}, runs, input));
    PrintRow("  ensure", Measure({lore, "ensure", kRemote}, runs));
    PrintRow("  pointer", Measure({lore, "pointer", kRemote}, runs));
  }
  PrintRow("\nbaseline: /bin/true", Measure({"/bin/true"}, runs));
  stdfs::remove_all(base);
  return 0;
}
