// A store in a temporary folder for the consolidation tests: its paths, the
// environment for the binaries, and helpers to stage entries and read files.
// Header-only.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {

class ConsolidateFixture : public ::testing::Test {
 protected:
  static constexpr const char* kRepo = "https://example.com/acme/app";
  static constexpr const char* kKey = "example.com_acme_app";

  void SetUp() override { ASSERT_EQ(Lore({"ensure", kRepo}, Opts()).exit_code, 0); }

  RunOptions Opts(std::string input = {}) const {
    RunOptions o;
    o.input = std::move(input);
    o.env = Env();
    return o;
  }
  std::map<std::string, std::optional<std::string>> Env() const {
    return {{"HOME", t_ / "home"},
            {"LORE_HOME", t_ / "home/.lore"},
            {"XDG_CONFIG_HOME", std::nullopt},
            {"LORE_TEST_HOOK", std::nullopt}};
  }
  std::string Rel(const std::string& rel) const {
    return "home/.lore/" + std::string(kKey) + "/" + rel;
  }
  std::string Path(const std::string& rel) const { return t_ / Rel(rel); }
  void Write(const std::string& rel, const std::string& text) const { t_.Write(Rel(rel), text); }
  std::string Read(const std::string& rel) const { return t_.Read(Rel(rel)); }
  bool Exists(const std::string& rel) const { return std::filesystem::exists(Path(rel)); }

  // The ids of the staged entries, sorted.
  std::vector<std::string> Staged() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(Path("staging"), ec)) {
      std::string name = e.path().filename().string();
      if (name.size() == 41 && name.substr(36) == ".json") out.push_back(name.substr(0, 36));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Every file under memory/ and knowledge/ with its bytes.
  std::map<std::string, std::string> Records() const {
    std::map<std::string, std::string> out;
    for (const char* dir : {"memory", "knowledge"}) {
      std::error_code ec;
      for (auto it = std::filesystem::recursive_directory_iterator(Path(dir), ec);
           it != std::filesystem::recursive_directory_iterator(); ++it) {
        if (!it->is_regular_file()) continue;
        std::string rel = std::filesystem::relative(it->path(), Path("")).string();
        out[rel] = Read(rel);
      }
    }
    return out;
  }

  // A small valid entry for session `session`, deciding `chosen` on topic `topic`.
  static std::string Entry(const std::string& session, const std::string& topic,
                           const std::string& chosen) {
    nlohmann::ordered_json j = {{"source", {{"session_id", session}, {"range", {1, 2}}}},
                                {"decisions",
                                 {{{"options", {topic + " a", topic + " b"}},
                                   {"chosen", chosen},
                                   {"rationale", "because"}}}},
                                {"discussions", nlohmann::ordered_json::array()},
                                {"attempts", nlohmann::ordered_json::array()},
                                {"requests", nlohmann::ordered_json::array()}};
    return j.dump();
  }

  // Stages `entry` through `lore stage`; returns the id.
  std::string Stage(const std::string& entry) {
    auto r = Lore({"stage", kRepo}, Opts(entry));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::string id = r.out.substr(0, r.out.find('\n'));
    EXPECT_EQ(id.size(), 36u) << r.out;
    return id;
  }

  nlohmann::json Status() const {
    auto r = Lore({"status", kRepo, "--json"}, Opts());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out, nullptr, false);
  }

  TempDir t_;
};

}  // namespace lore::testing
