#include "cli/docs.h"

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "lore/version.h"

namespace lore::cli {
namespace {

// The verbs a person sees (hidden ones, with no group, stay out of the page,
// as they stay out of --help); lore's own in OrderedVerbs' order.
std::vector<const CLI::App*> Verbs(const CLI::App& app) {
  if (app.get_parent() == nullptr) return OrderedVerbs(app);
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

// The order of the top-level verbs (OrderedVerbs).
constexpr std::string_view kVerbOrder[] = {"init",          "status",
                                           "search",        "review",
                                           "serve",         "help",
                                           "propose",       "proposals",
                                           "learnings",     "memory",
                                           "consolidate",   "distill",
                                           "extract",       "import-agent-memory",
                                           "export",        "import",
                                           "mcp",           "team",
                                           "sync",          "lint",
                                           "check",         "reindex",
                                           "stage",         "completions",
                                           "hook",          "ensure",
                                           "append-review", "append-slicing",
                                           "pointer"};

size_t Rank(std::string_view verb) {
  const auto* at = std::find(std::begin(kVerbOrder), std::end(kVerbOrder), verb);
  return static_cast<size_t>(at - std::begin(kVerbOrder));
}

class Ordered : public CLI::Formatter {
 public:
  std::string make_subcommands(const CLI::App* app, CLI::AppFormatMode mode) const override {
    if (app->get_parent() != nullptr) return CLI::Formatter::make_subcommands(app, mode);
    std::ostringstream out;
    std::string group;
    for (const CLI::App* sub : OrderedVerbs(*app)) {
      if (sub->get_group() != group) {
        group = sub->get_group();
        out << "\n" << group << ":\n";
      }
      if (mode != CLI::AppFormatMode::All) {
        out << make_subcommand(sub);
      } else {
        out << sub->help(sub->get_name(), CLI::AppFormatMode::Sub) << "\n";
      }
    }
    return out.str();
  }
};

std::vector<const CLI::Option*> Options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) {
    return !o->get_group().empty() && !o->get_positional() &&
           o->get_lnames().size() + o->get_snames().size() > 0;
  });
}

std::vector<const CLI::Option*> Positionals(const CLI::App& app) {
  return app.get_options([](const CLI::Option* o) { return o->get_positional(); });
}

// Every spelling of an option: -h, --help.
std::vector<std::string> Spellings(const CLI::Option& o) {
  std::vector<std::string> out;
  for (const auto& s : o.get_snames()) out.push_back("-" + s);
  for (const auto& l : o.get_lnames()) out.push_back("--" + l);
  return out;
}

bool TakesValue(const CLI::Option& o) {
  return o.get_type_size_max() > 0 && o.get_expected_max() > 0;
}

