// Agent transcripts (extract/transcript.h, extract/rules.h,
// extract/model_io.h): the bytes of a transcript file, line by line, through
// the line parser, the rules engine and the LLM engine's digest, and the same
// bytes as a model's answer. Events carry their line's number and valid
// UTF-8, and only lines classed as used give any; digest lines are one line
// each and bounded; a line's gitBranch and cwd are one bounded line each;
// what either engine produces is within the entry's bounds
// and, with lore's source set, renders to a staged entry that parses back to
// itself. Every event the session log keeps renders to a line that parses
// back to the same event; a call keeps a change only when it writes a file,
// within the log's cap.
#include <algorithm>

#include "activity/session_log.h"
#include "check.h"
#include "lore/consolidate/staged_entry.h"
#include "lore/extract/engine.h"
#include "lore/extract/model_io.h"
#include "lore/extract/rules.h"
#include "lore/extract/transcript.h"
#include "lore/text/utf8.h"

namespace {

namespace cons = lore::consolidate;
namespace ex = lore::extract;

bool Bounded(const std::string& s, size_t max) {
  return s.size() <= max && lore::text::IsValidUtf8(s);
}

// At most `max` bytes of one line without a control character (C0, DEL).
bool OneLine(const std::string& s, size_t max) {
  return Bounded(s, max) && std::none_of(s.begin(), s.end(), [](char c) {
           const auto u = static_cast<unsigned char>(c);
           return u < 0x20 || u == 0x7F;
         });
}

// `capped`: the LLM engine's lists, kMaxItems each; the rules engine ranks
// its items within kEntryBudget instead.
void CheckEntry(cons::StagedEntry entry, uint64_t last_line, bool capped) {
  if (capped) {
    LORE_FUZZ_CHECK(entry.decisions.size() <= ex::kMaxItems);
    LORE_FUZZ_CHECK(entry.discussions.size() <= ex::kMaxItems);
    LORE_FUZZ_CHECK(entry.attempts.size() <= ex::kMaxItems);
    LORE_FUZZ_CHECK(entry.requests.size() <= ex::kMaxItems);
  }
  if (ex::IsEmpty(entry)) return;
  entry.source.session_id = "fuzz";
  entry.source.range = {1, std::max<uint64_t>(1, last_line)};
  const std::string rendered = cons::RenderStagedEntry(entry);
  LORE_FUZZ_CHECK(rendered.size() <= cons::kMaxStagedEntryBytes);
  auto back = cons::ParseStagedEntry(rendered, "staging/fuzz.json");
  LORE_FUZZ_CHECK(back.has_value());
  LORE_FUZZ_CHECK(cons::RenderStagedEntry(*back) == rendered);
}

// The rules engine's own bounds on each excerpt (docs/extract.md).
void CheckRulesItems(const cons::StagedEntry& e) {
  for (const auto& d : e.decisions) {
    LORE_FUZZ_CHECK(d.options.size() <= ex::kMaxOptions);
    for (const auto& o : d.options) LORE_FUZZ_CHECK(Bounded(o, ex::kShortExcerpt));
    LORE_FUZZ_CHECK(Bounded(d.chosen, ex::kShortExcerpt));
    LORE_FUZZ_CHECK(Bounded(d.rationale, ex::kLongExcerpt));
  }
  for (const auto& d : e.discussions) {
    LORE_FUZZ_CHECK(Bounded(d.topic, ex::kShortExcerpt));
    LORE_FUZZ_CHECK(d.points.size() <= ex::kMaxPoints);
    for (const auto& p : d.points) LORE_FUZZ_CHECK(Bounded(p, ex::kLongExcerpt));
  }
  for (const auto& a : e.attempts) {
    LORE_FUZZ_CHECK(Bounded(a.action, ex::kLongExcerpt));
    LORE_FUZZ_CHECK(Bounded(a.result, ex::kLongExcerpt));
    LORE_FUZZ_CHECK(Bounded(a.fix, ex::kLongExcerpt));
    LORE_FUZZ_CHECK(lore::text::IsValidUtf8(a.cause) && a.cause.size() <= 300);
  }
  size_t bytes = 0;
  for (const auto& r : e.requests) bytes += r.intent.size() + r.summary.size();
  LORE_FUZZ_CHECK(bytes <= ex::kEntryBudget);
  for (const auto& r : e.requests) {
    LORE_FUZZ_CHECK(Bounded(r.intent, ex::kShortExcerpt));
    LORE_FUZZ_CHECK(Bounded(r.summary, ex::kLongExcerpt));
    if (r.target) LORE_FUZZ_CHECK(Bounded(*r.target, ex::kShortExcerpt));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = lore::fuzz::Input(data, size);
  ex::RulesEngine rules;
  ex::Digester digest;
  lore::activity::LogBuilder log;
  const lore::activity::LogCaps caps;
  int64_t number = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(text.find('\n', at), text.size());
    ex::ParsedLine parsed = ex::ParseTranscriptLine(text.substr(at, end - at), ++number);
    at = end + 1;
    LORE_FUZZ_CHECK((parsed.cls == ex::LineClass::kUsed) == !parsed.events.empty());
    // Where the session ran passed the gate of one-line fields (issue 38).
    LORE_FUZZ_CHECK(OneLine(parsed.branch, ex::kMaxBranchBytes));
    LORE_FUZZ_CHECK(OneLine(parsed.cwd, ex::kMaxCwdBytes));
    if (!parsed.cwd.empty()) rules.Checkout(parsed.cwd);  // as lore extract does
    for (const ex::Event& e : parsed.events) {
      LORE_FUZZ_CHECK(e.line == number);
      LORE_FUZZ_CHECK(lore::text::IsValidUtf8(e.text) && lore::text::IsValidUtf8(e.detail));
      if (e.kind == ex::EventKind::kToolResult)
        LORE_FUZZ_CHECK(e.text.size() <= ex::kMaxResultText + 8);  // head, "\n…\n", tail
      const std::string line = digest.Line(e);
      LORE_FUZZ_CHECK(line.find('\n') == std::string::npos);
      LORE_FUZZ_CHECK(line.size() <= ex::kDigestTextBytes + 128);
      LORE_FUZZ_CHECK(rules.Take(e).has_value());
      if (e.kind == ex::EventKind::kToolUse)
        LORE_FUZZ_CHECK(e.text.empty() || lore::activity::IsFileEditTool(e.tool_name));
      if (auto kept = log.Add(e)) {
        if (kept->kind == ex::EventKind::kToolUse)
          LORE_FUZZ_CHECK(kept->text.size() <= caps.change + 3);  // "…"
        lore::activity::LogLine back;
        LORE_FUZZ_CHECK(lore::activity::ParseLogLine(lore::activity::RenderEvent(*kept), &back));
        LORE_FUZZ_CHECK(!back.is_span && back.event.kind == kept->kind);
        LORE_FUZZ_CHECK(back.event.text == kept->text && back.event.detail == kept->detail);
        LORE_FUZZ_CHECK(back.event.note == kept->note && back.event.line == kept->line);
      }
    }
  }
  auto entry = rules.Finish();
  LORE_FUZZ_CHECK(entry.has_value());
  CheckRulesItems(*entry);
  CheckEntry(*std::move(entry), static_cast<uint64_t>(number), /*capped=*/false);

  auto answer = ex::ParseModelAnswer(text);
  if (!answer) {
    LORE_FUZZ_CHECK(!answer.error().what.empty());
  } else {
    CheckEntry(*std::move(answer), 1, /*capped=*/true);
  }
  return 0;
}
