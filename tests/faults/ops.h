// The operations the fault driver runs (tests/e2e/fault_injection_test.cpp,
// docs/testing.md): for each, how to build a store with writes acknowledged
// before, how to run it once, and what must hold afterwards. Header-only.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "faults/driver.h"
#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing::faults {

using Env = std::map<std::string, std::optional<std::string>>;
inline constexpr const char* kRepo = "https://example.com/acme/app";
inline constexpr const char* kKey = "example.com_acme_app";

// One store under test, rebuilt from its template before every faulted run.
class Ctx {
 public:
  explicit Ctx(const TempDir& t) : t_(t) {}
  std::string Work() const { return t_ / "work"; }
  std::string Home() const { return Work() + "/lore"; }
  std::string Store(const std::string& rel = "") const {
    return Home() + "/" + kKey + (rel.empty() ? "" : "/" + rel);
  }
  std::string Read(const std::string& rel) const { return faults::ReadText(Store(rel)); }
  bool Exists(const std::string& rel) const { return stdfs::exists(Store(rel)); }
  RunResult Lore(const std::vector<std::string>& args, std::string input = {},
                 const Env& extra = {}) const {
    RunOptions o;
    o.input = std::move(input);
    o.env = {{"HOME", t_ / "home"},
             {"LORE_HOME", Home()},
             {"XDG_CONFIG_HOME", std::nullopt},
             {"LORE_WAVE", std::nullopt},
             {"LORE_TEST_HOOK", std::nullopt},
             {"LORE_TEST_CRASH_AFTER_LEARNINGS", std::nullopt}};
    for (const auto& [k, v] : extra) o.env[k] = v;
    o.cwd = Work();
    // lore-test: the shipped objects with glibc linked dynamically, so that
    // the shim (LD_PRELOAD) reaches its calls; lore itself is static.
    return lore::testing::LoreTest(args, o);
  }
  // Runs `args` without a fault and fails the test unless it succeeds.
  void Must(const std::vector<std::string>& args, std::string input = {}) const {
    auto r = Lore(args, std::move(input));
    ASSERT_EQ(r.exit_code, 0) << ::testing::PrintToString(args) << ": " << r.err << r.out;
  }
  static std::vector<std::string> ProposeArgs(const std::string& subject) {
    return {"propose", kRepo,       "--type",       "convention", "--subject",
            subject,   "--insight", "insight",      "--evidence", "evidence",
            "--wave",  "W1",        "--confidence", "0.9"};
  }
  // A staged entry deciding `chosen` between "<topic> a" and "<topic> b".
  static std::string Entry(const std::string& topic) {
    nlohmann::ordered_json j = {{"source", {{"session_id", "s-" + topic}, {"range", {1, 2}}}},
                                {"decisions",
                                 {{{"options", {topic + " a", topic + " b"}},
                                   {"chosen", topic + " b"},
                                   {"rationale", "r"}}}},
                                {"discussions", nlohmann::ordered_json::array()},
                                {"attempts", nlohmann::ordered_json::array()},
                                {"requests", nlohmann::ordered_json::array()}};
    return j.dump();
  }
  std::vector<std::string> Staged() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : stdfs::directory_iterator(Store("staging"), ec)) {
      std::string name = e.path().filename().string();
      if (name.size() == 41 && name.substr(36) == ".json") out.push_back(name);
    }
    return out;
  }

 private:
  const TempDir& t_;
};

// What the attempts of one round did: the tags of the runs that succeeded
// (acknowledged) and of those that failed.
struct Outcome {
  std::set<std::string> acked, failed;
  bool Acked(const std::string& tag) const { return acked.count(tag) > 0; }
};

struct Op {
  std::string name;
  // Builds the store with writes acknowledged before the faulted run.
  std::function<void(const Ctx&)> prepare;
  // Runs the operation once; `tag` ("a" faulted, "b" the retry) tells runs apart.
  std::function<RunResult(const Ctx&, const std::string& tag, const Env& fault)> run;
  // Checks what must hold after the runs in `o`.
  std::function<void(const Ctx&, const Outcome& o)> verify;
  std::vector<std::string> errnos = {};  // empty: every errno of the kind
  // The verb reports a failure on stdout (review --json, consolidate), not stderr.
  bool stdout_report = false;
  // Run without a fault before the checks (`lore status` finishes a commit).
  std::vector<std::string> settle = {};
};

