// `lore lint` as a whole process on generated stores of N records with
// realistic names and cross-references: decisions (a tenth of them replaced,
// in chains), requests, knowledge pages and workflows that require knowledge
// pages, plus the summary. Slugs are two to four words of a developer's
// vocabulary ("retry-flaky-ci-jobs"), inflections included, so that some land
// within edit distance 2 of each other as in a real store; a few references
// name records that do not exist, so that lint has findings to print.
// Prints, per size, the median wall time and the peak resident set of the
// child (getrusage, ru_maxrss) over the runs (docs/records.md has the
// figures).
//
//   lint_bench [--keep] [--numbered] [runs] [records...]   (defaults 3, and 10000 100000)
//
// --keep leaves each store in place (its LORE_HOME is printed) instead of
// removing it. --numbered names the records "decision-00017", "request-00017"
// ...: every slug is within edit distance 2 of hundreds of others (at 100,000
// records, 42 million pairs), the worst case of the near-slug search.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "timing.h"

namespace {

namespace stdfs = std::filesystem;

constexpr const char* kRepo = "bench.example/lint";
constexpr const char* kKey = "bench.example_lint";

// A fixed-seed generator (splitmix64): the same store on every run.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
};

const char* const kVerbs[] = {"use",   "add",    "fix",      "drop",   "keep",    "retry",
                              "cache", "split",  "merge",    "move",   "pin",     "prefer",
                              "avoid", "limit",  "log",      "check",  "lock",    "index",
                              "batch", "stream", "validate", "rename", "replace", "document"};
const char* const kNouns[] = {
    "sqlite",  "index",     "indexes",    "writes",   "reads",   "cache",    "caches",  "lock",
    "locks",   "retry",     "retries",    "hook",     "hooks",   "agent",    "agents",  "memory",
    "store",   "stores",    "path",       "paths",    "json",    "yaml",     "search",  "rank",
    "ranking", "token",     "tokens",     "review",   "reviews", "slice",    "slices",  "ticket",
    "tickets", "deploy",    "build",      "builds",   "test",    "tests",    "ci",      "docs",
    "format",  "schema",    "schemas",    "queue",    "queues",  "wave",     "quota",   "prompt",
    "prompts", "model",     "budget",     "limit",    "limits",  "error",    "errors",  "repair",
    "backup",  "backups",   "session",    "sessions", "cursor",  "cursors",  "journal", "commit",
    "commits", "branch",    "release",    "releases", "config",  "settings", "timeout", "timeouts",
    "worker",  "workers",   "thread",     "threads",  "socket",  "sockets",  "server",  "client",
    "clients", "request",   "requests",   "response", "header",  "headers",  "payload", "parser",
    "parsers", "migration", "migrations", "table",    "tables",  "column",   "columns", "query",
    "queries", "flaky",     "slow",       "fast",     "large",   "small",    "old",     "new",
    "for",     "in",        "on",         "with",     "without", "before",   "after",   "the"};

template <size_t N>
const char* Pick(Rng& r, const char* const (&words)[N]) {
  return words[r.Below(N)];
}

// `n` distinct slugs of two to four words.
std::vector<std::string> Slugs(Rng& r, size_t n, std::set<std::string>* taken) {
  std::vector<std::string> out;
  while (out.size() < n) {
    std::string s = Pick(r, kVerbs);
    const size_t words = 1 + r.Below(3);
    for (size_t i = 0; i < words; ++i) s += std::string("-") + Pick(r, kNouns);
    if (taken->insert(s).second) out.push_back(std::move(s));
  }
  return out;
}

std::string Sentence(Rng& r, size_t words) {
  std::string s = "The";
  for (size_t i = 0; i < words; ++i) s += std::string(" ") + Pick(r, kNouns);
  return s + ".";
}

std::string Body(Rng& r, const std::string& title) {
  std::string body = "# " + title + "\n\n";
  const size_t paragraphs = 1 + r.Below(4);
  for (size_t p = 0; p < paragraphs; ++p) {
    for (size_t i = 0; i < 3 + r.Below(5); ++i) body += Sentence(r, 6 + r.Below(10)) + " ";
    body += "\n\n";
  }
  return body;
}

std::string Sources(Rng& r, const char* key) {
  std::string out = std::string(key) + ":\n";
  const size_t n = 1 + r.Below(3);
  for (size_t i = 0; i < n; ++i) {
    const size_t from = 1 + r.Below(400);
    out += "  - session_id: s" + std::to_string(r.Below(5000)) + "\n    range: [" +
           std::to_string(from) + ", " + std::to_string(from + r.Below(60)) + "]\n";
  }
  return out;
}

constexpr const char* kTimes =
    "created_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-02-03T04:05:06Z\n";

void WriteFile(const stdfs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Writes a store of about `n` records under `home`; returns its folder.
// `n` slugs "<prefix>-<number>", five digits at least.
std::vector<std::string> Numbered(const char* prefix, size_t n, std::set<std::string>* taken) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s-%05zu", prefix, i);
    out.push_back(buf);
    taken->insert(buf);
  }
  return out;
}

