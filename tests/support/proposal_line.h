// One proposals.jsonl line for tests and fuzz targets: proposal `n` (1-9)
// with `subject`, a fixed id pattern and the other required fields.
#pragma once

#include <cstdio>
#include <string>

#include "lore/json/dump_js.h"

namespace lore::testing {

inline std::string ProposalLine(int n, const std::string& subject) {
  Json r = Json::object();
  char id[40];
  std::snprintf(id, sizeof id, "%08d-2222-4222-8222-222222222222", n);
  r["id"] = id;
  char at[32];
  std::snprintf(at, sizeof at, "2026-05-0%dT00:00:00.000Z", n);
  r["created_at"] = at;
  r["type"] = "convention";
  r["subject"] = subject;
  r["evidence"] = "e";
  r["confidence"] = 0.5;
  return json::DumpJs(r) + "\n";
}

}  // namespace lore::testing