inline void PrintTo(const Op& op, std::ostream* os) { *os << op.name; }

inline void ExpectOnce(const std::string& text, const std::string& needle,
                       const std::string& what) {
  EXPECT_EQ(Occurrences(text, needle), 1u) << what << " " << needle;
}
// Acknowledged: exactly once; tried but failed: at most once.
inline void ExpectTags(const std::string& text, const Outcome& o, const std::string& prefix,
                       const std::string& suffix, const std::string& what) {
  for (const auto& tag : o.acked) ExpectOnce(text, prefix + tag + suffix, what);
  for (const auto& tag : o.failed) EXPECT_LE(Occurrences(text, prefix + tag + suffix), 1u) << what;
}

inline std::string Marker(const std::string& id) { return "\"marker\":\"" + id + "\""; }

inline Op AppendOp() {
  return {"append",
          [](const Ctx& c) {
            for (int i = 0; i < 3; ++i)
              c.Must({"append-review", kRepo}, "{\"marker\":\"prior-" + std::to_string(i) + "\"}");
          },
          [](const Ctx& c, const std::string& tag, const Env& f) {
            return c.Lore({"append-review", kRepo}, "{\"marker\":\"op-" + tag + "\"}", f);
          },
          [](const Ctx& c, const Outcome& o) {
            std::string raw = c.Read("raw.jsonl");
            for (int i = 0; i < 3; ++i)
              ExpectOnce(raw, Marker("prior-" + std::to_string(i)), "raw");
            ExpectTags(raw, o, "\"marker\":\"op-", "\"", "raw");
          }};
}

inline Op ProposeOp() {
  return {"propose",
          [](const Ctx& c) {
            for (int i = 0; i < 2; ++i) c.Must(Ctx::ProposeArgs("prior-" + std::to_string(i)));
          },
          [](const Ctx& c, const std::string& tag, const Env& f) {
            return c.Lore(Ctx::ProposeArgs("op-" + tag), {}, f);
          },
          [](const Ctx& c, const Outcome& o) {
            std::string q = c.Read("proposals.jsonl");
            for (int i = 0; i < 2; ++i)
              ExpectOnce(q, "\"subject\":\"prior-" + std::to_string(i) + "\"", "queue");
            ExpectTags(q, o, "\"subject\":\"op-", "\"", "queue");
          }};
}

// Two proposals promoted by an earlier review, three queued for this one.
inline Op ReviewOp() {
  Op op{"review",
        [](const Ctx& c) {
          for (int i = 0; i < 2; ++i) c.Must(Ctx::ProposeArgs("prior-" + std::to_string(i)));
          c.Must({"review", kRepo, "--json", "--session", "s0", "--approve-all"});
          for (int i = 0; i < 3; ++i) c.Must(Ctx::ProposeArgs("queued-" + std::to_string(i)));
        },
        [](const Ctx& c, const std::string&, const Env& f) {
          return c.Lore({"review", kRepo, "--json", "--session", "s1", "--approve-all"}, {}, f);
        },
        [](const Ctx& c, const Outcome& o) {
          std::string learned = c.Read("learnings.jsonl"), queue = c.Read("proposals.jsonl");
          for (int i = 0; i < 2; ++i)
            ExpectOnce(learned, "\"subject\":\"prior-" + std::to_string(i) + "\"", "learnings");
          for (int i = 0; i < 3; ++i) {
            std::string s = "\"subject\":\"queued-" + std::to_string(i) + "\"";
            if (!o.acked.empty()) {
              ExpectOnce(learned, s, "learnings");
              EXPECT_EQ(Occurrences(queue, s), 0u) << "still queued after a review: " << s;
            } else {
              EXPECT_LE(Occurrences(learned, s), 1u) << s;
              EXPECT_GE(Occurrences(learned, s) + Occurrences(queue, s), 1u) << "lost: " << s;
            }
          }
        }};
  op.stdout_report = true;
  return op;
}

inline constexpr const char* kDecision =
    "---\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\nstatus: open\n"
    "sources: []\n---\n# Prior decision\n\nKept as it is.\n";

inline Op MemoryWriteOp() {
  return {"memory-write",
          [](const Ctx& c) {
            c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
          },
          [](const Ctx& c, const std::string& tag, const Env& f) {
            return c.Lore({"memory", "write", kRepo, "request", "new-" + tag, "--source",
                           "sess:1-2", "--body", "body of " + tag},
                          {}, f);
          },
          [](const Ctx& c, const Outcome& o) {
            EXPECT_EQ(c.Read("memory/decisions/prior.md"), kDecision);
            for (const auto& tag : o.acked)
              ExpectOnce(c.Read("memory/requests/new-" + tag + ".md"), "body of " + tag, "record");
          }};
}

