// A store and a transcript in a temporary folder for the extract tests:
// running `lore extract`, reading its JSON line and the staged entries.
// Header-only.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/consolidate_fixture.h"

namespace lore::testing {

class ExtractFixture : public ConsolidateFixture {
 protected:
  std::string Transcript() const { return t_ / "session.jsonl"; }
  static std::string FixturePath(const std::string& name) {
    return std::string(LORE_SOURCE_DIR) + "/tests/fixtures/transcripts/" + name;
  }
  static std::string Fixture(const std::string& name) {
    std::ifstream in(FixturePath(name), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  void WriteTranscript(const std::string& text) const { t_.Write("session.jsonl", text); }
  void AppendTranscript(const std::string& text) const {
    std::ofstream(Transcript(), std::ios::binary | std::ios::app) << text;
  }
  RunResult Extract(std::vector<std::string> extra = {}, bool test_build = false,
                    std::map<std::string, std::optional<std::string>> env = {}) {
    std::vector<std::string> args{"extract", kRepo, "--transcript", Transcript()};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions o = Opts();
    for (auto& [k, v] : env) o.env[k] = v;
    return test_build ? LoreTest(args, o) : Lore(args, o);
  }
  // The one JSON line of a successful run.
  static nlohmann::json Line(const RunResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    return nlohmann::json::parse(r.out, nullptr, false);
  }
  nlohmann::json Entry(const std::string& id) const {
    return nlohmann::json::parse(Read("staging/" + id + ".json"), nullptr, false);
  }
  nlohmann::json Entry(const nlohmann::json& id) const {
    return id.is_string() ? Entry(id.get<std::string>()) : nlohmann::json();
  }
  // Every staged entry's range, in id order.
  std::vector<std::pair<int64_t, int64_t>> Ranges() const {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const auto& id : Staged()) {
      auto j = Entry(id);
      out.emplace_back(j["source"]["range"][0].get<int64_t>(),
                       j["source"]["range"][1].get<int64_t>());
    }
    return out;
  }
  // A user line the person typed, in Claude Code's shape.
  static std::string UserLine(const std::string& text, const std::string& session = "sess-1") {
    nlohmann::json j = {{"type", "user"},
                        {"sessionId", session},
                        {"isSidechain", false},
                        {"message", {{"role", "user"}, {"content", text}}}};
    return j.dump() + "\n";
  }
};

}  // namespace lore::testing
