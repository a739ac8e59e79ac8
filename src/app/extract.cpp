#include "lore/app/extract.h"

namespace lore::app {

Result<Extracted> Extract(const store::Store& store, const ExtractRequest& request,
                          extract::Engine& engine) {
  const extract::Options& o = request.options;
  // A failed run leaves a record for `lore status` and the next session (detached
  // under a hook, nobody reads its stderr), whichever engine ran; the next run that
  // succeeds clears it. Not on a dry run.
  const bool track = !o.dry_run;
  auto outcome = extract::Extract(store, o, engine);
  if (!outcome) {
    if (track) {
      auto session = extract::SessionOf(o.transcript, o.session);
      (void)extract::RecordExtractFailure(store, session ? *session : o.session, outcome.error(),
                                          o.now);
    }
    return Fail(outcome.error());
  }
  Extracted r;
  if (track) {
    if (auto s = extract::ClearExtractFailure(store); !s) r.warnings.push_back(s.error());
  }
  r.json = extract::OutcomeJson(*outcome, o.dry_run);
  r.outcome = std::move(*outcome);
  return r;
}

}  // namespace lore::app
