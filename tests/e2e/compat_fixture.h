// The reference contract of seed 003's reviewer-memory script, run against lore
// in each of its modes: as `lore`, as a link named `reviewer-memory`, and with
// LORE_COMPAT=reviewer-memory (issue 16).
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include <filesystem>
#include <string>
#include <vector>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {

enum class Mode { kLore, kByName, kByEnv };

inline std::string ModeName(const ::testing::TestParamInfo<Mode>& info) {
  switch (info.param) {
    case Mode::kLore:
      return "Lore";
    case Mode::kByName:
      return "ReviewerMemoryByName";
    case Mode::kByEnv:
      return "ReviewerMemoryByEnv";
  }
  return "?";
}

class ContractTest : public ::testing::TestWithParam<Mode> {
 protected:
  static constexpr const char* kRemote = "git@github.com:acme/widgets.git";
  static constexpr const char* kKey = "github.com_acme_widgets";

  void SetUp() override {
    // The link lives outside the tree the tests watch.
    link_ = bin_ / "reviewer-memory";
    std::filesystem::create_symlink(LoreBinary(), link_);
    ::chmod(bin_.path().c_str(), 0755);  // reachable when a test drops to another uid
  }

  bool reviewer_memory() const { return GetParam() != Mode::kLore; }
  std::string prefix() const { return reviewer_memory() ? "reviewer-memory: " : "lore: "; }
  // The stores' root each mode uses by default, with HOME at t_/home.
  std::string root() const {
    return t_ / (reviewer_memory() ? "home/.config/reviewer-memory" : "home/.config/lore");
  }
  std::string store() const { return root() + "/" + kKey; }
  std::string raw() const { return store() + "/raw.jsonl"; }
  std::string index() const { return store() + "/okf/index.md"; }

  RunOptions Opts(std::string input = {}) const {
    RunOptions o;
    o.input = std::move(input);
    o.env["HOME"] = t_ / "home";
    for (const char* unset : {"LORE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "LORE_COMPAT"}) {
      o.env[unset] = std::nullopt;
    }
    if (GetParam() == Mode::kByEnv) o.env["LORE_COMPAT"] = "reviewer-memory";
    return o;
  }
  RunResult Call(const std::vector<std::string>& args, const RunOptions& o) const {
    std::vector<std::string> argv{GetParam() == Mode::kByName ? link_ : LoreBinary()};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::Run(argv, o);
  }
  RunResult Call(const std::string& verb, std::string input = {}) const {
    return Call({verb, kRemote}, Opts(std::move(input)));
  }

  std::string Read(const std::string& abs) const {
    return t_.Read(std::filesystem::relative(abs, t_.path()).string());
  }
  void Write(const std::string& abs, const std::string& text) const {
    t_.Write(std::filesystem::relative(abs, t_.path()).string(), text);
  }

  // The seed's failure shape: exit 1, one line with the mode's prefix naming
  // `where`, a repair after "; ", nothing on stdout.
  void ExpectRefusal(const RunResult& r, const std::string& where) const {
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind(prefix(), 0), 0u) << r.err;
    EXPECT_NE(r.err.find(where), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; "), std::string::npos) << "no repair in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  // In reviewer-memory mode, the message starts as the reference's does.
  void ExpectWords(const RunResult& r, const std::string& start) const {
    if (reviewer_memory()) {
      EXPECT_EQ(r.err.rfind("reviewer-memory: " + start, 0), 0u) << r.err;
    }
  }

  // Every file under t_ (relative paths, sorted).
  std::vector<std::string> Files() const {
    std::vector<std::string> out;
    for (auto& e : std::filesystem::recursive_directory_iterator(t_.path())) {
      if (!e.is_directory() || e.is_symlink()) {
        out.push_back(std::filesystem::relative(e.path(), t_.path()).string());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  TempDir t_, bin_;
  std::string link_;
};

}  // namespace lore::testing
