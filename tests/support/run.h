// Running the real `lore` binary from black-box tests.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lore::testing {

struct RunResult {
  int exit_code = -1;  // 128+N when killed by signal N
  std::string out;
  std::string err;
};

struct RunOptions {
  std::string input;                                      // sent on stdin
  std::map<std::string, std::optional<std::string>> env;  // set (value) or unset (nullopt)
  std::string cwd;                                        // empty: inherit
  int as_uid = -1;                                        // >= 0: drop to this uid/gid first
};

// Runs `argv[0]` (a path) with arguments, capturing stdout and stderr.
RunResult Run(const std::vector<std::string>& argv, const RunOptions& opts = {});

// Runs the lore binary under test with `args`.
RunResult Lore(const std::vector<std::string>& args, const RunOptions& opts = {});

// The options most black-box tests run lore with: HOME at `dir`/home,
// LORE_HOME at `dir`/`lore_home`, XDG_CONFIG_HOME unset, `input` on stdin.
RunOptions IsolatedOptions(const std::string& dir, const std::string& lore_home,
                           std::string input = {});

// The path of the lore binary under test: the shipped one, which ignores
// LORE_TEST_HOOK.
std::string LoreBinary();

// The test build of lore (`lore-test`: the same CLI with the hook that obeys
// LORE_TEST_HOOK, include/lore/testing/point.h), and running it.
std::string LoreTestBinary();
RunResult LoreTest(const std::vector<std::string>& args, const RunOptions& opts = {});

}  // namespace lore::testing
