// The proposal record (docs/proposals.md): one compact JSON line of
// proposals.jsonl with the keys id, created_at, wave_id, type, subject,
// insight, evidence, confidence, schema_version, then the optional
// proposed_by_agent and file_paths, in that order.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lore/json/value.h"
#include "lore/text/time.h"

namespace lore::proposals {

inline constexpr int kSchemaVersion = 1;
inline constexpr size_t kSubjectMax = 100;    // code points
inline constexpr size_t kInsightMax = 2000;   // code points
inline constexpr size_t kEvidenceMax = 5000;  // code points
// A wave id names its summary file, proposals-summary-<wave>.json, and that
// file's temporary name (about 40 bytes more): 128 keeps both far below the
// 255 bytes a file name may have.
inline constexpr size_t kWaveIdMax = 128;

// The thirteen proposal types, in the documented order.
const std::vector<std::string_view>& Types();
bool IsType(std::string_view type);
// ^[A-Za-z0-9_-]{1,128}$
bool IsWaveId(std::string_view wave);
// A wave as given (--wave, LORE_WAVE, MCP's wave, the audit event's) as lore
// keeps it. A wave names a file (its summary): secrets in it are replaced as
// in an id (redact::CleanId: a token glued to any word of it is found too),
// and a private span is dropped. A wave longer than kWaveIdMax, which is no
// wave id, is cleaned as a text (redact::Clean): the id scan is quadratic.
std::string CleanWave(std::string_view wave);

// What a proposer supplies; the rest of a record is stamped by MakeRecord.
struct Fields {
  std::string wave_id;
  std::string type;
  std::string subject;
  std::string insight;
  std::string evidence;
  double confidence = 0;
  std::optional<std::string> proposed_by_agent;
  std::vector<std::string> file_paths;  // omitted from the record when empty
};

// The record for `fields` with `id` and created_at = `now` (UTC, ms).
Json MakeRecord(const Fields& fields, const std::string& id, text::TimePoint now);

// Every rule `record` breaks, one message per broken rule, in key order
// ("subject exceeds 100 chars (got 101)"). Empty when the record is valid.
std::vector<std::string> Validate(const Json& record);

// What stops a queued record from being promoted, as the original's
// promotion decides (a record its collector shows and its learnings writer
// accepts is never refused): only id, type, subject, insight, evidence and
// confidence must be present, confidence a number in [0, 1], host_class a
// string or null and anonymized a boolean when present. Key order, extra
// keys, the id's form, created_at's form (or its absence), wave_id, unknown
// types, text lengths and schema_version (rewritten as 1) are not checked:
// lore writes what the original would. Empty when the record may be promoted.
std::vector<std::string> PromotionProblems(const Json& record);

// The checks of the text fields alone (used on flags before a record exists).
// `max` is in code points; `name` prefixes the messages.
void CheckText(std::string_view name, const Json& value, size_t max, bool required,
               std::vector<std::string>* errors);

}  // namespace lore::proposals
