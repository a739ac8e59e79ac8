// Issue 40, "a day with lore": the rough edges a new user hits, as black-box
// tests of the real binary. A repository argument that names nothing lore
// knows is refused in one line by every verb, instead of answering from an
// empty store; a checkout without a store still works.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;

class DayTest : public ::testing::Test {
 protected:
  void SetUp() override { stdfs::create_directories(t_ / "work"); }
  RunOptions Opts() const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.cwd = t_ / "work";
    return o;
  }
  RunResult Run(const std::vector<std::string>& args) const { return Lore(args, Opts()); }
  bool NoStores() const { return !stdfs::exists(t_ / "stores") || stdfs::is_empty(t_ / "stores"); }
  // Exit 1, one line on stderr: `what`, the path, and the repair.
  static void ExpectRefused(const RunResult& r, const std::string& line_start) {
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_EQ(r.err.rfind(line_start, 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("; "), std::string::npos) << r.err;  // the repair
  }

  TempDir t_;
};

TEST_F(DayTest, AMistypedPathIsRefusedByEveryVerb) {
  const std::string typo =
      "lore: no such checkout, remote URL or store: ./wdiget; check the path "
      "for a typo";
  ExpectRefused(Run({"status", "./wdiget"}), typo);
  ExpectRefused(Run({"status", "./wdiget", "--json"}), typo);
  ExpectRefused(Run({"search", "./wdiget", "port"}), typo);
  ExpectRefused(Run({"serve", "./wdiget", "--port", "0"}), typo);
  ExpectRefused(Run({"review", "./wdiget", "--approve-all"}), typo);
  ExpectRefused(Run({"proposals", "./wdiget"}), typo);
  ExpectRefused(Run({"search", t_ / "nowhere/widget", "port"}),
                "lore: no such checkout, remote URL or store: " + (t_ / "nowhere/widget"));
  EXPECT_TRUE(NoStores());
}

TEST_F(DayTest, AFolderThatIsNoCheckoutIsRefused) {
  stdfs::create_directories(t_ / "work/notes");
  ExpectRefused(Run({"status", "notes"}),
                "lore: not a git checkout, and lore has no store for it: " + (t_ / "work/notes") +
                    "; run lore from the project's git checkout");
  EXPECT_TRUE(NoStores());
}

// The folder an agent works in has its store whatever it is (a home folder,
// a scratch folder): the hooks capture there, and once that store exists the
// person's verbs name it by the folder too. Only a folder no agent worked in
// is refused as a likely typo.
TEST_F(DayTest, TheHooksRememberAFolderThatIsNoCheckout) {
  stdfs::create_directories(t_ / "work/scratch");
  const std::string folder = t_ / "work/scratch";
  t_.Write(
      "t.jsonl",
      "{\"type\":\"user\",\"sessionId\":\"s1\",\"cwd\":\"" + folder +
          "\",\"timestamp\":\"2026-12-06T10:00:00Z\",\"message\":{\"role\":\"user\","
          "\"content\":\"rename the photos by date\"}}\n"
          "{\"type\":\"assistant\",\"sessionId\":\"s1\",\"timestamp\":\"2026-12-06T10:00:05Z\","
          "\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":"
          "\"Renamed 42 photos by their EXIF date.\"}]}}\n");
  RunOptions o = Opts();
  o.input = "{\"session_id\":\"s1\",\"transcript_path\":\"" + (t_ / "t.jsonl") + "\",\"cwd\":\"" +
            folder + "\",\"hook_event_name\":\"SessionEnd\",\"reason\":\"exit\"}";
  auto hook = Lore({"hook", "session-end"}, o);
  EXPECT_EQ(hook.exit_code, 0) << hook.err;
  EXPECT_EQ(hook.err, "") << "the folder is accepted, not refused";
  // The hook's extract runs detached; run it here too: the session is found by its words.
  auto extract = Run({"extract", folder, "--transcript", t_ / "t.jsonl"});
  EXPECT_EQ(extract.exit_code, 0) << extract.err;
  ASSERT_FALSE(NoStores()) << "the folder has its store";
  auto found = Run({"search", folder, "photos", "EXIF"});
  EXPECT_EQ(found.exit_code, 0) << found.err;
  EXPECT_NE(found.out.find("Renamed 42 photos"), std::string::npos) << found.out;
  EXPECT_EQ(Run({"status", "scratch"}).exit_code, 0);
  // Another folder nobody worked in is still refused.
  stdfs::create_directories(t_ / "work/other");
  ExpectRefused(Run({"status", "other"}), "lore: not a git checkout, and lore has no store for it");
}

