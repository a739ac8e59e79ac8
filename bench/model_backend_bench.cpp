// The model back ends (issue 26's benchmark): one consolidation of the same
// staged session through `anthropic` (lore-llm talks to the Messages API
// itself) and through `claude-code` (lore-llm runs the real Claude Code CLI,
// which reaches lore's run tools through MCP), both against the tests'
// scripted server on loopback, with the same three-turn script (write a
// decision, finish, done). It prints each back end's median wall time of the
// whole `lore consolidate --foreground --flush`, the difference (what starting
// claude -p and its MCP server costs per consolidation), and the tokens each
// run counted, the server reporting a request's input as its bytes / 4.
//
//   model_backend_bench [--runs 5] [--lore PATH] [--claude PATH]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "support/claude_cli.h"
#include "support/fake_openai.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace {

using lore::testing::FakeOpenAi;
using Json = nlohmann::json;

constexpr const char* kRepo = "https://example.com/bench/models";
constexpr const char* kDecision =
    "---\nstatus: resolved\n---\n# Use SQLite\n\nChosen: SQLite\n\n- one file, no server\n";

struct Sample {
  double ms = 0;
  int64_t tokens = 0;
  bool ok = false;
};

Sample One(const std::string& lore, const std::string& provider, const std::string& claude) {
  lore::testing::TempDir t;
  std::map<std::string, std::optional<std::string>> env = lore::testing::ClaudeEnv("");
  env["HOME"] = t / "home";
  env["LORE_HOME"] = t / "home/.lore";
  env["XDG_CONFIG_HOME"] = std::nullopt;
  lore::testing::RunOptions o;
  o.env = env;
  if (lore::testing::Run({lore, "ensure", kRepo}, o).exit_code != 0) return {};
  o.input =
      R"({"source":{"session_id":"s1","range":[3,7]},"decisions":[{"options":["SQLite","Postgres"],"chosen":"SQLite","rationale":"one file"}]})";
  auto staged = lore::testing::Run({lore, "stage", kRepo}, o);
  o.input.clear();
  if (staged.exit_code != 0) return {};
  const std::string id = staged.out.substr(0, staged.out.find('\n'));  // `stage` prints the id
  const std::string tool = provider == "claude-code" ? "mcp__lore_run__" : "";
  FakeOpenAi server({
      FakeOpenAi::Message("",
                          {{tool + "memory_write",
                            {{"path", "memory/decisions/use-sqlite.md"},
                             {"content", kDecision},
                             {"entry_ids", {id}}}}},
                          -1, 60),
      FakeOpenAi::Message("", {{tool + "finish", {{"summary", "one decision"}}}}, -1, 20),
      FakeOpenAi::Message("Done.", {}, -1, 5),
  });
  o.env["ANTHROPIC_BASE_URL"] = server.anthropic_url();
  t.Write("home/.lore/example.com_bench_models/config.toml",
          "[memory.consolidation]\nengine = \"llm\"\n\n[llm]\nprovider = \"" + provider +
              "\"\nbase_url = \"" + server.anthropic_url() + "\"\nclaude_command = \"" + claude +
              "\"\nmax_retries = 0\n");
  auto start = std::chrono::steady_clock::now();
  auto r = lore::testing::Run({lore, "consolidate", kRepo, "--foreground", "--flush"}, o);
  Sample s;
  s.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  s.ok = r.exit_code == 0;
  if (!s.ok) std::fprintf(stderr, "%s: %s%s", provider.c_str(), r.out.c_str(), r.err.c_str());
  auto st = lore::testing::Run({lore, "status", kRepo, "--json"}, o);
  Json j = Json::parse(st.out, nullptr, false);
  if (j.is_object() && j.contains("model_usage")) s.tokens = j["model_usage"].value("tokens", 0);
  return s;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::string lore = LORE_BINARY;
  std::string claude = lore::testing::ClaudeBinary();
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--runs") runs = std::atoi(argv[i + 1]);
    if (a == "--lore") lore = argv[i + 1];
    if (a == "--claude") claude = argv[i + 1];
  }
  if (claude.empty()) {
    std::fprintf(stderr,
                 "model_backend_bench: no Claude Code CLI: npm ci in tests/claude, or --claude\n");
    return 2;
  }
  std::vector<double> api_ms, cc_ms;
  int64_t api_tokens = 0, cc_tokens = 0;
  for (int i = 0; i < runs; ++i) {  // interleaved, so that the machine's load hits both
    for (const char* provider : {"anthropic", "claude-code"}) {
      Sample s = One(lore, provider, claude);
      if (!s.ok) return 1;
      (std::string(provider) == "anthropic" ? api_ms : cc_ms).push_back(s.ms);
      (std::string(provider) == "anthropic" ? api_tokens : cc_tokens) = s.tokens;
    }
  }
  const double a = Median(api_ms), c = Median(cc_ms);
  std::printf(
      "model-backend-bench: %d runs each; anthropic median %.0f ms, claude-code median %.0f ms: "
      "claude-code's start costs %.0f ms per consolidation (%.1fx); tokens per consolidated "
      "session: anthropic %lld, claude-code %lld\n",
      runs, a, c, c - a, a > 0 ? c / a : 0.0, static_cast<long long>(api_tokens),
      static_cast<long long>(cc_tokens));
  return 0;
}
