// `lore import agent-memory <checkout> [--dry-run] [--json]` (the verb
// import-agent-memory; Main maps the two words to it): what the agents wrote
// down themselves, queued as proposals for review, once (app/agent_memory.h).
#include <cstdlib>
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "lore/app/agent_memory.h"
#include "lore/json/value.h"

namespace lore::cli {
namespace {

struct AgentMemoryArgs {
  std::string repo;
  bool dry_run = false;
  bool json = false;
};

const char* StatusName(app::AgentFact::Status s) {
  switch (s) {
    case app::AgentFact::Status::kQueued:
      return "queued";
    case app::AgentFact::Status::kKnown:
      return "known";
    case app::AgentFact::Status::kRefused:
      return "refused";
    case app::AgentFact::Status::kWouldQueue:
      return "would-queue";
  }
  return "queued";
}

int Run(const AgentMemoryArgs& a) {
  const char* home = std::getenv("HOME");
  auto done =
      app::ImportAgentMemory(a.repo, home ? home : "", a.dry_run, std::chrono::system_clock::now());
  if (!done) return ReportError(done.error());
  const std::string& project = done->project;
  using S = app::AgentFact::Status;
  if (a.json) {
    Json j;
    j["project"] = project;
    j["wave"] = done->wave;
    j["found"] = done->facts.size();
    j["queued"] = done->Count(S::kQueued);
    j["known"] = done->Count(S::kKnown);
    j["refused"] = done->Count(S::kRefused);
    if (a.dry_run) j["would_queue"] = done->Count(S::kWouldQueue);
    j["facts"] = Json::array();
    for (const app::AgentFact& f : done->facts) {
      Json e;
      e["status"] = StatusName(f.status);
      e["agent"] = f.agent;
      e["origin"] = f.origin;
      e["where"] = f.where;
      e["subject"] = f.subject;
      if (!f.id.empty()) e["id"] = f.id;
      if (!f.reason.empty()) e["reason"] = f.reason;
      j["facts"].push_back(std::move(e));
    }
    Print(j.dump(-1, ' ', false, Json::error_handler_t::replace));
    return kExitOk;
  }
  const size_t found = done->facts.size();
  std::string line = "lore import agent-memory: " + std::to_string(found) +
                     (found == 1 ? " fact" : " facts") + " in the agents' own files of " + project;
  if (a.dry_run) {
    line += ": " + std::to_string(done->Count(S::kWouldQueue)) + " would be queued for review";
  } else {
    line += ": " + std::to_string(done->Count(S::kQueued)) + " queued for review (wave " +
            done->wave + ")";
  }
  line += ", " + std::to_string(done->Count(S::kKnown)) + " already proposed, kept or declined";
  if (int64_t r = done->Count(S::kRefused)) line += ", " + std::to_string(r) + " refused";
  Print(line);
  for (const app::AgentFact& f : done->facts) {
    std::string status = StatusName(f.status);
    status.resize(12, ' ');
    Print("  " + status + f.where + "  " + f.subject +
          (f.reason.empty() ? "" : " (" + f.reason + ")"));
  }
  if (done->Count(S::kQueued) > 0) Print("Review them with: lore review " + project);
  return kExitOk;
}

}  // namespace

void RegisterAgentMemoryCommands(Registry& r) {
  auto a = std::make_shared<AgentMemoryArgs>();
  CLI::App* sub = r.Add("import-agent-memory",
                        "Queue what the agents wrote down themselves (Claude Code's auto memory, "
                        "CLAUDE.md's memory sections, Codex's memories) as proposals for review, "
                        "once; also spelled 'lore import agent-memory'",
                        [a]() { return Run(*a); });
  sub->add_option("repo", a->repo, "The project's checkout folder")->required();
  sub->add_flag("--dry-run", a->dry_run, "Say what would be queued; queue nothing");
  sub->add_flag("--json", a->json, "One JSON object");
}

}  // namespace lore::cli
