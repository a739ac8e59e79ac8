#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include "cli/command.h"
#include "cli/docs.h"
#include "cli/exec_llm.h"
#include "cli/io.h"
#include "cli/reviewer_memory.h"
#include "lore/fs/fd.h"
#include "lore/text/edit_distance.h"
#include "lore/version.h"

namespace lore::cli {

CLI::App* Registry::Add(const std::string& name, const std::string& summary,
                        std::function<int()> run) {
  CLI::App* sub = app_.add_subcommand(name, summary);
  names_.push_back(name);
  runners_.emplace_back(sub, std::move(run));
  return sub;
}

void Registry::Forward(const std::string& name, const std::string& summary,
                       const std::string& program, Error missing) {
  auto run = [name, program, missing](std::vector<std::string> words) {
    words.insert(words.begin(), name);
    return ExecBesideLore(program, std::move(words), missing);
  };
  CLI::App* sub = Add(name, summary, nullptr);
  sub->prefix_command();  // every word, options and --help included, is the program's
  sub->allow_extras();
  sub->set_help_flag();
  runners_.back().second = [sub, run] { return run(sub->remaining()); };
  forwarded_.emplace_back(name, run);
}

std::function<int(std::vector<std::string>)> Registry::Forwarded(const std::string& name) const {
  for (const auto& [verb, run] : forwarded_) {
    if (verb == name) return run;
  }
  return nullptr;
}

std::function<int()> Registry::Chosen() const {
  for (const auto& [sub, run] : runners_) {
    if (sub->parsed()) return run;
  }
  return nullptr;
}

void Registry::OnParseError(CLI::App* sub, std::function<int(const std::string&)> handler) {
  parse_error_handlers_.emplace_back(sub, std::move(handler));
}

std::function<int(const std::string&)> Registry::ParseErrorHandler() const {
  for (const auto& [sub, handler] : parse_error_handlers_) {
    if (sub->parsed()) return handler;
  }
  return nullptr;
}

namespace {

// "did you mean" for a mistyped verb: the closest verbs within distance 2.
std::string Suggest(const std::string& word, const std::vector<std::string>& verbs) {
  std::string best;
  size_t best_d = 3;
  for (const auto& v : verbs) {
    size_t d = text::EditDistance(word, v, 2);
    if (d < best_d || (v.rfind(word, 0) == 0 && best.empty() && word.size() >= 3)) {
      best_d = std::min(d, best_d);
      best = v;
    }
  }
  return best;
}

// Every verb, by the function that registers it. A verb missing here is
// still listed by 'lore --help' but cannot run: tests/e2e/cli_test.cpp runs
// '<verb> --help' for every verb that help lists.
struct VerbGroup {
  std::vector<std::string_view> verbs;
  void (*add)(Registry&);
};

const std::vector<VerbGroup> kGroups = {
    {{"ensure", "append-review", "append-slicing", "pointer", "check"}, RegisterCaptureCommands},
    {{"export", "import"}, RegisterArchiveCommands},
    {{"serve"}, RegisterServeCommands},
    {{"distill"}, RegisterDistillCommands},
    {{"mcp"}, RegisterMcpCommands},
    {{"propose", "proposals", "review"}, RegisterProposalCommands},
    {{"hook"}, RegisterHookCommands},
    {{"memory"}, RegisterMemoryCommands},
    {{"lint"}, RegisterLintCommands},
    {{"search", "reindex"}, RegisterSearchCommands},
    {{"stage", "consolidate", "status"}, RegisterConsolidateCommands},
    {{"extract"}, RegisterExtractCommands},
    {{"init"}, RegisterInitCommands},
    {{"learnings"}, RegisterLearningsCommands},
    {{"team", "sync"}, RegisterTeamCommands},
    {{"import-agent-memory"}, RegisterAgentMemoryCommands},
};

const VerbGroup* FindGroup(std::string_view verb) {
  for (const VerbGroup& g : kGroups) {
    if (std::find(g.verbs.begin(), g.verbs.end(), verb) != g.verbs.end()) return &g;
  }
  return nullptr;
}

const char* const kReviewerMemoryVerbs = "ensure, append-review, append-slicing, pointer";

// lore as seed 003's script: its four verbs only, its name on every line.
int MainAsReviewerMemory(int argc, char** argv) {
  ActAsReviewerMemory();
  // Env::FromProcess (the default store root, the skeleton's title) and any
  // child read the flavour from here.
  ::setenv("LORE_COMPAT", "reviewer-memory", 1);
  const std::string name(kReviewerMemory);
  CLI::App app{"Maintain the local reviewer-memory store (lore " + std::string(kVersion) + ")",
               name};
  app.set_version_flag("--version", name + " (lore " + kVersionLine + ")");
  app.require_subcommand(1, 1);
  Registry reg(app);
  RegisterReviewerMemoryCommands(reg);
  if (argc >= 2 && argv[1][0] != '-') {
    const auto& names = reg.names();
    if (std::find(names.begin(), names.end(), std::string(argv[1])) == names.end()) {
      std::cerr << name << ": unknown verb '" << argv[1] << "'; choose from "
                << kReviewerMemoryVerbs << "\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << name << ": " << e.what() << "; usage: " << name
              << " {ensure,append-review,append-slicing,pointer} <repo>\n";
    return kExitUsage;
  }
  if (auto run = reg.Chosen()) return run();
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace

int Main(int argc, char** argv) {
  // reviewer-memory busybox-style (a link named so), or asked for by LORE_COMPAT.
  bool as_reviewer_memory = argc >= 1 && fs::Basename(argv[0]) == kReviewerMemory;
  if (const char* compat = std::getenv("LORE_COMPAT"); compat && *compat) {
    if (compat != kReviewerMemory) {
      std::cerr << "lore: unknown LORE_COMPAT value '" << compat
                << "'; unset it, or set it to 'reviewer-memory'\n";
      return kExitUsage;
    }
    as_reviewer_memory = true;
  }
  if (as_reviewer_memory) return MainAsReviewerMemory(argc, argv);

  // A model run's own Claude Code session (the claude-code back end sets
  // LORE_MODEL_RUN): its hooks do nothing, so that a consolidation can never
  // start an extraction that starts another consolidation.
  if (argc >= 2 && std::strcmp(argv[1], "hook") == 0 && std::getenv("LORE_MODEL_RUN") != nullptr) {
    return kExitOk;
  }
  // Hooks run on every tool call and take no option: `lore hook <event>`
  // skips building the command table (half of such a run's instructions).
  if (argc == 3 && std::strcmp(argv[1], "hook") == 0) {
    if (auto run = HookHandler(argv[2])) return run();
  }

  // `lore import agent-memory ...` is lore's own verb, import-agent-memory;
  // every other `lore import` goes to lore-archive.
  std::vector<char*> mapped;
  if (argc >= 3 && std::strcmp(argv[1], "import") == 0 &&
      std::strcmp(argv[2], "agent-memory") == 0) {
    static char verb[] = "import-agent-memory";
    mapped.push_back(argv[0]);
    mapped.push_back(verb);
    for (int i = 3; i < argc; ++i) mapped.push_back(argv[i]);
    mapped.push_back(nullptr);
    argc = static_cast<int>(mapped.size()) - 1;
    argv = mapped.data();
  }

  CLI::App app{"lore: durable, reviewable memory for AI coding agents", "lore"};
  app.set_version_flag("--version", std::string("lore ") + kVersionLine);
  app.require_subcommand(0, 1);
  app.footer("Run 'lore help <verb>' for the options of one verb.");
  app.formatter(OrderedFormatter());  // the everyday verbs first (cli/docs.h)
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {  // what CLI11 prints, sooner
    std::cout << "lore " << kVersionLine << "\n";
    return kExitOk;
  }
  Registry reg(app);
  // Building a verb's options costs more than the rest of start-up, and hooks
  // run lore on every tool call: when the first word names a verb, only that
  // verb's group is built. Help and unknown words build them all.
  const char* first = argc >= 2 && argv[1][0] != '-' ? argv[1] : nullptr;
  const VerbGroup* group = first ? FindGroup(first) : nullptr;
  if (group) {
    group->add(reg);
  } else {
    for (const VerbGroup& g : kGroups) g.add(reg);
  }

  std::string topic;
  bool man = false;
  CLI::App* help = app.add_subcommand("help", "Show this help, or the options of one verb");
  help->add_option("verb", topic, "The verb to explain");
  help->add_flag("--man", man, "Print the manual page lore(1), in roff, made from this table");
  std::string shell;
  CLI::App* completions = app.add_subcommand("completions", "Print a shell completion script");
  completions->add_option("shell", shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));

  if (first && !group) {
    std::string verb = first;
    const auto& names = reg.names();
    if (verb != "help" && verb != "completions" &&
        std::find(names.begin(), names.end(), verb) == names.end()) {
      std::string msg = "lore: unknown verb '" + verb + "'";
      if (std::string s = Suggest(verb, names); !s.empty()) msg += "; did you mean '" + s + "'?";
      std::cerr << msg << "\nRun 'lore --help' for the list of verbs.\n";
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    if (auto handler = reg.ParseErrorHandler()) return handler(e.what());
    std::cerr << "lore: " << e.what() << "\nRun 'lore help";
    for (const CLI::App* sub : app.get_subcommands()) std::cerr << ' ' << sub->get_name();
    std::cerr << "' for usage.\n";
    return kExitUsage;
  }

  if (completions->parsed()) {
    std::cout << Completion(app, shell);
    return kExitOk;
  }
  if (help->parsed()) {
    if (man) {
      std::cout << ManPage(app);
      return kExitOk;
    }
    if (topic.empty()) {
      // lore's own help: app.help() would show the chosen subcommand's, `help`.
      std::cout << app.get_formatter()->make_help(&app, "lore", CLI::AppFormatMode::Normal);
      return kExitOk;
    }
    if (auto forward = reg.Forwarded(topic)) return forward({"--help"});
    try {
      std::cout << app.get_subcommand(topic)->help("lore");
      return kExitOk;
    } catch (const CLI::OptionNotFound&) {
      std::string msg = "lore: no verb named '" + topic + "'";
      if (std::string s = Suggest(topic, reg.names()); !s.empty())
        msg += "; did you mean '" + s + "'?";
      std::cerr << msg << "\n";
      return kExitUsage;
    }
  }
  if (auto run = reg.Chosen()) return run();
  std::cerr << app.help();
  return kExitUsage;
}

}  // namespace lore::cli
