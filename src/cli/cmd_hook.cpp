// `lore hook <event>`: the agent hooks (docs/agents.md). A hook never
// blocks the agent: whatever happens, it exits 0 (problems go to stderr).
// Each event is one row of the table in RegisterHookCommands.
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <memory>
#include <optional>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/team_hooks.h"
#include "lore/app/hook.h"
#include "lore/app/recall.h"
#include "lore/app/store.h"
#include "proc/process.h"

namespace lore::cli {
namespace {

struct HookVerb {
  const char* name;
  const char* summary;
  int (*run)();
};

// The hook payload on standard input. One over the cap is refused (the hook
// goes on without it) and said once per session, not on every call of every
// hook (app::FirstHookWarning, its session id read off the payload's first
// bytes): `warn` is false when this session was told already.
Result<std::string> ReadPayload(bool* warn) {
  std::string head;
  auto input = ReadStdin(kMaxStdinBytes, &head);
  *warn = true;
  if (!input && !head.empty()) {
    *warn = app::FirstHookWarning("stdin-over-cap", head, std::chrono::system_clock::now());
  }
  return input;
}

int PreToolUse() {
  bool warn = true;
  auto input = ReadPayload(&warn);
  if (!input) {
    if (warn) ReportWarning(input.error());
    return kExitOk;
  }
  char cwd[PATH_MAX];
  const std::string here = ::getcwd(cwd, sizeof cwd) ? cwd : ".";
  auto r = app::AuditToolUse(*input, EnvOr("LORE_WAVE"), here, std::chrono::system_clock::now());
  if (!r) ReportWarning(r.error());
  return kExitOk;
}

std::string ProcessCwd() {
  char cwd[PATH_MAX];
  return ::getcwd(cwd, sizeof cwd) ? cwd : ".";
}

// What the session hooks share: the payload (read leniently) and the store of
// the agent's working directory. Returns false (after one line on stderr)
// when there is nothing to do.
struct SessionCall {
  bool refused = false;  // the payload was over the cap: the hook has none
  hook::Payload payload;
  std::string repo;  // the payload's cwd, else ours
  std::optional<store::Store> store;
};

bool BeginSession(SessionCall* call) {
  bool warn = true;
  auto input = ReadPayload(&warn);
  std::optional<Error> problem;
  if (input) call->payload = app::ParseHookPayload(*input, &problem);
  call->refused = !input;
  if (!input && warn) {
    problem = Error{ErrorCode::kInvalidInput, input.error().Format(), "<stdin>", 0,
                    "the agent must send its hook JSON object on standard input; using the "
                    "current directory"};
  }
  if (problem) ReportWarning(*problem);
  call->repo = call->payload.cwd.empty() ? ProcessCwd() : call->payload.cwd;
  auto store = app::LocateWorkedIn(call->repo);
  if (!store) {
    ReportWarning(store.error());
    return false;
  }
  call->store = std::move(*store);
  return true;
}

std::string SelfBinary() {
  auto self = proc::SelfExe();
  return self ? *self : "lore";
}

int SessionStart() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  StartTeamSync(*call.store, call.repo, TeamHookEvent::kSessionStart);
  auto answer = app::StartSession(*call.store, call.payload.source, call.repo);
  if (!answer) {
    ReportWarning(answer.error());
    return kExitOk;
  }
  if (!answer->json.empty()) Print(answer->json);
  // The code's symbols for stale citations, rebuilt in the background when
  // the checkout's HEAD moved since they were read.
  if (answer->symbols) {
    auto started = proc::StartDetached({SelfBinary(), "reindex", answer->symbols->top, "--symbols"},
                                       "symbols");
    if (!started) ReportWarning(started.error());
  }
  return kExitOk;
}

// Starts what the library asked for, detached; a failure is the warning.
Status Start(const Result<hook::Command>& command, std::string_view what) {
  if (!command) return tl::unexpected(command.error());
  if (command->empty()) return Ok();
  return proc::StartDetached(*command, what);
}

// PreCompact: one detached child extracts what the transcript holds past the
// cursor, then flushes consolidation. Without a transcript, only the flush.
int PreCompact() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  const std::string binary = SelfBinary();
  bool warned = false;
  auto command = app::ExtractThenConsolidateRun(*call.store, binary, call.repo, call.payload);
  // No transcript or nothing past the cursor: no extract, but what is staged
  // is still flushed.
  if (!command || !command->empty()) {
    auto started = Start(command, "extract");
    if (started) return kExitOk;
    ReportWarning(started.error());
    warned = true;
  }
  auto started = Start(app::FlushRun(*call.store, binary, call.repo), "consolidation");
  if (!started && !warned) ReportWarning(started.error());  // one warning line at most
  return kExitOk;
}

