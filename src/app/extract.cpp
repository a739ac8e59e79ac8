#include "lore/app/extract.h"

#include <exception>

#include "lore/app/recall.h"
#include "lore/extract/rules.h"
#include "lore/extract/settings.h"
#include "lore/text/time.h"

namespace lore::app {

Result<Extracted> Extract(const store::Store& store, const ExtractRequest& request,
                          extract::Engine& engine) {
  const extract::Options& o = request.options;
  // A failed run leaves a record for `lore status` and the next session (detached
  // under a hook, nobody reads its stderr), whichever engine ran; the next run that
  // succeeds clears it. Not on a dry run.
  const bool track = !o.dry_run;
  // A bug in an engine is a failed run, recorded like any other.
  auto outcome = [&]() -> Result<extract::Outcome> {
    try {
      return extract::Extract(store, o, engine);
    } catch (const std::exception& x) {
      return tl::unexpected(Error{
          ErrorCode::kInternal,
          std::string("the ") + std::string(engine.name()) + " extraction failed: " + x.what(),
          o.transcript, 0, "the next run starts again from the cursor; report this bug"});
    }
  }();
  const std::string engine_name(engine.name());
  if (!outcome) {
    if (track) {
      // An id the gate refused is not kept: the error says what was wrong with it.
      auto session = extract::SessionOf(o.transcript, o.session);
      const std::string id = session ? *session : "";
      (void)extract::RecordExtractFailure(store, id, outcome.error(), o.now);
      (void)extract::RecordLastExtract(
          store, {text::UtcSeconds(o.now), id, engine_name, "failed", outcome.error().Format()});
    }
    return Fail(outcome.error());
  }
  Extracted r;
  if (track) {
    if (auto s = extract::ClearExtractFailure(store); !s) r.warnings.push_back(s.error());
    if (auto s = extract::RecordLastExtract(store, {text::UtcSeconds(o.now), outcome->session_id,
                                                    engine_name, outcome->status, ""});
        !s)
      r.warnings.push_back(s.error());
  }
  // The session log grew: the prompt-time hooks read the index as it is, so
  // it is brought up to date here, in the background run, never on the hot path.
  if (track) {
    if (auto updated = RefreshIndex(store); !updated) r.warnings.push_back(updated.error());
  }
  r.json = extract::OutcomeJson(*outcome, o.dry_run);
  r.outcome = std::move(*outcome);
  return r;
}

Result<Extracted> ExtractWithRules(const store::Store& store, const ExtractRequest& request) {
  extract::RulesEngine rules;
  return Extract(store, request, rules);
}

Result<std::string> ExtractEngine(const store::Store& store, const std::string& asked) {
  // Read even when --engine is given: a config.toml that does not parse is
  // said before anything runs.
  LORE_ASSIGN(extract::Settings settings, extract::LoadSettings(store));
  return asked.empty() ? settings.engine : asked;
}

Result<std::string> RebuildFromSessionLogs(const store::Store& store, const std::string& session,
                                           text::TimePoint now) {
  LORE_TRY(store.Ensure(now, store::RawCheck::kSkip));
  LORE_ASSIGN(extract::RebuildOutcome outcome, extract::Rebuild(store, session, now));
  return extract::RebuildJson(outcome);
}

}  // namespace lore::app
