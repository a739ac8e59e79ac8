// The fault driver's side of the lore_fault shim (docs/testing.md): the
// environment that preloads it, the count it reports, and checks over a
// store's files shared by the fault and soak tests. Header-only.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace lore::testing::faults {

namespace stdfs = std::filesystem;

// The shim built beside the tests ("" when this build has none).
inline std::string ShimPath() {
#ifdef LORE_FAULT_SHIM
  return LORE_FAULT_SHIM;
#else
  return "";
#endif
}

inline bool SanitizerBuild() {
#ifdef LORE_SANITIZER_BUILD
  return true;
#else
  return false;
#endif
}

// The variables that make the `n`-th counted `kind` call fail with `err`
// (for example "write", 3, "ENOSPC:short") for calls under `root`, the count
// going to `count_file`; `and_later`: that call and every later one. Under ASan the shim comes
// before the sanitizer's runtime, which ASan accepts once told not to verify the order.
inline std::map<std::string, std::optional<std::string>> FaultEnv(const std::string& kind, long n,
                                                                  const std::string& err,
                                                                  const std::string& root,
                                                                  const std::string& count_file,
                                                                  bool and_later = false) {
  std::map<std::string, std::optional<std::string>> env;
  env["LD_PRELOAD"] = ShimPath();
  env["LORE_FAULT"] = kind + ":" + std::to_string(n) + (and_later ? "+" : "") + ":" + err;
  env["LORE_FAULT_ROOT"] = root;
  env["LORE_FAULT_COUNT"] = count_file;
  if (SanitizerBuild()) {
    const char* asan = std::getenv("ASAN_OPTIONS");
    env["ASAN_OPTIONS"] =
        std::string(asan && *asan ? std::string(asan) + ":" : "") + "verify_asan_link_order=0";
  }
  return env;
}

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Writes `text` to `path` with mode 0600, as lore writes its own files.
inline void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  stdfs::permissions(path, stdfs::perms::owner_read | stdfs::perms::owner_write);
}

// The number of counted calls the shim reported, or -1 when it wrote nothing
// (the shim did not load).
inline long ReadCount(const std::string& count_file) {
  if (!stdfs::exists(count_file)) return -1;
  std::string text = ReadText(count_file);
  return text.empty() ? -1 : std::strtol(text.c_str(), nullptr, 10);
}

inline size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t pos = text.find(needle); pos != std::string::npos;
       pos = text.find(needle, pos + needle.size())) {
    ++n;
  }
  return n;
}

inline size_t Lines(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Every line of every *.jsonl file under `dir` that does not parse as one
// JSON value, or a last line without its newline, as "<file>:<line>".
inline std::vector<std::string> BadJsonlLines(const std::string& dir) {
  std::vector<std::string> bad;
  std::error_code ec;
  for (auto it = stdfs::recursive_directory_iterator(dir, ec);
       it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".jsonl") continue;
    std::string text = ReadText(it->path().string());
    size_t line = 0;
    for (size_t pos = 0; pos < text.size();) {
      ++line;
      size_t nl = text.find('\n', pos);
      std::string where = it->path().string() + ":" + std::to_string(line);
      if (nl == std::string::npos) {
        bad.push_back(where + " (no newline)");
        break;
      }
      if (!nlohmann::json::accept(text.substr(pos, nl - pos))) bad.push_back(where);
      pos = nl + 1;
    }
  }
  return bad;
}

// Every regular file under `dir` with its bytes, by relative path, leaving
// out names in `skip` (and everything under them).
inline std::map<std::string, std::string> Files(const std::string& dir,
                                                const std::vector<std::string>& skip = {}) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  for (auto it = stdfs::recursive_directory_iterator(dir, ec);
       it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (std::find(skip.begin(), skip.end(), name) != skip.end()) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) {
      out[stdfs::relative(it->path(), dir).string()] = ReadText(it->path().string());
    }
  }
  return out;
}

}  // namespace lore::testing::faults
