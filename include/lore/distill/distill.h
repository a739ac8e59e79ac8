// Distilling a store into its OKF bundle (docs/distill.md, seed 003).
//
// `Distill` reads all of raw.jsonl, learnings.jsonl and the consolidated
// memory (memory/summary.md, memory/decisions/, memory/requests/) and
// rewrites okf/: index.md, a one-page digest (at most 60 lines and 4 KB)
// linking to the topic pages that have content: gotchas.md (review
// findings), slicing-outcomes.md (slicing verdicts), request-types.md
// (requests and slicing verbs), decisions.md (open decisions) and
// learnings.md (approved learnings). Other files already in okf/ are carried
// over unchanged. Every page's frontmatter has exactly title, updated, tags;
// `updated` is the date of the newest input, so the same inputs give the same
// bytes. raw.jsonl is never written. See docs/distill.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/distill/digest.h"
#include "lore/error.h"
#include "lore/store/store.h"
#include "lore/text/time.h"

namespace lore::distill {

// Called now and then with the work done so far out of `total` (bytes of
// raw.jsonl read and parsed), for a progress bar.
using Progress = std::function<void(std::string_view phase, int64_t done, int64_t total)>;

// Writes the body of index.md from the rendered pages (the deterministic
// index.md among them); `linkable` are the okf/ file names it may link to.
using DigestWriter = std::function<Result<std::string>(const std::vector<Page>& pages,
                                                       const std::vector<std::string>& linkable)>;

struct Options {
  Progress progress;  // may be empty
  // When set (`lore distill --llm`), index.md's body is its answer, checked
  // by CheckDigest; an error or a broken rule leaves okf/ as it was.
  DigestWriter digest;
  // Used only to date the skeleton of a store that does not exist yet.
  text::TimePoint now = std::chrono::system_clock::now();
};

struct Summary {
  int64_t raw_records = 0, reviews = 0, slicing = 0, findings = 0;
  int64_t learnings = 0, open_decisions = 0, requests = 0;
  std::vector<std::string> pages;  // okf/ file names written by the distiller, sorted
  bool changed = false;            // false when the bundle already had these bytes
  std::vector<Error> warnings;     // memory records skipped because they do not parse
};

// The pages as file name -> bytes, from the inputs (no writing): what
// Distill would write. Errors as for Distill.
Result<std::vector<std::pair<std::string, std::string>>> RenderBundle(const store::Store& store,
                                                                      const Options& options,
                                                                      Summary* summary);

// Creates the store when missing (as the capture verbs do), checks it as
// they do (a malformed raw line stops it
// with the same error, naming the line), builds the new bundle beside okf/
// and swaps it in atomically: a crash leaves the old bundle or the new one,
// and a leftover of an interrupted run is cleaned up by the next one.
Result<Summary> Distill(const store::Store& store, const Options& options = {});

// The one line `lore distill` prints about a run.
std::string Describe(const Summary& summary, const std::string& okf_dir);

}  // namespace lore::distill
