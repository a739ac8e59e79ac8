// Review answers (proposals/answers.h): what an agent reports as the person's
// picks, read against a fixed queue of six proposals (two batches, two with
// the same subject, so labels carry their id). The input's "@FP@" stands for
// the queue's fingerprint, so that mutations get past its check. Whatever
// is accepted presents only pending proposals, each once, and decides every
// one when answers must be whole (a partial answer leaves the proposals of
// unanswered batches undecided); and reading is deterministic.
#include <set>

#include "check.h"
#include "lore/proposals/answers.h"
#include "lore/proposals/batches.h"
#include "lore/proposals/collect.h"
#include "support/proposal_line.h"

namespace {

namespace pr = lore::proposals;

using lore::testing::ProposalLine;

const pr::ReviewSet& Set() {
  static const pr::ReviewSet set = [] {
    pr::ReviewSet s;
    s.scan = pr::ScanQueue(ProposalLine(1, "tabs, not spaces") + ProposalLine(2, "run ctest -j2") +
                           ProposalLine(3, "run ctest -j2") + ProposalLine(4, "Keep none") +
                           ProposalLine(5, "naïve UTF-8 \u2028 subject") + ProposalLine(6, "six"));
    s.pending = pr::FifoOrder(s.scan);
    return s;
  }();
  return set;
}

void Check(const pr::Answered& a, bool partial) {
  const pr::ReviewSet& set = Set();
  LORE_FUZZ_CHECK(a.presented.size() == a.decisions.size());
  std::set<size_t> seen;
  for (size_t i : a.presented) {
    LORE_FUZZ_CHECK(i < set.scan.records.size());
    LORE_FUZZ_CHECK(std::find(set.pending.begin(), set.pending.end(), i) != set.pending.end());
    LORE_FUZZ_CHECK(seen.insert(i).second);
  }
  if (partial) return;  // an unanswered batch's proposals stay undecided (queued)
  LORE_FUZZ_CHECK(a.presented.size() == set.pending.size());
  for (const auto& d : a.decisions) LORE_FUZZ_CHECK(d.verdict != pr::Verdict::kUndecided);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(lore::fuzz::Input(data, size));
  const std::string fp = pr::QueueFingerprint(Set(), Set().pending);
  for (size_t at = text.find("@FP@"); at != std::string::npos; at = text.find("@FP@", at)) {
    text.replace(at, 4, fp);
    at += fp.size();
  }
  for (bool partial : {false, true}) {
    pr::AnswerOptions o;
    o.allow_partial = partial;
    auto first = pr::ReadAnswers(text, Set(), o);
    auto again = pr::ReadAnswers(text, Set(), o);
    LORE_FUZZ_CHECK(first.has_value() == again.has_value());
    if (!first) {
      LORE_FUZZ_CHECK(!first.error().what.empty());
      LORE_FUZZ_CHECK(first.error().what == again.error().what);
      continue;
    }
    Check(*first, partial);
    LORE_FUZZ_CHECK(first->presented == again->presented);
  }
  return 0;
}