inline Op MemoryEditOp() {
  return {"memory-edit",
          [](const Ctx& c) {
            c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
            c.Must({"memory", "write", kRepo, "request", "target", "--source", "sess:1-2", "--body",
                    "base text"});
          },
          [](const Ctx& c, const std::string& tag, const Env& f) {
            return c.Lore({"memory", "edit", kRepo, "request", "target", "--append", "edit-" + tag},
                          {}, f);
          },
          [](const Ctx& c, const Outcome& o) {
            EXPECT_EQ(c.Read("memory/decisions/prior.md"), kDecision);
            std::string text = c.Read("memory/requests/target.md");
            ExpectOnce(text, "base text", "record");
            ExpectTags(text, o, "edit-", "\n", "record");
          }};
}

// Three staged entries, consumed all at once or not at all.
inline Op ConsolidateOp() {
  Op op{"consolidate",
        [](const Ctx& c) {
          c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
          for (const char* topic : {"db", "vcs", "ci"}) c.Must({"stage", kRepo}, Ctx::Entry(topic));
        },
        [](const Ctx& c, const std::string&, const Env& f) {
          return c.Lore({"consolidate", kRepo, "--foreground", "--flush"}, {}, f);
        },
        [](const Ctx& c, const Outcome& o) {
          EXPECT_EQ(c.Read("memory/decisions/prior.md"), kDecision);
          size_t made = 0;
          for (const char* topic : {"db", "vcs", "ci"}) {
            std::string rel = std::string("memory/decisions/") + topic + "-a-or-" + topic + "-b.md";
            if (c.Exists(rel)) {
              ++made;
              ExpectOnce(c.Read(rel), std::string("Chosen: ") + topic + " b", rel);
            }
          }
          size_t staged = c.Staged().size();
          if (!o.acked.empty()) {
            EXPECT_EQ(made, 3u);
            EXPECT_EQ(staged, 0u);
          } else {
            EXPECT_TRUE((made == 0 && staged == 3) || (made == 3 && staged == 0))
                << "not all or nothing: " << made << " decisions written, " << staged
                << " entries still staged";
          }
        }};
  op.stdout_report = true;
  op.settle = {"status", kRepo};
  return op;
}

inline Op DistillOp() {
  return {"distill",
          [](const Ctx& c) {
            for (int i = 0; i < 3; ++i)
              c.Must({"append-review", kRepo}, "{\"finding\":\"finding " + std::to_string(i) +
                                                   "\",\"marker\":\"prior-" + std::to_string(i) +
                                                   "\"}");
            c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
            c.Must(Ctx::ProposeArgs("learned"));
            c.Must({"review", kRepo, "--json", "--session", "s0", "--approve-all"});
            c.Must({"distill", kRepo});
            c.Must({"append-review", kRepo}, "{\"finding\":\"after\",\"marker\":\"prior-3\"}");
          },
          [](const Ctx& c, const std::string&, const Env& f) {
            return c.Lore({"distill", kRepo}, {}, f);
          },
          [](const Ctx& c, const Outcome& o) {
            std::string raw = c.Read("raw.jsonl");
            for (int i = 0; i < 4; ++i)
              ExpectOnce(raw, Marker("prior-" + std::to_string(i)), "raw");
            EXPECT_EQ(c.Read("memory/decisions/prior.md"), kDecision);
            ExpectOnce(c.Read("learnings.jsonl"), "\"subject\":\"learned\"", "learnings");
            EXPECT_TRUE(c.Exists("okf/index.md"));
          }};
}

// The store's truth as `lore export` sees it (no hidden or derived files).
inline std::map<std::string, std::string> Truth(const Ctx& c) {
  auto files = faults::Files(c.Store(), {"index.sqlite", "index.sqlite-wal", "index.sqlite-shm"});
  for (auto it = files.begin(); it != files.end();) {
    bool hidden = it->first[0] == '.' || it->first.find("/.") != std::string::npos;
    it = hidden ? files.erase(it) : std::next(it);
  }
  return files;
}

