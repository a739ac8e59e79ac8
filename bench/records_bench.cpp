// Whole-process timings of the record verbs on a store of 1,000 decisions
// and 100 knowledge pages: `lore memory read`, `write`, `edit`, `replace`,
// and `lore lint` over the whole store; plus in-process parse/render and
// lint times per record. Prints medians (docs/records.md has the figures).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lore/doc/record.h"
#include "lore/lint/lint.h"
#include "lore/lint/scan.h"
#include "timing.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace stdfs = std::filesystem;

constexpr int kDecisions = 1000;
constexpr int kKnowledge = 100;
constexpr const char* kRepo = "bench.example/records";

// Realistic slugs: three words, e.g. "cache-index-writes"; a few land near
// each other, as in a real store.
std::string Slug(int i) {
  static const char* kWords[] = {
      "use",    "sqlite", "cache",  "index",  "writes", "reads",  "lock",   "retry",
      "hook",   "agent",  "memory", "store",  "fast",   "path",   "json",   "yaml",
      "search", "rank",   "token",  "review", "slice",  "ticket", "deploy", "build",
      "test",   "ci",     "docs",   "format", "schema", "queue",  "wave",   "quota",
      "prompt", "model",  "budget", "limit",  "error",  "repair", "backup", "merge"};
  constexpr int kN = sizeof kWords / sizeof kWords[0];
  int k = (i * 7919) % (kN * kN * kN);
  return std::string(kWords[k % kN]) + "-" + kWords[(k / kN) % kN] + "-" + kWords[k / kN / kN];
}

std::string Decision(int i) {
  return "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
         "sources:\n  - session_id: s" +
         std::to_string(i) +
         "\n    range: [1, 40]\n"
         "  - session_id: t" +
         std::to_string(i) +
         "\n    range: [2, 9]\n---\n"
         "# Decision " +
         std::to_string(i) + "\n\nWe chose option " + std::to_string(i % 7) +
         " because it keeps the hot path fast and the files readable.\n";
}

std::string Knowledge(int i) {
  return "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nkind: rule\n"
         "description: Rule number " +
         std::to_string(i) +
         "\nmodel_invokation: false\n"
         "user_invocable: true\nlast_sources: []\n---\nAlways do thing " +
         std::to_string(i) + ".\n";
}

void WriteFile(const stdfs::path& p, const std::string& text) {
  stdfs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

// Runs `lore args...` with stdin from `input` (a file, or /dev/null); returns ms.
double RunOnce(const std::vector<std::string>& args, const std::string& input) {
  std::vector<std::string> argv{LORE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  lore::bench::Spawned r = lore::bench::Spawn(argv, input);
  if (!r.ok) {
    std::fprintf(stderr, "lore %s failed\n", args[0].c_str());
    std::exit(1);
  }
  return r.wall_ms;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
void Report(const char* name, int runs, F f) {
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) t.push_back(f(i));
  std::printf("%-44s median %8.3f ms  (min %.3f, %d runs)\n", name, Median(t),
              *std::min_element(t.begin(), t.end()), runs);
}

}  // namespace

int main() {
  char tmpl[] = "/tmp/lore-bench-XXXXXX";
  std::string home = mkdtemp(tmpl);
  setenv("LORE_HOME", home.c_str(), 1);
  unsetenv("XDG_CONFIG_HOME");
  RunOnce({"ensure", kRepo}, "");
  stdfs::path store = stdfs::path(home) / "bench.example_records";
  for (int i = 0; i < kDecisions; ++i) {
    WriteFile(store / "memory/decisions" / (Slug(i) + ".md"), Decision(i));
  }
  for (int i = 0; i < kKnowledge; ++i) {
    WriteFile(store / "knowledge" / ("rule-" + std::to_string(i) + ".md"), Knowledge(i));
  }
  std::string input = home + "/input.md";
  WriteFile(input, Decision(99999));
  std::printf("store: %d decisions, %d knowledge pages; lore = %s\n", kDecisions, kKnowledge,
              LORE_BINARY);

  Report("lore --version (process floor)", 101, [](int) { return RunOnce({"--version"}, ""); });
  Report("lore memory read decision", 101, [](int) {
    return RunOnce({"memory", "read", kRepo, "decision", Slug(500)}, "");
  });
  Report("lore memory write decision (stdin)", 101, [&](int i) {
    return RunOnce({"memory", "write", kRepo, "decision", "new-" + std::to_string(i)}, input);
  });
  Report("lore memory edit decision --set --append", 101, [](int i) {
    return RunOnce({"memory", "edit", kRepo, "decision", Slug(i), "--set", "status=resolved",
                    "--append", "More."},
                   "");
  });
  Report("lore memory replace decision --by", 101, [](int i) {
    return RunOnce({"memory", "replace", kRepo, "decision", Slug(200 + i), "--by", Slug(900 - i)},
                   "");
  });
  Report("lore lint (1,201 records)", 21, [](int) { return RunOnce({"lint", kRepo}, ""); });

  // In-process: parse + render of one record, and linting it against the store.
  std::string text = Decision(7);
  auto loaded = lore::lint::LoadStore(store.string());
  Report("ParseRecord + RenderRecord (x1000)", 11, [&](int) {
    auto s = Clock::now();
    for (int i = 0; i < 1000; ++i) {
      auto r = lore::doc::ParseRecord(lore::doc::Kind::kDecision, text, "x.md");
      if (!r || lore::doc::RenderRecord(*r).size() != text.size()) std::abort();
    }
    return std::chrono::duration<double, std::milli>(Clock::now() - s).count();
  });
  Report("LintText vs 1,201-record view (x1000)", 11, [&](int) {
    auto s = Clock::now();
    lore::lint::Target t{lore::doc::Kind::kDecision, Slug(7) + "x", "x.md",
                         lore::lint::Op::kCreate};
    for (int i = 0; i < 1000; ++i) lore::lint::LintText(t, text, loaded->view);
    return std::chrono::duration<double, std::milli>(Clock::now() - s).count();
  });
  stdfs::remove_all(home);
  return 0;
}
