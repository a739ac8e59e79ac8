// What a project says it is, from the files an agent reads to learn it: the
// README's opening prose, a manifest's description (package.json,
// Cargo.toml, pyproject.toml, mix.exs, …), the opening of CLAUDE.md or
// AGENTS.md. The session log keeps it beside the read's result (`about`), the
// briefing quotes it with the file it came from: text from a file, never an
// instruction.
#pragma once

#include <string>
#include <string_view>

namespace lore::activity {

// The bytes an `about` keeps at most.
inline constexpr size_t kMaxAboutBytes = 300;

// The file a read names when it is one that says what the project is
// (`README.md`, `docs/README.rst`, `package.json`, …): its base name; else
// empty. `tool` is the reading call's tool: Read takes its path; Bash a
// single `cat`, `head`, `bat` or `less` of one file.
std::string DescribingFile(std::string_view tool, std::string_view detail);

// The path a read of a DescribingFile names, as given ("/w/app/README.md",
// "docs/README.rst"); empty when DescribingFile is.
std::string DescribingPath(std::string_view tool, std::string_view detail);

// The description `contents` of the file named `name` (a DescribingFile) gives:
// one line, at most kMaxAboutBytes; empty when it gives none. Claude Code's
// line numbers ("    12→") are taken off; headings, badges, HTML comments,
// code and lines that speak to an AI agent ("ignore previous instructions")
// are never taken.
std::string AboutProject(std::string_view name, std::string_view contents);

}  // namespace lore::activity
