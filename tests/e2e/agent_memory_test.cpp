// Black-box tests of `lore import agent-memory <checkout>`: what Claude Code's
// auto memory, the memory sections of CLAUDE.md and Codex's memories hold is
// queued as proposals once, redacted, the agents' files never written; a fact
// already queued, kept or declined is not proposed again; a new one is.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "support/run.h"
#include "support/temp_dir.h"

namespace lore::testing {
namespace LORE_FILE_NAMESPACE {

namespace stdfs = std::filesystem;
using Json = nlohmann::ordered_json;

class AgentMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    stdfs::create_directories(t_ / "widgets");
    ASSERT_EQ(::system(("git init -q " + project() + " && git -C " + project() +
                        " remote add origin https://example.org/acme/widgets.git")
                           .c_str()),
              0);
    char real[PATH_MAX];
    ASSERT_NE(::realpath(project().c_str(), real), nullptr);
    std::string folder = real;
    for (char& c : folder) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
    }
    memory_ = "home/.claude/projects/" + folder + "/memory/";
    t_.Write(memory_ + "MEMORY.md",
             "- [Testing](testing.md) — how to test\n- The user prefers short answers.\n");
    t_.Write(
        memory_ + "testing.md",
        "---\nname: testing\ndescription: Run the widget tests with make test-all\ntype: feedback\n"
        "---\n\nRun `make test-all`, not `make test`: the latter skips the integration tests.\n");
    t_.Write(
        "widgets/CLAUDE.md",
        "# Widgets\n- Build with make.\n\n## Memory\n- Always run ./check.sh before committing.\n"
        "- The deploy key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH for "
        "staging <private>and the pager is 555-0100</private>.\n");
    t_.Write("home/.codex/memories/MEMORY.md",
             "# Memory\n## widgets\n- widgets listens on port 8080\n## gadgets\n- gadgets listens "
             "on 9090\n");
  }
  std::string project() const { return t_ / "widgets"; }
  RunOptions Opts() const {
    RunOptions o = IsolatedOptions(t_.path(), "stores");
    o.cwd = project();
    return o;
  }
  Json Import(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"import", "agent-memory", project(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunResult r = Lore(args, Opts());
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return Json::parse(r.out);
  }
  std::string Queue() const {
    std::string path = t_ / "stores/example.org_acme_widgets/proposals.jsonl";
    return stdfs::exists(path) ? t_.Read("stores/example.org_acme_widgets/proposals.jsonl") : "";
  }
  std::string AgentFiles() const {
    std::string all;
    for (const char* f : {"MEMORY.md", "testing.md"}) all += t_.Read(memory_ + f);
    return all + t_.Read("widgets/CLAUDE.md") + t_.Read("home/.codex/memories/MEMORY.md");
  }

  TempDir t_;
  std::string memory_;
};

TEST_F(AgentMemoryTest, QueuedOnceRedactedAndTheAgentsFilesUntouched) {
  const std::string before = AgentFiles();
  Json dry = Import({"--dry-run"});
  EXPECT_EQ(dry["would_queue"], 5) << dry.dump();
  EXPECT_EQ(Queue(), "");
  Json first = Import();
  EXPECT_EQ(first["found"], 5) << first.dump();
  EXPECT_EQ(first["queued"], 5);
  std::vector<std::string> origins;
  for (const Json& f : first["facts"]) origins.push_back(f["origin"].get<std::string>());
  EXPECT_EQ(origins,
            (std::vector<std::string>{"Claude Code's auto memory", "Claude Code's auto memory",
                                      "CLAUDE.md", "CLAUDE.md", "Codex's memories"}));
  const std::string queue = Queue();
  EXPECT_EQ(std::count(queue.begin(), queue.end(), '\n'), 5) << queue;
  EXPECT_NE(queue.find("make test-all"), std::string::npos);
  EXPECT_NE(queue.find("port 8080"), std::string::npos);
  EXPECT_EQ(queue.find("9090"), std::string::npos) << "another project's memory was imported";
  EXPECT_EQ(queue.find("Build with make"), std::string::npos) << "an instruction was imported";
  EXPECT_EQ(queue.find("sk-ant-api03"), std::string::npos) << queue;
  EXPECT_EQ(queue.find("555-0100"), std::string::npos) << queue;
  EXPECT_NE(queue.find("\"proposed_by_agent\":\"claude-code\""), std::string::npos);
  EXPECT_EQ(AgentFiles(), before);

  Json second = Import();
  EXPECT_EQ(second["queued"], 0) << second.dump();
  EXPECT_EQ(second["known"], 5);
  EXPECT_EQ(Queue(), queue);
}

// Declined and kept facts are remembered by the store's archive and learnings.
TEST_F(AgentMemoryTest, DeclinedOrKeptFactsAreNotProposedAgain) {
  Json first = Import();
  ASSERT_EQ(first["queued"], 5);
  const std::string keep = first["facts"][0]["id"].get<std::string>();
  RunResult review = Lore({"review", project(), "--session", "s1", "--approve", keep}, Opts());
  ASSERT_EQ(review.exit_code, 0) << review.out << review.err;
  EXPECT_EQ(Queue(), "");
  Json again = Import();
  EXPECT_EQ(again["queued"], 0) << again.dump();
  EXPECT_EQ(again["known"], 5);
  // A fact the agent writes later is proposed, alone.
  std::ofstream(t_ / "widgets/CLAUDE.md", std::ios::app) << "- Releases are cut on Tuesdays.\n";
  Json later = Import();
  EXPECT_EQ(later["queued"], 1) << later.dump();
  EXPECT_NE(Queue().find("Releases are cut on Tuesdays."), std::string::npos);
}

TEST_F(AgentMemoryTest, NothingToReadAndBadArguments) {
  stdfs::remove_all(t_ / "home");
  stdfs::remove(t_ / "widgets/CLAUDE.md");
  Json none = Import();
  EXPECT_EQ(none["found"], 0);
  RunResult text = Lore({"import", "agent-memory", project()}, Opts());
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("0 facts in the agents' own files"), std::string::npos) << text.out;
  RunResult missing = Lore({"import", "agent-memory", t_ / "no-such"}, Opts());
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no-such"), std::string::npos) << missing.err;
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  // A FIFO where CLAUDE.md should be never blocks: one line naming it, exit 1.
  ASSERT_EQ(::mkfifo((t_ / "widgets/CLAUDE.md").c_str(), 0600), 0);
  RunResult fifo = Lore({"import", "agent-memory", project()}, Opts());
  EXPECT_EQ(fifo.exit_code, 1);
  EXPECT_NE(fifo.err.find("CLAUDE.md"), std::string::npos) << fifo.err;
  EXPECT_EQ(std::count(fifo.err.begin(), fifo.err.end(), '\n'), 1) << fifo.err;
  stdfs::remove(t_ / "widgets/CLAUDE.md");
  // An unreadable memory file is one line naming it; nothing is queued.
  t_.Write(memory_ + "MEMORY.md", "- a fact\n");
  ASSERT_EQ(::chmod((t_ / (memory_ + "MEMORY.md")).c_str(), 0), 0);
  if (::geteuid() != 0) {
    RunResult denied = Lore({"import", "agent-memory", project()}, Opts());
    EXPECT_EQ(denied.exit_code, 1);
    EXPECT_NE(denied.err.find("MEMORY.md"), std::string::npos) << denied.err;
    EXPECT_EQ(Queue(), "");
  }
}

}  // namespace LORE_FILE_NAMESPACE
}  // namespace lore::testing