stdfs::path MakeStore(const std::string& home, size_t n, bool numbered) {
  setenv("LORE_HOME", home.c_str(), 1);
  if (!lore::bench::Spawn({LORE_BINARY, "ensure", kRepo}).ok) {
    std::fprintf(stderr, "lore ensure failed\n");
    std::exit(1);
  }
  const stdfs::path store = stdfs::path(home) / kKey;
  for (const char* dir : {"memory/decisions", "memory/requests", "memory/workflow", "knowledge"}) {
    stdfs::create_directories(store / dir);
  }
  Rng r{n};
  std::set<std::string> taken;
  const size_t n_knowledge = n / 5, n_requests = n / 5, n_workflows = n / 20;
  const size_t n_decisions = n - 1 - n_knowledge - n_requests - n_workflows;
  const auto decisions =
      numbered ? Numbered("decision", n_decisions, &taken) : Slugs(r, n_decisions, &taken);
  const auto requests =
      numbered ? Numbered("request", n_requests, &taken) : Slugs(r, n_requests, &taken);
  const auto knowledge =
      numbered ? Numbered("page", n_knowledge, &taken) : Slugs(r, n_knowledge, &taken);
  const auto workflows =
      numbered ? Numbered("workflow", n_workflows, &taken) : Slugs(r, n_workflows, &taken);

  WriteFile(store / "memory/summary.md",
            "---\nupdated_at: 2026-02-03T04:05:06Z\n---\n" + Body(r, "Summary"));
  for (size_t i = 0; i < decisions.size(); ++i) {
    std::string status = "status: open\n";
    if (i % 10 == 3 && i + 1 < decisions.size()) {
      // Replaced by the next decision: chains of replaced records; one in a
      // hundred names a decision that does not exist.
      const std::string by = i % 1000 == 3 ? decisions[i] + "-gone" : decisions[i + 1];
      status = "status: replaced\nreplaced_by: " + by + "\n";
    } else if (i % 10 == 7) {
      status = "status: resolved\n";
    }
    WriteFile(store / "memory/decisions" / (decisions[i] + ".md"),
              "---\n" + std::string(kTimes) + status + Sources(r, "sources") + "---\n" +
                  Body(r, decisions[i]));
  }
  for (const auto& s : requests) {
    WriteFile(store / "memory/requests" / (s + ".md"),
              "---\n" + std::string(kTimes) + "status: open\n" + Sources(r, "sources") + "---\n" +
                  Body(r, s));
  }
  for (const auto& s : knowledge) {
    WriteFile(store / "knowledge" / (s + ".md"),
              "---\n" + std::string(kTimes) + "kind: rule\ndescription: " + Sentence(r, 8) +
                  "\nmodel_invokation: false\nuser_invocable: true\n" + Sources(r, "last_sources") +
                  "---\n" + Body(r, s));
  }
  for (size_t i = 0; i < workflows.size(); ++i) {
    std::string req;
    const size_t k = 1 + r.Below(3);
    for (size_t j = 0; j < k; ++j) {
      req += (j ? ", " : "") + (i % 50 == 1 && j == 0 ? std::string("missing-page")
                                                      : knowledge[r.Below(knowledge.size())]);
    }
    WriteFile(store / "memory/workflow" / (workflows[i] + ".md"),
              "---\nupdated_at: 2026-02-03T04:05:06Z\ndescription: " + Sentence(r, 6) +
                  "\nrequires: [" + req + "]\n---\n" + Body(r, workflows[i]));
  }
  return store;
}

}  // namespace

int main(int argc, char** argv) {
  bool keep = false, numbered = false;
  int runs = 3;
  std::vector<size_t> sizes;
  for (int i = 1, positional = 0; i < argc; ++i) {
    if (std::string(argv[i]) == "--keep") {
      keep = true;
    } else if (std::string(argv[i]) == "--numbered") {
      numbered = true;
    } else if (positional++ == 0) {
      runs = std::atoi(argv[i]);
    } else {
      sizes.push_back(static_cast<size_t>(std::atol(argv[i])));
    }
  }
  if (sizes.empty()) sizes = {10000, 100000};
  if (runs < 1) runs = 1;
  std::printf("lore = %s\n", LORE_BINARY);
  for (size_t n : sizes) {
    char tmpl[] = "/tmp/lore-lint-bench-XXXXXX";
    const std::string home = mkdtemp(tmpl);
    MakeStore(home, n, numbered);
    std::vector<double> wall;
    long rss = 0;
    int exit_code = -1;
    for (int i = 0; i < runs; ++i) {
      const lore::bench::Spawned s = lore::bench::Spawn({LORE_BINARY, "lint", kRepo});
      if (s.exit_code != 0 && s.exit_code != 1) {  // 1: the store has errors, as it should
        std::fprintf(stderr, "lore lint failed (exit %d)\n", s.exit_code);
        return 1;
      }
      exit_code = s.exit_code;
      wall.push_back(s.wall_ms);
      rss = std::max(rss, s.maxrss_kib);
    }
    std::sort(wall.begin(), wall.end());
    std::printf(
        "lore lint, %zu %srecords: median %.0f ms (min %.0f, %d runs), peak RSS %.1f MiB, "
        "exit %d\n",
        n, numbered ? "numbered " : "", wall[wall.size() / 2], wall.front(), runs, rss / 1024.0,
        exit_code);
    std::fflush(stdout);
    if (keep) {
      std::printf("kept: LORE_HOME=%s lore lint %s\n", home.c_str(), kRepo);
    } else {
      stdfs::remove_all(home);
    }
  }
  return 0;
}