// Stop (after each agent turn): extract, detached, once the transcript grew
// past memory.extract_threshold bytes since the cursor.
int Stop() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  // Without its payload there is no transcript to extract: the one warning
  // about the payload is all (not a second one on every turn).
  if (call.refused) return kExitOk;
  auto started = Start(app::StopRun(*call.store, SelfBinary(), call.repo, call.payload), "extract");
  if (!started) ReportWarning(started.error());
  return kExitOk;
}

int SessionEnd() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  StartTeamSync(*call.store, call.repo, TeamHookEvent::kSessionEnd);
  auto reminder = app::EndSession(*call.store, call.repo, call.payload.session_id);
  if (!reminder) {
    ReportWarning(reminder.error());
    return kExitOk;
  }
  // Extract the rest and consolidate, detached: the next session starts from
  // this one's briefing. Nothing new past the cursor: only what is staged.
  const std::string binary = SelfBinary();
  bool started_one = false;
  auto command = app::ExtractThenConsolidateRun(*call.store, binary, call.repo, call.payload);
  if (!command || !command->empty()) {
    auto started = Start(command, "extract");
    if (!started) ReportWarning(started.error());
    started_one = true;
  }
  if (!started_one) {
    auto started = Start(app::FlushRun(*call.store, binary, call.repo), "consolidation");
    if (!started) ReportWarning(started.error());
  }
  if (!reminder->empty()) Print(*reminder);
  return kExitOk;
}

// Prints a recall hook's context; with no index yet, starts `lore reindex`
// detached, so that the next prompt finds one.
void Answer(const Result<app::HookAnswer>& answer, const std::string& repo) {
  if (!answer) {
    ReportWarning(answer.error());
    return;
  }
  if (!answer->json.empty()) Print(answer->json);
  if (answer->reindex) {
    auto started = Start(hook::Command{SelfBinary(), "reindex", repo}, "reindex");
    if (!started) ReportWarning(started.error());
  }
}

// UserPromptSubmit: what memory holds on the person's prompt, as context,
// when something clears the relevance threshold (docs/recall.md).
int UserPromptSubmit() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  Answer(app::PromptRecall(*call.store, call.payload, call.repo, std::chrono::system_clock::now()),
         call.repo);
  return kExitOk;
}

// PostToolUse of a file tool: what memory says about the file, once per
// file per session.
int PostToolUse() {
  SessionCall call;
  if (!BeginSession(&call)) return kExitOk;
  Answer(app::FileRecall(*call.store, call.payload, call.repo, std::chrono::system_clock::now()),
         call.repo);
  return kExitOk;
}

constexpr HookVerb kHooks[] = {
    {"pre-tool-use", "PreToolUse: audit `lore propose` shell calls into events.jsonl", PreToolUse},
    {"session-start",
     "SessionStart: print the briefing, an index of the rest of memory and pending proposals as "
     "context",
     SessionStart},
    {"pre-compact",
     "PreCompact: extract the transcript, then `lore consolidate --flush`, in the background",
     PreCompact},
    {"session-end",
     "SessionEnd: extract the rest of the transcript and consolidate, in the background; remind "
     "of proposals",
     SessionEnd},
    {"stop",
     "Stop: extract in the background once the transcript grew past memory.extract_threshold",
     Stop},
    {"user-prompt-submit",
     "UserPromptSubmit: add what memory holds on the prompt as context, when anything is relevant",
     UserPromptSubmit},
    {"post-tool-use",
     "PostToolUse: after a Read, Edit or Write, add what memory says about that file, once per "
     "session",
     PostToolUse},
};

}  // namespace

int (*HookHandler(std::string_view event))() {
  for (const HookVerb& h : kHooks) {
    if (event == h.name) return h.run;
  }
  return nullptr;
}

void RegisterHookCommands(Registry& r) {
  auto chosen = std::make_shared<std::vector<std::pair<CLI::App*, int (*)()>>>();
  CLI::App* hook =
      r.Add("hook", "Run an agent hook (reads the hook JSON on stdin; always exits 0)", [chosen]() {
        for (const auto& [sub, run] : *chosen) {
          if (sub->parsed()) return run();
        }
        return kExitOk;
      });
  hook->require_subcommand(1);
  for (const HookVerb& h : kHooks)
    chosen->emplace_back(hook->add_subcommand(h.name, h.summary), h.run);
  r.OnParseError(hook, [](const std::string& message) {
    ReportWarning(Error{ErrorCode::kInvalidInput, message, "", 0, "see 'lore help hook'"});
    return kExitOk;
  });
}

}  // namespace lore::cli
