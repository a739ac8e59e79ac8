// Verbs `lore memory read|write|edit|replace <repo> <kind> [<slug>]`: the
// record operations of memory/records.h (docs/records.md).
#include <memory>

#include "cli/command.h"
#include "cli/io.h"
#include "cli/record_flags.h"
#include "lore/app/memory.h"
#include "lore/app/recall.h"
#include "lore/app/store.h"
#include "lore/json/dump_js.h"
#include "lore/json/value.h"

namespace lore::cli {
namespace {

struct MemoryArgs {
  std::string repo;
  std::string kind;
  std::string slug;
  std::string by;
  bool json = false;
  app::RecordEdits flags;
  std::string id;  // stats, pin, unpin, open: an item id
  int top = 20;
};

struct Resolved {
  store::Store store;
  doc::Kind kind;
  std::string slug;
};

// Locates the store and checks the kind and slug; nullopt after reporting a
// usage error (exit 2) or an error (exit 1) into `*exit`.
std::optional<Resolved> Resolve(const MemoryArgs& a, int* exit) {
  auto name = app::NameRecord(a.kind, a.slug);
  if (!name) {
    ReportError(name.error());
    *exit = kExitUsage;
    return std::nullopt;
  }
  auto store = app::LocateStore(a.repo);
  if (!store) {
    *exit = ReportError(store.error());
    return std::nullopt;
  }
  return Resolved{std::move(*store), name->kind, std::move(name->slug)};
}

// The warnings of a change first, then its outcome.
int ReportOutcome(app::RecordChange change, bool json) {
  for (const Error& w : change.warnings) ReportWarning(w);
  auto& r = change.outcome;
  if (!r) return ReportError(r.error());
  const auto& o = *r;
  if (json) {
    Json j;
    j["ok"] = o.ok();
    j["written"] = o.written;
    j["path"] = o.path;
    j["errors"] = o.report.Errors();
    j["warnings"] = o.report.Warnings();
    j["findings"] = o.report.FindingsJson();
    Print(j.dump());
    return o.ok() ? kExitOk : kExitError;
  }
  std::string err;
  for (const auto& f : o.report.findings) err += "lore: " + f.Format() + "\n";
  if (!o.ok()) {
    size_t n = o.report.Errors();
    err += "lore: nothing written: " + std::to_string(n) + (n == 1 ? " error" : " errors") +
           " in " + o.path + "\n";
  }
  PrintError(err);
  if (!o.ok()) return kExitError;
  Print(o.path);
  return kExitOk;
}

int RunRead(const MemoryArgs& a) {
  int exit = kExitOk;
  auto r = Resolve(a, &exit);
  if (!r) return exit;
  auto text = app::ReadRecord(r->store, r->kind, r->slug);
  if (!text) return ReportError(text.error());
  Print(*text, false);
  return kExitOk;
}

// The record text for write/edit without flags: all of stdin.
Result<std::string> InputText() {
  LORE_ASSIGN(std::string text, ReadStdin());
  if (text.empty()) {
    return Fail(ErrorCode::kInvalidInput, "no record on standard input", "<stdin>", 0,
                "send the whole record (---, frontmatter, ---, body), or use --set/--body");
  }
  return text;
}

int RunWrite(const MemoryArgs& a) {
  int exit = kExitOk;
  auto r = Resolve(a, &exit);
  if (!r) return exit;
  if (a.flags.Any()) {
    return ReportOutcome(
        app::WriteRecordFrom(r->store, r->kind, r->slug, a.flags, std::chrono::system_clock::now()),
        a.json);
  }
  auto text = InputText();
  if (!text) return ReportError(text.error());
  return ReportOutcome(app::WriteRecord(r->store, r->kind, r->slug, *text), a.json);
}

int RunEdit(const MemoryArgs& a) {
  int exit = kExitOk;
  auto r = Resolve(a, &exit);
  if (!r) return exit;
  if (!a.flags.Any()) {
    return ReportOutcome(
        app::EditRecordText(r->store, r->kind, r->slug, [] { return InputText(); }), a.json);
  }
  return ReportOutcome(
      app::EditRecordWith(r->store, r->kind, r->slug, a.flags, std::chrono::system_clock::now()),
      a.json);
}

int RunReplace(const MemoryArgs& a) {
  int exit = kExitOk;
  auto r = Resolve(a, &exit);
  if (!r) return exit;
  return ReportOutcome(
      app::ReplaceRecord(r->store, r->kind, r->slug, a.by, std::chrono::system_clock::now()),
      a.json);
}

// `lore memory stats|pin|unpin|open <repo> …`: the usage log (docs/recall.md).
int RunStats(const MemoryArgs& a) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto stats = app::Usage(*store);
  if (!stats) return ReportError(stats.error());
  if (a.json) {
    Print(json::DumpJs(app::UsageJson(*stats, a.top)));
    return kExitOk;
  }
  std::string out = std::to_string(stats->items.size()) + " items used: shown " +
                    std::to_string(stats->shown) + " times, opened " +
                    std::to_string(stats->opened) + " times; " + std::to_string(stats->pinned) +
                    " pinned; unused items age out after " + std::to_string(stats->unused_days) +
                    " days (recall.unused_days)\n";
  int n = 0;
  for (const app::ItemStats& i : stats->items) {
    if (a.top >= 0 && n++ >= a.top) break;
    out += "  " + i.id + "  shown " + std::to_string(i.shown) + ", opened " +
           std::to_string(i.opened) + ", last " + (i.last_used.empty() ? "never" : i.last_used) +
           (i.pinned ? ", pinned" : "") + "\n";
  }
  if (stats->bad_lines > 0) {
    out +=
        std::to_string(stats->bad_lines) + " lines of usage.jsonl are not usage events (skipped)\n";
  }
  Print(out, false);
  return kExitOk;
}

int RunPin(const MemoryArgs& a, bool pin) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  if (auto s = app::PinItem(*store, a.id, pin, std::chrono::system_clock::now()); !s)
    return ReportError(s.error());
  Print(std::string(pin ? "pinned " : "unpinned ") + a.id);
  return kExitOk;
}

