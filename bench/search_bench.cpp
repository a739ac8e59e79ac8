// Whole-process latency of `lore search` (docs/search.md).
//
//   search_bench [--runs N] [--big N] [--lore PATH] [--expand LIST]
//
// --lore times another build's binary (say main's) with the same stores and
// queries, for a comparison on the same machine and load. --expand passes
// `--expand LIST` to every search (the expansion stages to time).
// Builds two synthetic stores in a temporary LORE_HOME: 1,000 records
// (100 decisions, 100 knowledge pages, 800 raw.jsonl lines) and 100,000
// records (1,000 decisions, 1,000 knowledge pages, 98,000 raw.jsonl lines).
// Raw lines are dialog-like records with a speaker, a session of 20 lines, a
// position and a time; text is drawn from a 20,000-word Zipf vocabulary.
// Prints, for each store, the time to index it from scratch (`lore
// reindex`), the median and 90th percentile of `lore search` as a whole
// process (fork/exec, index already up to date, a different query each run),
// and then, after 1,000 files of the large store changed, the time of the
// one search that brings the index up to date.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kVocabulary = 20000;
const char* kNames[] = {"Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana"};

std::string Word(int i) {
  static const char* c = "bcdfghjklmnprstvwz";
  static const char* v = "aeiou";
  std::string w;
  int x = i + 7;
  do {
    w += c[x % 18];
    x /= 18;
    w += v[x % 5];
    x /= 5;
  } while (x > 0);
  return w;
}

class Text {
 public:
  explicit Text(uint32_t seed) : rng_(seed) {
    double total = 0;
    for (int r = 1; r <= kVocabulary; ++r) cum_.push_back(total += 1.0 / r);
  }
  int Rank() {
    double u = std::uniform_real_distribution<double>(0, cum_.back())(rng_);
    return static_cast<int>(std::lower_bound(cum_.begin(), cum_.end(), u) - cum_.begin());
  }
  std::string Sentence(int words) {
    std::string s;
    for (int i = 0; i < words; ++i) s += (i ? " " : "") + Word(Rank());
    return s;
  }
  std::mt19937& rng() { return rng_; }

 private:
  std::mt19937 rng_;
  std::vector<double> cum_;
};

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string Markdown(Text& t, const std::string& front, int lines) {
  std::string s = "---\n" + front + "---\n# " + t.Sentence(4) + "\n\n";
  for (int i = 0; i < lines; ++i) s += t.Sentence(12) + "\n";
  return s;
}

void MakeStore(const std::string& dir, int files_each, int raw_lines, Text& t) {
  stdfs::create_directories(dir + "/memory/decisions");
  stdfs::create_directories(dir + "/knowledge");
  stdfs::create_directories(dir + "/okf");
  WriteFile(dir + "/okf/index.md", "---\ntitle: bench\nupdated: 2026-01-01\ntags: []\n---\n");
  for (int i = 0; i < files_each; ++i) {
    WriteFile(dir + "/memory/decisions/d" + std::to_string(i) + ".md",
              Markdown(t,
                       "created_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-02T00:00:00Z\n"
                       "sources: []\nstatus: open\n",
                       6));
    WriteFile(
        dir + "/knowledge/k" + std::to_string(i) + ".md",
        Markdown(t, "kind: howto\ndescription: " + t.Sentence(8) + "\nmodel_invokation: false\n",
                 6));
  }
  std::ofstream raw(dir + "/raw.jsonl", std::ios::binary);
  for (int i = 0; i < raw_lines; ++i) {
    char date[32];
    std::snprintf(date, sizeof date, "2025-%02d-%02dT10:00:00Z", 1 + (i / 20) % 12,
                  1 + (i / 20) % 28);
    raw << "{\"kind\":\"turn\",\"session_id\":\"s" << i / 20 << "\",\"position\":" << i % 20
        << ",\"speaker\":\"" << kNames[i % 8] << "\",\"recorded_at\":\"" << date << "\",\"text\":\""
        << t.Sentence(18) << "\"}\n";
  }
}

// CPU time (user + system) of the last RunLore child, in milliseconds.
double g_last_cpu_ms = 0;
std::string g_lore = LORE_BINARY;

// Runs lore with `args`, output to /dev/null; returns wall milliseconds.
double RunLore(const std::vector<std::string>& args) {
  std::vector<std::string> argv{g_lore};
  argv.insert(argv.end(), args.begin(), args.end());
  lore::bench::Spawned r = lore::bench::Spawn(argv);
  if (!r.ok) {
    std::fprintf(stderr, "search_bench: lore failed\n");
    std::exit(1);
  }
  g_last_cpu_ms = r.cpu_ms;
  return r.wall_ms;
}

