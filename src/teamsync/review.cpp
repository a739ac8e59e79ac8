#include "lore/teamsync/review.h"

namespace lore::teamsync {

std::string ClaimProblem(const ClaimRow& row, std::string_view me) {
  const std::string who = "proposal " + row.id;
  if (!row.found) return who + " is not in the team queue";
  if (row.state == "kept" || row.state == "declined") {
    return who + " was already reviewed (" + row.state + ") by machine " +
           (row.reviewed_by.empty() ? "?" : row.reviewed_by);
  }
  if (row.state != "queued") return who + " is not queued team-wide (" + row.state + ")";
  if (row.claimed_by.empty()) return who + " is not claimed by this machine";
  if (row.claimed_by != me) return who + " is claimed by machine " + row.claimed_by;
  return "";
}

std::string_view SettledState(const std::string& id, const std::set<std::string>& learned,
                              const std::set<std::string>& rejected) {
  if (id.empty()) return "";
  if (learned.count(id)) return "kept";
  if (rejected.count(id)) return "declined";
  return "";
}

}  // namespace lore::teamsync