int RunOpen(const MemoryArgs& a) {
  auto store = app::LocateStore(a.repo);
  if (!store) return ReportError(store.error());
  auto item = app::OpenItem(*store, a.id, "cli", std::chrono::system_clock::now());
  if (!item) return ReportError(item.error());
  Print(item->text);
  return kExitOk;
}

CLI::App* AddVerb(CLI::App* memory, const std::string& name, const std::string& summary,
                  MemoryArgs& a) {
  CLI::App* sub = memory->add_subcommand(name, summary);
  sub->add_option("repo", a.repo, "A git remote URL or the path of a checkout")->required();
  sub->add_option("kind", a.kind, "summary, decision, request, knowledge or workflow")->required();
  sub->add_option("slug", a.slug, "The record's id and file name (optional for the summary)");
  return sub;
}

}  // namespace

void RegisterMemoryCommands(Registry& r) {
  auto a = std::make_shared<MemoryArgs>();
  auto subs = std::make_shared<std::vector<std::pair<CLI::App*, int (*)(const MemoryArgs&)>>>();
  CLI::App* memory = r.Add("memory", "Read and write memory and knowledge records", [a, subs]() {
    for (const auto& [sub, run] : *subs) {
      if (sub->parsed()) return run(*a);
    }
    return kExitUsage;
  });
  memory->require_subcommand(1);
  memory->footer(
      "Kinds: summary (memory/summary.md), decision (memory/decisions/), request "
      "(memory/requests/), knowledge (knowledge/), workflow (memory/workflow/, read only).\n"
      "write and edit take the whole record (---, frontmatter, ---, body) on standard input, "
      "or build it from --set, --source and --body. See docs/records.md.");
  CLI::App* read = AddVerb(memory, "read", "Print a record's file exactly as it is", *a);
  CLI::App* write =
      AddVerb(memory, "write", "Create a record (linted first; never overwrites)", *a);
  AddRecordFlags(write, a->flags, false);
  write->add_flag("--json", a->json, "Print the outcome as JSON");
  CLI::App* edit = AddVerb(memory, "edit", "Change an existing record (linted first)", *a);
  AddRecordFlags(edit, a->flags, true);
  edit->add_flag("--json", a->json, "Print the outcome as JSON");
  CLI::App* replace =
      AddVerb(memory, "replace", "Mark a record superseded: status replaced, replaced_by", *a);
  replace->add_option("--by", a->by, "The slug of the record that replaces this one")->required();
  replace->add_flag("--json", a->json, "Print the outcome as JSON");
  CLI::App* stats = memory->add_subcommand(
      "stats", "How often each item was shown to the agent and opened, and which are pinned");
  stats->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
  stats->add_option("--top", a->top, "At most this many items (default 20; -1: all)");
  stats->add_flag("--json", a->json, "Print the figures as JSON");
  auto item_verb = [&](const char* name, const char* summary) {
    CLI::App* sub = memory->add_subcommand(name, summary);
    sub->add_option("repo", a->repo, "A git remote URL or the path of a checkout")->required();
    sub->add_option("id", a->id, "The item's id, as recall and `lore search --json` give it")
        ->required();
    return sub;
  };
  CLI::App* pin = item_verb("pin", "Keep an item in recall however long it goes unused");
  CLI::App* unpin = item_verb("unpin", "Let a pinned item age out again when unused");
  CLI::App* open = item_verb("open", "Print an item whole by its id (counted as opened)");
  *subs = {{read, RunRead},
           {write, RunWrite},
           {edit, RunEdit},
           {replace, RunReplace},
           {stats, RunStats},
           {pin, [](const MemoryArgs& m) { return RunPin(m, true); }},
           {unpin, [](const MemoryArgs& m) { return RunPin(m, false); }},
           {open, RunOpen}};
}

}  // namespace lore::cli
