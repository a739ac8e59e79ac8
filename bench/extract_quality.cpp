// Precision and recall of the Phase 1 rules engine on the hand-labelled
// transcripts of tests/fixtures/transcripts/ (<name>.jsonl + <name>.labels.json).
//
//   extract_quality [DIR] [--verbose]
//
// An extracted item is right when it matches a label not matched before:
// requests by a label text inside the summary, attempts by the action text
// inside the action and the same `succeeded` (attempts are the failures the
// engine keeps as episodes), decisions by the label inside
// `chosen`, discussions by the label inside the topic. Precision = right
// items / extracted items; recall = matched labels / labels. --verbose lists
// the misses on both sides (the weak spots in docs/extract.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "activity/session_log.h"
#include "lore/extract/rules.h"
#include "lore/extract/transcript.h"

namespace {

namespace stdfs = std::filesystem;
using Json = nlohmann::json;
using lore::consolidate::StagedEntry;

struct Tally {
  int items = 0, right = 0, labels = 0, found = 0;
};

struct Item {
  std::string text;
  int succeeded = -1;  // attempts only
};

std::vector<Item> Items(const StagedEntry& e, const std::string& list) {
  std::vector<Item> out;
  if (list == "requests")
    for (auto& r : e.requests) out.push_back({r.summary});
  if (list == "attempts")
    for (auto& a : e.attempts) out.push_back({a.action, a.succeeded ? 1 : 0});
  if (list == "decisions")
    for (auto& d : e.decisions) out.push_back({d.chosen});
  if (list == "discussions")
    for (auto& d : e.discussions) out.push_back({d.topic});
  return out;
}

StagedEntry RunRules(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  lore::extract::RulesEngine rules;
  lore::activity::LogBuilder log;  // the engine sees events as they are logged
  int64_t n = 0;
  while (std::getline(in, line)) {
    auto parsed = lore::extract::ParseTranscriptLine(line, ++n);
    for (const auto& e : parsed.events) {
      if (auto logged = log.Add(e)) (void)rules.Take(*logged);
    }
  }
  return *rules.Finish();
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "tests/fixtures/transcripts";
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--verbose") {
      verbose = true;
    } else {
      dir = a;
    }
  }
  const std::vector<std::string> lists = {"requests", "attempts", "decisions", "discussions"};
  std::map<std::string, Tally> total;
  std::vector<stdfs::path> files;
  for (const auto& e : stdfs::directory_iterator(dir)) {
    if (e.path().extension() == ".jsonl") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "no fixtures in %s\n", dir.c_str());
    return 1;
  }
  for (const auto& f : files) {
    stdfs::path labels_path = f;
    labels_path.replace_extension(".labels.json");
    std::ifstream lin(labels_path);
    std::stringstream ss;
    ss << lin.rdbuf();
    Json labels = Json::parse(ss.str(), nullptr, false);
    if (!labels.is_object()) {
      std::fprintf(stderr, "bad labels: %s\n", labels_path.c_str());
      return 1;
    }
    StagedEntry entry = RunRules(f.string());
    for (const auto& list : lists) {
      std::vector<Item> items = Items(entry, list);
      std::vector<bool> used(items.size(), false);
      Tally& t = total[list];
      t.items += static_cast<int>(items.size());
      for (const auto& label : labels[list]) {
        ++t.labels;
        std::string want =
            label.is_string() ? label.get<std::string>() : label["action"].get<std::string>();
        int succ = label.is_object() ? (label["succeeded"].get<bool>() ? 1 : 0) : -1;
        bool hit = false;
        for (size_t i = 0; i < items.size() && !hit; ++i) {
          if (used[i] || items[i].text.find(want) == std::string::npos) continue;
          if (succ >= 0 && items[i].succeeded != succ) continue;
          used[i] = hit = true;
        }
        if (hit) {
          ++t.found;
          ++t.right;
        } else if (verbose) {
          std::printf("  missed   %-11s %s: %s\n", list.c_str(), f.filename().c_str(),
                      want.c_str());
        }
      }
      for (size_t i = 0; i < items.size(); ++i) {
        if (!used[i] && verbose) {
          std::printf("  extra    %-11s %s: %s\n", list.c_str(), f.filename().c_str(),
                      items[i].text.c_str());
        }
      }
    }
  }
  std::printf("%zu fixtures\n%-12s %6s %6s %9s %9s\n", files.size(), "list", "items", "labels",
              "precision", "recall");
  for (const auto& list : lists) {
    const Tally& t = total[list];
    std::printf("%-12s %6d %6d %9.2f %9.2f\n", list.c_str(), t.items, t.labels,
                t.items ? double(t.right) / t.items : 1.0,
                t.labels ? double(t.found) / t.labels : 1.0);
  }
  return 0;
}
