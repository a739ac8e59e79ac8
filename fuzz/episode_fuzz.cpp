// The episode reader and what else reads a session (activity/episodes.h,
// activity/outcomes.h, activity/card.h, activity/session_log.h): the bytes as
// transcript lines, through the line parser and the session log's builder,
// each logged event rendered as a log line and parsed back to itself, then the
// whole log through the episode and outcome readers and the session card.
// What a read README or manifest says the project is (`about`) is one bounded line;
// what a file-writing call defines (`defines`) is bounded.
// Episodes and outcomes stay within the lines read; every text is
// valid UTF-8 and bounded; signatures are short; nothing loops (libFuzzer's
// timeout).
#include "activity/about.h"
#include "activity/card.h"
#include "activity/session_log.h"
#include "check.h"
#include "lore/activity/episodes.h"
#include "lore/activity/outcomes.h"
#include "lore/extract/transcript.h"
#include "lore/text/utf8.h"

namespace {

namespace act = lore::activity;
namespace ex = lore::extract;

bool Text(const std::string& s, size_t max) {
  return s.size() <= max && lore::text::IsValidUtf8(s);
}

bool SameEvent(const act::Event& a, const act::Event& b) {
  return a.kind == b.kind && a.line == b.line && a.at == b.at && a.text == b.text &&
         a.tool_name == b.tool_name && a.tool_id == b.tool_id && a.detail == b.detail &&
         a.note == b.note && a.status == b.status && a.reason == b.reason &&
         a.exit_code == b.exit_code && a.about == b.about && a.defines == b.defines;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = lore::fuzz::Input(data, size);
  act::LogBuilder builder;
  act::SessionLog log;
  log.session_id = "fuzz";
  int64_t number = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = std::min(text.find('\n', at), text.size());
    ex::ParsedLine parsed = ex::ParseTranscriptLine(text.substr(at, end - at), ++number);
    at = end + 1;
    for (const act::Event& e : parsed.events) {
      auto logged = builder.Add(e);
      if (!logged) continue;
      const std::string line = act::RenderEvent(*logged);
      LORE_FUZZ_CHECK(line.find('\n') == std::string::npos);
      act::LogLine back;
      LORE_FUZZ_CHECK(act::ParseLogLine(line, &back));
      LORE_FUZZ_CHECK(!back.is_span && SameEvent(back.event, *logged));
      LORE_FUZZ_CHECK(Text(logged->about, act::kMaxAboutBytes));
      LORE_FUZZ_CHECK(logged->about.find('\n') == std::string::npos);
      LORE_FUZZ_CHECK(Text(logged->defines, 400));
      log.events.push_back(std::move(*logged));
    }
  }
  log.spans.push_back(act::Span{1, std::max<int64_t>(1, number), "fuzz", "", "", "", ""});

  act::EpisodeReader reader;
  for (const auto& e : log.events) reader.Take(e);
  for (const auto& ep : reader.Finish()) {
    LORE_FUZZ_CHECK(1 <= ep.first_line && ep.first_line <= ep.last_line && ep.last_line <= number);
    LORE_FUZZ_CHECK(Text(ep.action, 400) && Text(ep.error, 400) && Text(ep.cause, 300) &&
                    Text(ep.fix, 400));
    LORE_FUZZ_CHECK(Text(act::ErrorSignature(ep.error), 160));
  }
  act::OutcomeReader outcomes;
  for (const auto& e : log.events) outcomes.Take(e);
  for (const auto& o : outcomes.Finish()) {
    LORE_FUZZ_CHECK(o.first_line <= o.last_line && o.last_line <= number);
    LORE_FUZZ_CHECK(Text(o.what, 400) && Text(o.detail, 400));
  }
  const act::SessionCard card = act::ReadCard(log);
  LORE_FUZZ_CHECK(Text(card.task, 400) && Text(card.closing, 800));
  LORE_FUZZ_CHECK(Text(card.about, act::kMaxAboutBytes) && Text(card.about_file, 4096));
  for (const auto& t : card.turns) LORE_FUZZ_CHECK(Text(t.ask, 400) && Text(t.report, 1000));
  for (const auto& f : act::Failures(log)) LORE_FUZZ_CHECK(Text(f.signature, 160));
  return 0;
}