// roff: a backslash and a leading dot or quote would be read as requests.
std::string Roff(const std::string& s) {
  std::string out;
  bool line_start = true;
  for (char c : s) {
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (line_start && (c == '.' || c == '\'')) {
      out += "\\&";
      out += c;
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string Upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

void ManVerb(const CLI::App& verb, const std::string& path, const std::string& parent_footer,
             std::string* out) {
  std::string& m = *out;
  m += ".SS \"" + Roff(path);
  for (const CLI::Option* p : Positionals(verb)) {
    std::string name = Upper(p->get_name(true));
    m += p->get_required() ? " " + name : " [" + name + "]";
  }
  m += "\"\n" + Roff(verb.get_description()) + "\n";
  for (const CLI::Option* p : Positionals(verb)) {
    m +=
        ".TP\n\\fI" + Roff(Upper(p->get_name(true))) + "\\fR\n" + Roff(p->get_description()) + "\n";
  }
  for (const CLI::Option* o : Options(verb)) {
    if (o->get_lnames() == std::vector<std::string>{"help"}) continue;
    m += ".TP\n";
    std::string names;
    for (const auto& s : Spellings(*o))
      names += (names.empty() ? "" : ", ") + ("\\fB" + Roff(s) + "\\fR");
    m += names;
    if (TakesValue(*o))
      m += " \\fI" + Roff(o->get_type_name().empty() ? "VALUE" : o->get_type_name()) + "\\fR";
    m += "\n" + Roff(o->get_description()) + "\n";
  }
  // A verb inherits its parent's footer ("Run 'lore help <verb>'..."): only its own is shown.
  if (std::string f = verb.get_footer(); !f.empty() && f != parent_footer) {
    m += ".PP\n" + Roff(f) + "\n";
  }
  for (const CLI::App* sub : Verbs(verb)) {
    ManVerb(*sub, path + " " + sub->get_name(), verb.get_footer(), out);
  }
}

// "a b c" of the names.
std::string Words(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

std::vector<std::string> OptionWords(const CLI::App& verb) {
  std::vector<std::string> out;
  for (const CLI::Option* o : Options(verb)) {
    for (const auto& s : Spellings(*o)) out.push_back(s);
  }
  return out;
}

std::vector<std::string> VerbNames(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* v : Verbs(app)) out.push_back(v->get_name());
  return out;
}

// Every verb path below the top: "memory", "memory stats", ...
std::vector<std::string> VerbPaths(const CLI::App& app) {
  std::vector<std::string> paths;
  std::vector<std::pair<std::string, const CLI::App*>> stack{{"", &app}};
  while (!stack.empty()) {
    auto [p, a] = stack.back();
    stack.pop_back();
    for (const CLI::App* sub : Verbs(*a)) {
      std::string q = p.empty() ? sub->get_name() : p + " " + sub->get_name();
      paths.push_back(q);
      stack.emplace_back(q, sub);
    }
  }
  return paths;
}

// One `case` arm per verb path ("memory stats") listing what may follow it.
void BashArms(const CLI::App& verb, const std::string& path, std::string* out) {
  std::vector<std::string> words = VerbNames(verb);
  for (const auto& o : OptionWords(verb)) words.push_back(o);
  *out += "    \"" + path + "\") words=\"" + Words(words) + "\" ;;\n";
  for (const CLI::App* sub : Verbs(verb)) {
    BashArms(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
  }
}

std::string Bash(const CLI::App& app) {
  std::string arms;
  BashArms(app, "", &arms);
  std::string s = "# bash completion for lore, generated by `lore completions bash` (lore " +
                  std::string(kVersionLine) +
                  ")\n"
                  "_lore() {\n"
                  "  local cur path word words i\n"
                  "  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
                  "  path=\"\"\n"
                  "  # The verb path so far: the words before the cursor that name verbs.\n"
                  "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
                  "    word=\"${COMP_WORDS[i]}\"\n"
                  "    case \"$word\" in -*) continue ;; esac\n"
                  "    case \"${path:+$path }$word\" in\n";
  // Only known verb paths extend the path; other words are arguments.
  for (const auto& p : VerbPaths(app)) s += "      \"" + p + "\") path=\"" + p + "\" ;;\n";
  s += "    esac\n"
       "  done\n"
       "  case \"$path\" in\n" +
       arms +
       "    *) words=\"\" ;;\n"
       "  esac\n"
       "  COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
       "  # An argument that is no verb or option: complete file names.\n"
       "  if [[ ${#COMPREPLY[@]} -eq 0 && \"$cur\" != -* ]]; then\n"
       "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
       "  fi\n"
       "}\n"
       "complete -o filenames -F _lore lore\n";
  return s;
}

// zsh: `_describe` lists of verbs with their summaries, and each verb's
// options, chosen by the verb path as in bash.
std::string ZshQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else if (c == ':') {
      out += "\\:";
    } else if (c != '\n') {
      out += c;
    } else {
      out += ' ';
    }
  }
  return out + "'";
}

void ZshArms(const CLI::App& verb, const std::string& path, std::string* out) {
  std::string& s = *out;
  s += "    \"" + path + "\")\n      verbs=(";
  for (const CLI::App* sub : Verbs(verb)) {
    s += ' ';
    s += ZshQuote(sub->get_name() + ":" + sub->get_description());
  }
  s += " )\n      opts=(";
  for (const CLI::Option* o : Options(verb)) {
    for (const auto& sp : Spellings(*o)) {
      s += ' ';
      s += ZshQuote(sp + ":" + o->get_description());
    }
  }
  s += " ) ;;\n";
  for (const CLI::App* sub : Verbs(verb))
    ZshArms(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

std::string Zsh(const CLI::App& app) {
  std::string arms;
  ZshArms(app, "", &arms);
  std::string s =
      "#compdef lore\n"
      "# zsh completion for lore, generated by `lore completions zsh` (lore " +
      std::string(kVersionLine) +
      ")\n"
      "_lore() {\n"
      "  local path_ word next\n"
      "  local -a verbs opts\n"
      "  path_=\"\"\n"
      "  for word in \"${(@)words[2,CURRENT-1]}\"; do\n"
      "    [[ $word == -* ]] && continue\n"
      "    next=\"${path_:+$path_ }$word\"\n"
      "    case \"$next\" in\n";
  for (const auto& p : VerbPaths(app)) s += "      \"" + p + "\") path_=\"$next\" ;;\n";
  s += "    esac\n"
       "  done\n"
       "  case \"$path_\" in\n" +
       arms +
       "    *) verbs=() opts=() ;;\n"
       "  esac\n"
       "  if [[ $PREFIX == -* ]]; then\n"
       "    (( ${#opts} )) && _describe -t options 'option' opts\n"
       "  elif (( ${#verbs} )); then\n"
       "    _describe -t commands 'verb' verbs\n"
       "  else\n"
       "    _files\n"
       "  fi\n"
       "}\n"
       "if [[ $zsh_eval_context[-1] == loadautofunc ]]; then\n"
       "  _lore \"$@\"\n"
       "else\n"
       "  compdef _lore lore\n"
       "fi\n";
  return s;
}

}  // namespace

std::vector<const CLI::App*> OrderedVerbs(const CLI::App& app) {
  auto verbs = app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
  std::stable_sort(verbs.begin(), verbs.end(), [](const CLI::App* a, const CLI::App* b) {
    return Rank(a->get_name()) < Rank(b->get_name());
  });
  return verbs;
}

std::shared_ptr<CLI::Formatter> OrderedFormatter() { return std::make_shared<Ordered>(); }

std::string ManPage(const CLI::App& app) {
  std::string m;
  m += ".TH LORE 1 \"\" \"lore " + Roff(kVersion) + "\" \"User Commands\"\n";
  m += ".SH NAME\nlore \\- durable, reviewable memory for AI coding agents\n";
  m += ".SH SYNOPSIS\n.B lore\n.I verb\n[\\fIoptions\\fR] [\\fIarguments\\fR]\n.br\n"
       ".B lore \\-\\-version\n.br\n.B lore help\n[\\fIverb\\fR]\n";
  m += ".SH DESCRIPTION\n"
       "lore keeps a memory for every git repository, in a private store keyed by the "
       "repository's normalised remote: an append-only log of what agents and people recorded, "
       "proposals a person keeps or declines, the learnings kept, and Markdown records "
       "consolidated from the agents' sessions. Agents reach it through hooks and an MCP "
       "server that \\fBlore init\\fR installs; people through the verbs below.\n"
       ".PP\n"
       "A \\fIrepo\\fR argument is a git remote URL, the path of a checkout, or the key of a "
       "store that exists; any other path (a typo, a folder that is no checkout) is refused.\n";
  m += ".SH VERBS\n";
  for (const CLI::App* v : Verbs(app)) ManVerb(*v, "lore " + v->get_name(), app.get_footer(), &m);
  m += ".SH ENVIRONMENT\n"
       ".TP\n.B LORE_HOME\nThe folder that holds the stores (default: "
       "\\fI$XDG_CONFIG_HOME/lore\\fR, else \\fI~/.config/lore\\fR).\n"
       ".TP\n.B LORE_COMPAT\nSet to \\fBreviewer\\-memory\\fR, lore acts as the reviewer-memory "
       "script (its four verbs, its store root, its messages).\n"
       ".TP\n.B LORE_MODEL_RUN\nSet by lore for its own model runs: every \\fBlore hook\\fR then "
       "returns at once.\n";
  m += ".SH FILES\n"
       ".TP\n.I $LORE_HOME/<key>/\nOne repository's store: \\fIraw.jsonl\\fR, "
       "\\fIproposals.jsonl\\fR, \\fIlearnings.jsonl\\fR, \\fImemory/\\fR, \\fIknowledge/\\fR, "
       "\\fIsessions/\\fR, \\fIconfig.toml\\fR, and the derived \\fIindex.sqlite\\fR.\n";
  m += ".SH EXIT STATUS\n0 on success, 1 on an error (one line on standard error naming the "
       "file, the line and the repair), 2 on a usage error; some verbs document more.\n";
  m += ".SH SEE ALSO\n\\fBlore\\-llm\\fR, \\fBlore\\-team\\fR, \\fBlore\\-archive\\fR and "
       "\\fBlore\\-serve\\fR (run by "
       "lore for the verbs that need them); the documents under "
       "\\fI/usr/share/doc/lore/\\fR.\n";
  return m;
}

std::string Completion(const CLI::App& app, std::string_view shell) {
  if (shell == "bash") return Bash(app);
  if (shell == "zsh") return Zsh(app);
  return "";
}

}  // namespace lore::cli
