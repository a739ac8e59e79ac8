// Times lore-team against a throwaway PostgreSQL 15 cluster (durable: fsync
// on), whole processes:
//   - the initial sync of a store holding 100,000 raw lines (target < 10 s);
//   - an incremental sync of 10 new lines (target < 50 ms + one round trip;
//     an empty sync, which is connecting plus the round trips of asking, is
//     printed beside it);
//   - a pull of 10,000 lines by a machine that has none of them.
//
//   team_bench [--lines 100000] [--runs 9]
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "support/pg_cluster.h"
#include "timing.h"

namespace {

namespace stdfs = std::filesystem;
using lore::bench::Measure;
using lore::bench::PrintRow;
using lore::bench::RunOnce;

std::string Team() {
#ifdef LORE_TEAM_BINARY
  return LORE_TEAM_BINARY;
#else
  return "lore-team";
#endif
}

// A store for `repo` on machine `machine` (its own LORE_HOME under `root`).
std::string Machine(const std::string& root, const std::string& machine, const std::string& repo,
                    const std::string& url) {
  std::string home = root + "/" + machine;
  ::setenv("LORE_HOME", home.c_str(), 1);
  if (RunOnce({LORE_BINARY, "ensure", repo}) < 0) {
    std::fprintf(stderr, "team_bench: lore ensure failed\n");
    std::exit(1);
  }
  for (auto& e : stdfs::directory_iterator(home)) {
    std::ofstream(e.path() / "config.toml")
        << "[team]\nurl = \"" << url << "\"\nmachine_id = \"" << machine << "\"\n";
    return e.path().string();
  }
  return "";
}

void AppendRaw(const std::string& store, int n, int from) {
  std::ofstream out(store + "/raw.jsonl", std::ios::app | std::ios::binary);
  for (int i = from; i < from + n; ++i) {
    out << R"({"kind":"review","ticket":"B-)" << i
        << R"(","finding":"the cache key ignores the locale of request )" << i
        << R"(","severity":"minor","recorded_at":"2026-11-30T10:00:00Z"})"
        << "\n";
  }
}

void Use(const std::string& root, const std::string& machine) {
  std::string home = root + "/" + machine;
  ::setenv("LORE_HOME", home.c_str(), 1);
}

}  // namespace

int main(int argc, char** argv) {
  int lines = 100000, runs = 9;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--lines")) lines = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  std::string why;
  auto* pg = lore::testing::PgCluster::Shared(&why, /*durable=*/true);
  if (pg == nullptr) {
    std::fprintf(stderr, "team_bench: %s\n", why.c_str());
    return 1;
  }
  char tmpl[] = "/tmp/lore-team-bench-XXXXXX";
  std::string root = ::mkdtemp(tmpl);
  ::unsetenv("XDG_CONFIG_HOME");
  ::unsetenv("PGPASSFILE");
  const std::string db = pg->CreateDatabase();
  const std::string url = pg->Url(db);
  const std::string repo = "https://example.com/bench/team";
  const std::string store = Machine(root, "a", repo, url);
  AppendRaw(store, lines, 0);
  if (RunOnce({Team(), "init", repo}) < 0) {
    std::fprintf(stderr, "team_bench: lore-team init failed\n");
    return 1;
  }
  double initial = RunOnce({Team(), "sync", repo});
  std::printf("initial sync, %d raw lines%*s %10.1f ms%s\n", lines, 16, "", std::abs(initial),
              initial < 0 ? "   (FAILED!)" : "");
  std::fflush(stdout);

  PrintRow("empty sync (connect + round trips)", Measure({Team(), "sync", repo}, runs));
  lore::bench::Timing inc;
  {
    std::vector<double> times;
    for (int r = 0; r < runs; ++r) {
      AppendRaw(store, 10, lines + r * 10);
      double ms = RunOnce({Team(), "sync", repo});
      if (ms < 0) ++inc.failures;
      times.push_back(std::abs(ms));
    }
    std::sort(times.begin(), times.end());
    inc.median_ms = times[times.size() / 2];
    inc.p90_ms = times[times.size() * 9 / 10];
    inc.min_ms = times.front();
  }
  PrintRow("incremental sync, 10 new raw lines", inc);

  // A second repository: machine b pushes 10,000 lines, fresh machines pull them.
  const std::string repo2 = "https://example.com/bench/team-pull";
  const std::string b = Machine(root, "b", repo2, url);
  AppendRaw(b, 10000, 0);
  RunOnce({Team(), "sync", repo2});
  std::vector<double> pulls;
  lore::bench::Timing pull;
  for (int r = 0; r < std::max(3, runs / 3); ++r) {
    std::string name = "c" + std::to_string(r);
    Machine(root, name, repo2, url);
    Use(root, name);
    double ms = RunOnce({Team(), "pull", repo2});
    if (ms < 0) ++pull.failures;
    pulls.push_back(std::abs(ms));
  }
  std::sort(pulls.begin(), pulls.end());
  pull.median_ms = pulls[pulls.size() / 2];
  pull.p90_ms = pulls[pulls.size() * 9 / 10];
  pull.min_ms = pulls.front();
  PrintRow("pull of 10,000 lines (fresh machine)", pull);

  lore::testing::PgCluster::StopShared();
  std::error_code ec;
  stdfs::remove_all(root, ec);
  return initial < 0 || inc.failures || pull.failures ? 1 : 0;
}