TEST_F(DayTest, ACheckoutARemoteAndAKnownStoreKeyWork) {
  // A checkout without a store yet: as before, status answers (and makes it).
  stdfs::create_directories(t_ / "work/widget/.git");
  t_.Write("work/widget/.git/config",
           "[remote \"origin\"]\n\turl = https://example.org/acme/widget.git\n");
  auto checkout = Run({"status", "widget"});
  EXPECT_EQ(checkout.exit_code, 0) << checkout.err;
  EXPECT_EQ(Run({"search", "widget", "port"}).exit_code, 0);
  // A remote URL in each spelling, and host/path.
  for (const char* remote : {"https://example.org/acme/other", "git@example.org:acme/other.git",
                             "example.org/acme/other"}) {
    auto r = Run({"status", remote});
    EXPECT_EQ(r.exit_code, 0) << remote << ": " << r.err;
  }
  // The key of a store that exists.
  ASSERT_TRUE(stdfs::exists(t_ / "stores/example.org_acme_widget"));
  auto key = Run({"status", "example.org_acme_widget"});
  EXPECT_EQ(key.exit_code, 0) << key.err;
}

// The verbs in the order a person meets them: help, bare lore, the man page
// and the completions start with init, status, search, review, serve; and
// `lore help` is lore's help, not the help of `help`.
TEST_F(DayTest, HelpManAndCompletionsStartWithTheEverydayVerbs) {
  auto help = Run({"help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  auto dash = Run({"--help"});
  ASSERT_EQ(dash.exit_code, 0);
  EXPECT_EQ(help.out, dash.out);
  EXPECT_EQ(help.out.find("Show help for lore or for one verb"), std::string::npos);
  auto bare = Run({});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_EQ(bare.err, help.out);
  // The verb lines of the help: "  <verb>  <summary>", in order.
  std::vector<std::string> verbs;
  size_t at = help.out.find("Subcommands:\n");
  ASSERT_NE(at, std::string::npos) << help.out;
  for (size_t line = help.out.find('\n', at) + 1; line < help.out.size();) {
    size_t end = help.out.find('\n', line);
    std::string l = help.out.substr(line, end - line);
    line = end + 1;
    if (l.rfind("  ", 0) != 0) break;
    verbs.push_back(l.substr(2, l.find(' ', 2) - 2));
  }
  ASSERT_GE(verbs.size(), 6u) << help.out;
  EXPECT_EQ(std::vector<std::string>(verbs.begin(), verbs.begin() + 6),
            (std::vector<std::string>{"init", "status", "search", "review", "serve", "help"}))
      << help.out;
  EXPECT_EQ(verbs.back(), "pointer") << help.out;
  // The man page's VERBS section, and the bash completion's verb list.
  auto man = Run({"help", "--man"});
  ASSERT_EQ(man.exit_code, 0);
  const size_t section = man.out.find(".SH VERBS\n");
  ASSERT_NE(section, std::string::npos);
  size_t last = section;
  for (const char* verb : {".SS \"lore init", ".SS \"lore status", ".SS \"lore search",
                           ".SS \"lore review", ".SS \"lore serve"}) {
    const size_t p = man.out.find(verb, section);
    EXPECT_GT(p, last) << verb;
    last = p;
  }
  EXPECT_LT(last, man.out.find(".SS \"lore ensure", section));
  auto bash = Run({"completions", "bash"});
  ASSERT_EQ(bash.exit_code, 0);
  EXPECT_NE(bash.out.find("init status search review serve help propose"), std::string::npos)
      << bash.out.substr(0, 2000);
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
