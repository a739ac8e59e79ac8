// Turning an approved proposal into a line of learnings.jsonl and a declined
// one into a line of proposals.rejected.jsonl (docs/proposals.md), with
// the keys in the order the original tool writes them.
#pragma once

#include <string>
#include <string_view>

#include "lore/json/value.h"
#include "lore/learnings/lifecycle.h"
#include "lore/text/time.h"

namespace lore::proposals {

// Days a learning of `type` stays valid (docs/learnings.md); the table
// lives with the rest of the lifecycle in lore/learnings/lifecycle.h.
using learnings::TtlDays;

// The learning for `record`: proposed_by_agent dropped; schema_version 1;
// then source_session, scope "local", occurrences 1, _provenance
// "agent-proposed@<wave_id>", expires_at (created_at + TTL, or now + TTL when
// created_at does not parse), host_class null, anonymized false. Other keys
// keep their places.
Json ToLearning(const Json& record, std::string_view session_id, text::TimePoint now);

// The record with _rejected_reason and _rejected_at (UTC, ms) added.
Json ToRejected(const Json& record, std::string_view reason, text::TimePoint at);

// The three reasons a proposal is declined for.
bool IsRejectReason(std::string_view reason);

}  // namespace lore::proposals