inline Op ExportOp() {
  auto before = std::make_shared<std::map<std::string, std::string>>();
  return {"export",
          [before](const Ctx& c) {
            for (int i = 0; i < 2; ++i)
              c.Must({"append-review", kRepo}, "{\"marker\":\"prior-" + std::to_string(i) + "\"}");
            c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
            *before = Truth(c);
          },
          [](const Ctx& c, const std::string& tag, const Env& f) {
            return c.Lore({"export", kRepo, "-o", c.Work() + "/out-" + tag + ".tar.gz"}, {}, f);
          },
          [before](const Ctx& c, const Outcome& o) {
            EXPECT_EQ(Truth(c), *before);
            for (const auto& tag : o.acked) {
              std::string out = c.Work() + "/out-" + tag + ".tar.gz";
              // The archive is complete: it restores the store elsewhere.
              std::string scratch = c.Work() + "/../scratch";
              stdfs::remove_all(scratch);
              auto r = c.Lore({"import", out}, {}, {{"LORE_HOME", scratch}});
              EXPECT_EQ(r.exit_code, 0) << out << ": " << r.err;
            }
            // A failed export leaves no file, or (when only the folder's fsync
            // after the rename failed) a complete archive.
            for (const auto& e : stdfs::directory_iterator(c.Work())) {
              std::string name = e.path().filename().string();
              if (name == "lore") continue;
              bool ours = false;
              for (const auto& tag : o.acked) ours |= name == "out-" + tag + ".tar.gz";
              for (const auto& tag : o.failed) {
                if (name != "out-" + tag + ".tar.gz") continue;
                std::string scratch = c.Work() + "/../scratch";
                stdfs::remove_all(scratch);
                ours =
                    c.Lore({"import", e.path().string()}, {}, {{"LORE_HOME", scratch}}).exit_code ==
                    0;
              }
              EXPECT_TRUE(ours) << "left behind by a failed export: " << e.path();
            }
          }};
}

// An archive of another store imported with --force over this one: the
// store afterwards is the old one or the archive's, never a mixture.
inline Op ImportOp() {
  auto archive = std::make_shared<std::string>();
  return {"import",
          [archive](const Ctx& c) {
            for (int i = 0; i < 2; ++i)
              c.Must({"append-review", kRepo}, "{\"marker\":\"arch-" + std::to_string(i) + "\"}");
            c.Must({"memory", "write", kRepo, "decision", "archived"}, kDecision);
            *archive = c.Work() + "/../archive.tar.gz";
            c.Must({"export", kRepo, "-o", *archive});
            stdfs::remove_all(c.Store());
            for (int i = 0; i < 2; ++i)
              c.Must({"append-review", kRepo}, "{\"marker\":\"prior-" + std::to_string(i) + "\"}");
            c.Must({"memory", "write", kRepo, "decision", "prior"}, kDecision);
          },
          [archive](const Ctx& c, const std::string&, const Env& f) {
            return c.Lore({"import", *archive, "--force"}, {}, f);
          },
          [](const Ctx& c, const Outcome& o) {
            std::string raw = c.Read("raw.jsonl");
            bool old_store = c.Exists("memory/decisions/prior.md");
            bool new_store = c.Exists("memory/decisions/archived.md");
            EXPECT_NE(old_store, new_store) << "the store is neither the old one nor the archive's";
            if (!o.acked.empty()) {
              EXPECT_TRUE(new_store);
            }
            for (int i = 0; i < 2; ++i) {
              std::string id = std::to_string(i);
              EXPECT_EQ(Occurrences(raw, Marker("prior-" + id)), old_store ? 1u : 0u) << raw;
              EXPECT_EQ(Occurrences(raw, Marker("arch-" + id)), new_store ? 1u : 0u) << raw;
            }
            // When removing the old store fails after the swap (a faulted
            // open in RemoveTree), it stays beside under fs's temporary name
            // (.import.new.<pid>.* after an exchange, .<key>.replaced.<pid>.*
            // after the two-rename fallback): `lore check` warns about it as a
            // dead writer's leftover and `lore check --repair` removes it.
            const std::string replaced = std::string(".") + kKey + ".replaced.";
            for (const auto& e : stdfs::directory_iterator(c.Home())) {
              std::string name = e.path().filename().string();
              if (name.rfind(replaced, 0) == 0 || name.rfind(".import.new.", 0) == 0) continue;
              EXPECT_EQ(name, kKey) << "left behind: " << e.path();
            }
          }};
}

}  // namespace lore::testing::faults