std::string Query(Text& t, int i) {
  std::string q;
  if (i % 4 == 0) q = "when did ";
  if (i % 3 == 0) q += std::string(kNames[i % 8]) + " ";
  // Words of middling frequency, the kind a person searches for.
  for (int k = 0; k < 3; ++k) q += Word(50 + static_cast<int>(t.rng()() % 2000)) + " ";
  // And in half of them an English word or two, which query expansion looks up.
  static const char* kEnglish[] = {"relax",    "car trip",      "de-stress", "puppy",
                                   "painting", "music concert", "self-care", "job interview"};
  if (i % 2 == 0) q += kEnglish[(i / 2) % 8];
  return q;
}

struct Stat {
  double median, p90, cpu_median;
};

Stat Measure(const std::vector<std::string>& base, int runs, Text* t) {
  std::vector<double> ms, cpu;
  for (int i = 0; i < runs; ++i) {
    std::vector<std::string> args = base;
    if (t) args.push_back(Query(*t, i));
    ms.push_back(RunLore(args));
    cpu.push_back(g_last_cpu_ms);
  }
  std::sort(ms.begin(), ms.end());
  std::sort(cpu.begin(), cpu.end());
  return {ms[ms.size() / 2], ms[ms.size() * 9 / 10], cpu[cpu.size() / 2]};
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 200, big = 100000;
  std::string expand;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--runs") runs = std::atoi(argv[i + 1]);
    if (a == "--big") big = std::atoi(argv[i + 1]);
    if (a == "--lore") g_lore = argv[i + 1];
    if (a == "--expand") expand = argv[i + 1];
  }
  // Every search asks for these expansion stages (`lore search --expand`).
  auto search = [&](const char* repo) {
    std::vector<std::string> args{"search", repo};
    if (!expand.empty()) args.insert(args.end(), {"--expand", expand});
    return args;
  };
  std::string tmpl = (stdfs::temp_directory_path() / "search-bench-XXXXXX").string();
  std::string home = ::mkdtemp(tmpl.data());
  ::setenv("LORE_HOME", home.c_str(), 1);
  Text t(42);
  struct Size {
    const char* repo;
    int records, files_each;
  } sizes[] = {{"bench-small", 1000, 100}, {"bench-large", big, big / 100}};
  std::printf("lore search, whole process (%d runs each; machine: %u cores): %s%s%s\n", runs,
              std::thread::hardware_concurrency(), g_lore.c_str(),
              expand.empty() ? "" : " --expand ", expand.c_str());
  Stat floor = Measure({"--version"}, runs, nullptr);
  std::printf("process floor (lore --version): median %.2f ms wall, %.2f ms CPU\n", floor.median,
              floor.cpu_median);
  for (const auto& s : sizes) {
    std::string dir = home + "/" + s.repo;
    MakeStore(dir, s.files_each, s.records - 2 * s.files_each, t);
    double build = RunLore({"reindex", s.repo});
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // past the racy window
    auto warm = search(s.repo);
    warm.push_back("warm");
    RunLore(warm);
    Stat st = Measure(search(s.repo), runs, &t);
    std::printf(
        "%7d records (%d files + %d raw lines): reindex %.0f ms; search median %.2f ms "
        "(p90 %.2f), CPU median %.2f ms\n",
        s.records, 2 * s.files_each + 1, s.records - 2 * s.files_each, build, st.median, st.p90,
        st.cpu_median);
  }
  // 1,000 files of the large store change; the next search catches up.
  std::string dir = home + "/bench-large";
  for (int i = 0; i < 1000; ++i) {
    std::string kind = i % 2 ? "knowledge/k" : "memory/decisions/d";
    std::string path = dir + "/" + kind + std::to_string(i / 2) + ".md";
    if (!stdfs::exists(path)) continue;
    std::ofstream(path, std::ios::app) << "changed " << Word(i) << "\n";
  }
  auto first = search("bench-large");
  first.push_back(Query(t, 1));
  double catch_up = RunLore(first);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto warm = search("bench-large");
  warm.push_back("warm");
  RunLore(warm);
  Stat after = Measure(search("bench-large"), runs / 4, &t);
  std::printf(
      "after 1000 files changed: the first search (bringing the index up to date) %.0f ms; "
      "then median %.2f ms (CPU %.2f ms)\n",
      catch_up, after.median, after.cpu_median);
  if (std::getenv("SEARCH_BENCH_KEEP") == nullptr)
    stdfs::remove_all(home);
  else
    std::printf("kept %s\n", home.c_str());
  return 0;
}
