#include "lore/app/agent_memory.h"

#include <sys/stat.h>

#include <climits>
#include <cstdlib>
#include <set>

#include "agentmem/agentmem.h"
#include "lore/app/propose.h"
#include "lore/app/store.h"
#include "lore/fs/fd.h"
#include "lore/json/reader.h"
#include "lore/proposals/paths.h"
#include "lore/proposals/propose_input.h"
#include "lore/proposals/queue.h"
#include "lore/text/utf8.h"
#include "text/trim.h"

namespace lore::app {
namespace {

// The form two facts are compared in: lower case, white space squeezed.
std::string Key(std::string_view s) {
  return text::AsciiLower(text::FoldSpace(s, SIZE_MAX, " \t\r\n"));
}

// The insight of every proposal the store has seen: queued, archived (kept or
// declined), declined, kept as a learning.
Result<std::set<std::string>> KnownInsights(const store::Store& store) {
  const proposals::Paths paths = proposals::Paths::InStore(store.dir());
  std::set<std::string> known;
  for (const std::string* file :
       {&paths.queue, &paths.archive, &paths.rejected, &paths.learnings}) {
    auto bytes = fs::ReadFile(*file, fs::Kind::kLog);
    if (!bytes) {
      if (bytes.error().code == ErrorCode::kNotFound) continue;
      return tl::unexpected(bytes.error());
    }
    proposals::ScanLines(*bytes, [&](proposals::ScannedLine& line) {
      if (!line.object || !line.object->is_object()) return;
      auto it = line.object->find("insight");
      if (it != line.object->end() && it->is_string()) known.insert(Key(it->get<std::string>()));
    });
  }
  return known;
}

// Text cut to `max` code points at a word boundary, with an ellipsis.
std::string Cut(const std::string& s, size_t max) {
  if (text::CodePointCount(s) <= max) return s;
  std::string cut(text::PrefixCodePoints(s, max - 1));
  size_t space = cut.rfind(' ');
  if (space != std::string::npos && space > cut.size() / 2) cut.resize(space);
  return cut + "…";
}

// The subject: the fact's title, else its first sentence.
std::string Subject(const agentmem::Fact& f) {
  std::string s = f.title;
  if (s.empty()) {
    s = f.text;
    for (const char* end : {". ", "! ", "? "}) {
      size_t at = s.find(end);
      if (at != std::string::npos && at >= 12) s.resize(at + 1);
    }
  }
  return Cut(s, proposals::kSubjectMax);
}

std::string Where(const agentmem::Fact& f, const std::string& home) {
  std::string path = f.path;
  if (!home.empty() && path.rfind(home + "/", 0) == 0) path = "~" + path.substr(home.size());
  return path + ":" + std::to_string(f.line);
}

}  // namespace

int64_t AgentMemoryImport::Count(AgentFact::Status s) const {
  int64_t n = 0;
  for (const AgentFact& f : facts) n += f.status == s;
  return n;
}

Result<AgentMemoryImport> ImportAgentMemory(const std::string& folder, const std::string& home,
                                            bool dry_run, text::TimePoint now) {
  char real[PATH_MAX];
  auto st = ::realpath(folder.c_str(), real) ? fs::LStat(real)
                                             : Result<struct stat>(Fail(ErrorCode::kNotFound, ""));
  if (!st || !S_ISDIR(st->st_mode)) {
    return Fail(ErrorCode::kInvalidInput,
                "lore import agent-memory reads the agents' files of a checkout, and this is no "
                "folder",
                folder, 0, "pass the project's folder");
  }
  std::string project = real;
  for (std::string d = project; !d.empty() && d != "/"; d = fs::Dirname(d)) {
    if (fs::Exists(d + "/.git")) {
      project = d;
      break;
    }
  }
  LORE_ASSIGN(store::Store store, LocateStore(project));
  LORE_ASSIGN(std::vector<agentmem::Fact> facts, agentmem::Read(project, home));
  LORE_ASSIGN(std::set<std::string> known, KnownInsights(store));
  AgentMemoryImport out;
  out.project = project;
  std::string stamp;
  for (char c : text::UtcSeconds(now)) {
    if (c != '-' && c != ':') stamp += c;
  }
  out.wave = "agent-memory-" + stamp;
  const std::string quota = std::to_string(std::max<size_t>(facts.size(), 1));
  for (const agentmem::Fact& fact : facts) {
    AgentFact a;
    a.agent = fact.agent;
    a.origin = fact.origin;
    a.where = Where(fact, home);
    ProposeRequest request;
    proposals::ProposeFlags& flags = request.flags;
    flags.type = "convention";
    flags.subject = Subject(fact);
    flags.insight = Cut(fact.text, proposals::kInsightMax);
    flags.evidence = "Written by the agent itself: " + fact.origin + " (" + a.where + ")";
    flags.confidence = "0.7";
    flags.wave = out.wave;
    flags.agent = fact.agent;
    flags.quota_per_wave = quota;
    // Compared as it would be stored: after the redactor.
    proposals::Proposal checked = proposals::CheckFlags(flags, "");
    a.subject = checked.fields.subject;
    const std::string key = Key(checked.fields.insight);
    if (!checked.errors.empty()) {
      a.status = AgentFact::Status::kRefused;
      a.reason = checked.errors.front();
    } else if (!known.insert(key).second) {
      a.status = AgentFact::Status::kKnown;
    } else if (dry_run) {
      a.status = AgentFact::Status::kWouldQueue;
    } else {
      LORE_ASSIGN(Proposed p, Propose(
                                  request, [&]() -> Result<store::Store> { return store; }, now));
      if (p.status == Proposed::Status::kQueued) {
        a.status = AgentFact::Status::kQueued;
        a.id = p.id;
      } else if (p.status == Proposed::Status::kAlreadyQueued) {
        a.status = AgentFact::Status::kKnown;
        a.id = p.id;
      } else {
        a.status = AgentFact::Status::kRefused;
        a.reason = p.status == Proposed::Status::kDisabled
                       ? "proposals are disabled in " + p.config_path
                   : p.status == Proposed::Status::kBelowFloor ? "below the confidence floor"
                                                               : "the queue refused it";
      }
    }
    out.facts.push_back(std::move(a));
  }
  return out;
}

}  // namespace lore::app
