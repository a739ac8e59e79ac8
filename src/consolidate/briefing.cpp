#include "consolidate/briefing.h"

#include <algorithm>
#include <map>
#include <set>

#include "activity/excerpt.h"
#include "consolidate/bullets.h"
#include "consolidate/topic.h"
#include "lore/text/utf8.h"
#include "text/trim.h"

namespace lore::consolidate::detail {
namespace {

size_t Chars(std::string_view s) { return text::CodePointCount(s); }

// "2026-01-17T21:09:12Z" -> "2026-01-17 21:09 UTC"; a date alone stays.
std::string When(std::string_view iso) {
  if (iso.size() < 16) return std::string(iso.substr(0, 10));
  return std::string(iso.substr(0, 10)) + " " + std::string(iso.substr(11, 5)) + " UTC";
}

std::string Short(std::string_view session_id) { return std::string(session_id.substr(0, 8)); }

std::string Quote(std::string_view s, size_t max) {
  std::string one = OneLine(s);
  return "\"" + Cut(one, max) + "\"";
}

std::string Code(std::string_view s, size_t max) {
  std::string one = Cut(OneLine(s), max);
  std::replace(one.begin(), one.end(), '`', '\'');
  return "`" + one + "`";
}

// Whether the failure `ep` of session `in.recent[i]` was dealt with by a
// later session (in.recent[0..i)): the same error fixed, or what the failing
// call set out to do done, by any command (a commit landed, the tests passed).
bool FixedLater(const BriefingInput& in, size_t i, const activity::Episode& ep) {
  const std::string key = activity::ErrorSignature(ep.error);
  const std::string intent = activity::Intent(ep.detail);
  const std::string checks = ep.tool == "Bash" ? activity::ChecksOf(ep.detail) : "";
  const std::vector<std::string> folders = activity::FolderIntents(ep.detail);
  const std::string run = ep.tool == "Bash" ? activity::RunKey(ep.detail) : "";
  for (size_t j = 0; j < i; ++j) {
    if (!run.empty() && in.recent[j].achieved.count("ran:" + run))
      return true;  // run again, and it worked
    if (!intent.empty() && in.recent[j].achieved.count(intent)) return true;
    if (!checks.empty() && in.recent[j].achieved.count(checks)) return true;  // merged since
    // The project's own test target passing, covering the failed run (TestRunCovers).
    const auto& done = in.recent[j].achieved;
    for (auto it = done.lower_bound("test*"); it != done.end() && it->starts_with("test*"); ++it) {
      if (activity::TestRunCovers(ep.detail, *it)) return true;
    }
    for (const auto& where : folders) {
      if (in.recent[j].achieved.count(where)) return true;
    }
    for (const auto& later : in.recent[j].episodes) {
      if (!key.empty() && later.fixed() && activity::ErrorSignature(later.error) == key)
        return true;
    }
  }
  return false;
}

// True when a failure says a host could not be reached or would not let the
// session in (ssh's own errors, a refused or timed-out connection).
bool Unreachable(std::string_view error) {
  const std::string low = text::AsciiLower(error.substr(0, 2000));
  for (std::string_view mark :
       {"ssh: connect to host", "could not resolve hostname", "connection timed out",
        "connection refused", "no route to host", "permission denied (publickey",
        "host key verification failed", "connection closed by"}) {
    if (low.find(mark) != std::string::npos) return true;
  }
  return false;
}

// Whether an unfixed failure is a problem the project still has, not a probe
// the agent went round: a call with a purpose (a build, a test run, a commit,
// a push, an install), one the agent retried or edited files for, or the last failure the
// session ended on unless it only looked something up. A lookup that failed once
// (`whoami /groups`, `ps aux` on busybox, `grep x missing/file`) is none, but
// one over ssh whose host could not be reached is: the host, not the file, failed.
bool StillAProblem(const activity::SessionCard& c, const activity::Episode& ep) {
  if (!activity::OutcomeKind(ep.detail).empty() || ep.repeats > 0 || !ep.files.empty()) return true;
  return c.EndingFailure() == &ep && (!activity::IsLookup(ep.detail) || Unreachable(ep.error));
}

// One session as a block of lines, at most `cap` code points: the latest one
// (`full`) with every turn, the older ones with their first and last.
// `fixed_later`: its last failure was dealt with by a later session.
std::string SessionBlock(const activity::SessionCard& c, bool full, size_t cap, bool fixed_later) {
  std::string head = "### " + When(c.started_at.empty() ? c.ended_at : c.started_at) +
                     " · session " + Short(c.session_id);
  if (c.last_line > 0)
    head += " (lines " + std::to_string(c.first_line) + "-" + std::to_string(c.last_line) + ")";
  head += "\n";
  std::vector<std::string> tail;  // what the session left: always shown
  std::string commits, pushes, runs, installs;
  for (const auto& o : c.outcomes) {
    if (o.kind == "commit") {
      if (!o.ok) continue;
      std::string one = Quote(o.what, 100);
      if (size_t b = o.detail.find(' ');
          b != std::string::npos && !o.detail.empty() && o.detail[0] == '[') {
        size_t e = o.detail.find(']');
        if (e != std::string::npos && e > b) one += " (" + o.detail.substr(b + 1, e - b - 1) + ")";
      }
      if (commits.find(one) == std::string::npos) commits += (commits.empty() ? "" : "; ") + one;
    } else if (o.kind == "push" || o.kind == "pr") {
      pushes += (pushes.empty() ? "" : "; ") + Code(o.what, 80) + (o.ok ? " ok" : " FAILED");
      if (!o.ok && !o.detail.empty()) pushes += ": " + Cut(OneLine(o.detail), 120);
    } else if (o.kind == "install" || o.kind == "remove") {
      // What was installed in the end: a failure tried again with success is not listed.
      bool later_ok = false;
      for (const auto& x : c.outcomes) later_ok = later_ok || (&x > &o && x.ok && x.what == o.what);
      if (!o.ok && later_ok) continue;
      std::string one = Code(o.what, 80) + (o.ok ? "" : " FAILED");
      if (installs.find(one) == std::string::npos) installs += (installs.empty() ? "" : "; ") + one;
    } else {
      runs += (runs.empty() ? "" : "; ") + Code(o.what, 60) + (o.ok ? " passed" : " FAILED");
      if (!o.detail.empty()) runs += " (" + Cut(OneLine(o.detail), 80) + ")";
    }
  }
  if (!commits.empty()) tail.push_back("- Committed: " + Cut(commits, full ? 400 : 200) + "\n");
  if (!pushes.empty()) tail.push_back("- Pushed: " + Cut(pushes, full ? 300 : 160) + "\n");
  if (!installs.empty())
    tail.push_back("- Installed or removed: " + Cut(installs, full ? 300 : 160) + "\n");
  if (!runs.empty()) tail.push_back("- Test and build runs: " + Cut(runs, full ? 300 : 160) + "\n");
  if (!c.files.empty()) {
    std::string files;
    size_t n = full ? c.files.size() : std::min<size_t>(3, c.files.size());
    for (size_t i = 0; i < n; ++i) {
      files += (files.empty() ? "" : ", ") + Code(c.files[i].first, 80);
      if (c.files[i].second > 1) files += " (" + std::to_string(c.files[i].second) + ")";
    }
    tail.push_back("- Edited: " + files + "\n");
  }
  if (!c.open_todos.empty()) {
    std::string left;
    size_t n = full ? c.open_todos.size() : std::min<size_t>(3, c.open_todos.size());
    for (size_t i = 0; i < n; ++i)
      left += (left.empty() ? "" : "; ") + Cut(OneLine(c.open_todos[i]), 100);
    tail.push_back(c.todos_before_last_request
                       ? "- Not ticked off on its todo list, last written before a later "
                         "request: " +
                             left + "\n"
                       : "- Still open on its todo list: " + left + "\n");
  }
  // The failure it ended on; not a lookup that found nothing (`ls *.sh`), which is no
  // state of the project (StillAProblem).
  if (const auto* ep = c.EndingFailure();
      ep && (!activity::IsLookup(ep->detail) || Unreachable(ep->error))) {
    std::string line = std::string(fixed_later ? "- Failing at its end (dealt with in a later "
                                                 "session): "
                                               : "- Still failing at its end: ") +
                       Code(ep->action, 100);
    std::string err = activity::FirstErrorLine(ep->error, 160);
    if (!err.empty()) line += " printed " + Quote(err, 160);
    tail.push_back(line + "\n");
  }
  if (c.ended_interrupted)
    tail.push_back("- It ended interrupted by the person, or with a call they declined.\n");
  if (full && !c.declined.empty()) {
    std::string d;
    for (const auto& x : c.declined) d += (d.empty() ? "" : "; ") + Code(x, 80);
    tail.push_back("- The person declined: " + d + "\n");
  }
  // The turns: all of them for the latest session, else its first and last.
  // Each turn gets an equal share of the cap: a session of many turns shows
  // more of them, each shorter.
  const size_t n_turns = std::max<size_t>(1, c.turns.size());
  const size_t per_turn = std::clamp<size_t>(cap / n_turns, 200, full ? 700 : 500);
  const size_t ask_max = std::min<size_t>(240, per_turn / 3);
  const size_t report_max = per_turn > ask_max + 60 ? per_turn - ask_max - 60 : 100;
  // The latest session's last report says where the work stands: it gets the room of two
  // turns (at most 1,000 characters, half the cap).
  const size_t state_max = std::max(report_max, std::min<size_t>({2 * per_turn, 1000, cap / 2}));
  auto turn_line = [&](size_t i, size_t max) {
    const auto& t = c.turns[i];
    std::string line = (i == 0 ? "- Asked " : "- Then asked ") + Quote(t.ask, ask_max);
    if (!t.report.empty()) line += "; the agent reported: " + Quote(t.report, max);
    return line + "\n";
  };
  // The latest session's last report says where the work stands: when the block is
  // short, the line of the files it edited, then that of its test and build runs, give
  // way to it (the files are also under "Places and files that mattered").
  if (full && !c.turns.empty()) {
    size_t need = Chars(head) + Chars(turn_line(c.turns.size() - 1, state_max)) + 80;
    if (c.turns.size() > 1) need += Chars(turn_line(0, report_max));
    auto cost = [&] {
      size_t n = need;
      for (const auto& t : tail) n += Chars(t);
      return n;
    };
    for (std::string_view prefix : {"- Edited: ", "- Test and build runs: "}) {
      if (cost() <= cap) break;
      std::erase_if(tail, [&](const std::string& t) { return t.starts_with(prefix); });
    }
  }
  // The first request (the task), then the latest ones (the state it left)
  // as far as the cap allows; the ones between are counted.
  size_t used = Chars(head);
  for (const auto& t : tail) used += Chars(t);
  std::string out = head;
  if (!c.turns.empty()) {
    std::string first = turn_line(0, full && c.turns.size() == 1 ? state_max : report_max);
    out += first;
    used += Chars(first);
  }
  std::vector<std::string> last;
  size_t k = c.turns.size();
  const size_t most = c.turns.size();
  while (k > 1 && last.size() < most) {
    std::string line = turn_line(k - 1, report_max);
    if (full && last.empty()) {
      // The last report as long as the room left allows, up to state_max.
      const size_t room = cap > used + Chars(line) + 40 ? cap - used - Chars(line) - 40 : 0;
      line = turn_line(k - 1, std::min(state_max, report_max + room));
    }
    if (used + Chars(line) + 40 > cap) break;
    used += Chars(line);
    last.push_back(std::move(line));
    --k;
  }
  if (k > 1)
    out += "- (" + std::to_string(k - 1) + (k == 2 ? " more request" : " more requests") +
           " in the session log)\n";
  for (auto it = last.rbegin(); it != last.rend(); ++it) out += *it;
  for (const auto& t : tail) out += t;
  return out;
}

// "a (3), b (2)": the `most` largest counts, ties by name.
std::string Counted(const std::map<std::string, int>& counts, size_t most) {
  std::vector<std::pair<std::string, int>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out;
  for (size_t i = 0; i < v.size() && i < most; ++i)
    out += (out.empty() ? "" : ", ") + v[i].first + " (" + std::to_string(v[i].second) + ")";
  return out;
}

// What the project is, as far as its sessions show it: the folder they ran
// in when it says what it is (a machine's home folder), the programs its
// commands ran and the languages of the files it edited.
std::string WhatItIs(const std::vector<activity::SessionCard>& recent) {
  std::map<std::string, int> programs, languages;
  std::string where, cwd;
  for (const auto& c : recent) {
    for (const auto& [p, n] : c.programs) programs[p] += n;
    for (const auto& [l, n] : c.languages) languages[l] += n;
    if (where.empty() && !c.cwd.empty()) {
      where = activity::WorkspaceKind(c.cwd);
      cwd = c.cwd;
    }
  }
  std::vector<std::string> parts;
  // In the project's own words, quoted and attributed: text from a file. The checkout's own
  // README or manifest before one in a folder of it (a vendored library's README).
  const activity::SessionCard* said = nullptr;
  for (const auto& c : recent) {
    if (c.about.empty()) continue;
    const bool top = c.about_file.find('/') == std::string::npos;
    if (!said || (top && said->about_file.find('/') != std::string::npos)) said = &c;
    if (top) break;
  }
  if (said) {
    parts.push_back(Quote(said->about, 300) + " (" + Code(said->about_file, 120) +
                    ", read in session " + Short(said->session_id) + ")");
  }
  if (!where.empty()) parts.push_back(where + " (" + Code(cwd, 80) + ")");
  if (!programs.empty()) parts.push_back("its commands ran " + Counted(programs, 8));
  if (!languages.empty()) parts.push_back("it edited " + Counted(languages, 5) + " files");
  if (parts.empty()) return "";
  std::string out = "What it is: ";
  for (size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : "; ") + parts[i];
  return out + ".";
}

struct Section {
  std::string title;
  std::vector<std::string> items;  // each ends with a newline
  size_t share = 0;                // characters in the first pass
  size_t taken = 0;                // items kept
};

}  // namespace

std::string GotchaSlug(const std::string& signature) {
  std::string words = SlugOfSet({signature});
  // SlugOfSet gives a slug of at most 64 characters; room for the prefix.
  std::string slug = "gotcha-" + words.substr(0, 56);
  while (!slug.empty() && slug.back() == '-') slug.pop_back();
  return slug;
}

std::string RenderBriefing(const BriefingInput& in) {
  std::string head = "# Briefing\n\n";
  std::string project = "Project `" + in.project + "`";
  if (in.sessions > 0) {
    project += ": " + std::to_string(in.sessions) + (in.sessions == 1 ? " session" : " sessions");
    if (!in.first_date.empty()) project += " since " + in.first_date;
  }
  if (!in.recent.empty()) {
    const auto& last = in.recent.front();
    project += "; the last on " + When(last.ended_at.empty() ? last.started_at : last.ended_at);
    std::string where;
    if (!last.branch.empty()) where += "branch " + last.branch;
    if (!last.cwd.empty()) where += (where.empty() ? "in " : ", in ") + Cut(last.cwd, 100);
    if (!where.empty()) project += " (" + where + ")";
  }
  head += project + ".\n";
  if (std::string what = WhatItIs(in.recent); !what.empty()) head += what + "\n";

  std::vector<Section> sections(7);
  const size_t markers = Chars(kBriefingStart) + Chars(kBriefingEnd) + 2;
  const size_t room = in.budget > Chars(head) + markers ? in.budget - Chars(head) - markers : 0;
  sections[0].title = "Last sessions";  // rendered once the others are measured

  // Failures a session left unfixed that no later session fixed.
  sections[1].title = "Open problems";
  std::set<std::string> seen;
  for (size_t i = 0; i < in.recent.size(); ++i) {
    const auto& c = in.recent[i];
    for (const auto* ep : c.Unresolved()) {
      std::string key = activity::ErrorSignature(ep->error);
      if (!StillAProblem(c, *ep)) continue;
      if (key.empty() || !seen.insert(key).second) continue;
      if (FixedLater(in, i, *ep)) continue;
      // What a tool printed is quoted: it is the failure's evidence, never
      // an instruction, whatever it says.
      std::string line = "- " + When(ep->at).substr(0, 10) + " (" + Short(c.session_id) +
                         "): " + Code(ep->action, 100) + " fails with " +
                         Quote(activity::FirstErrorLine(ep->error, 200), 200);
      if (!ep->cause.empty()) line += " The agent's diagnosis: " + Quote(ep->cause, 200);
      sections[1].items.push_back(line + "\n");
    }
  }

  sections[2].title = "The person's standing instructions";
  for (const auto& r : in.instructions)
    sections[2].items.push_back("- " + r.date + ": " + Quote(r.text, 220) + "\n");

  sections[3].title = "Recent decisions";
  for (const auto& d : in.decisions) {
    std::string line = "- " + d.date + ": " + Cut(OneLine(d.chosen), 160);
    if (!d.over.empty()) line += " (over " + Cut(OneLine(d.over), 120) + ")";
    if (!d.why.empty()) line += ": " + Cut(OneLine(d.why), 200);
    sections[3].items.push_back(line + "\n");
  }

  sections[4].title = "Lessons";
  // The fixed failures the lessons come from, the latest sessions' first, and the
  // gotcha page of each one's signature.
  struct Fixed {
    const activity::Episode* ep;
    std::string slug;
    bool said = false;
  };
  std::vector<Fixed> fixed;
  for (const auto& c : in.recent) {
    for (const auto& ep : c.episodes) {
      // A compile error fixed in the file it named teaches nothing the code does not say.
      if (!ep.fixed() || activity::FixedWhereItPointed(ep)) continue;
      const std::string sig = activity::ErrorSignature(ep.error);
      fixed.push_back({&ep, sig.empty() ? "" : GotchaSlug(sig)});
    }
  }
  auto lesson = [](const activity::Episode& ep) {
    std::string line = "- " + Code(ep.action, 100) + " failed with " +
                       Quote(activity::FirstErrorLine(ep.error, 160), 160);
    if (!ep.cause.empty()) line += "; cause: " + Cut(OneLine(ep.cause), 200);
    line += "; then worked: " + Code(ep.fix, 120);
    if (!ep.files.empty()) {
      // Each file by its name, or by its path when two share a name
      // (`shifts/tasks.py`, `volunteers/tasks.py`).
      std::string f;
      for (const auto& x : ep.files) {
        const std::string_view name = activity::FileNameOf(x);
        const bool shared = std::count_if(ep.files.begin(), ep.files.end(), [&](const auto& y) {
                              return activity::FileNameOf(y) == name;
                            }) > 1;
        f += (f.empty() ? "" : ", ") + std::string(shared ? std::string_view(x) : name);
      }
      line += " (edited " + Cut(f, 120) + ")";
    }
    return line;
  };
  // The gotcha pages of the failures some session dealt with (fixed then, or by a
  // later session), read once and only when a page says its failure is not fixed:
  // such a page is stale, and no lesson.
  std::set<std::string> dealt;
  if (std::any_of(in.gotchas.begin(), in.gotchas.end(),
                  [](const auto& g) { return g.description.ends_with(kNotFixedYet); })) {
    for (size_t i = 0; i < in.recent.size(); ++i) {
      for (const auto& ep : in.recent[i].episodes) {
        const std::string sig = activity::ErrorSignature(ep.error);
        if (!sig.empty() && (ep.fixed() || FixedLater(in, i, ep))) dealt.insert(GotchaSlug(sig));
      }
    }
  }
  for (const auto& g : in.gotchas) {
    const bool dealt_with = g.description.ends_with(kNotFixedYet) && dealt.count(g.slug) > 0;
    auto same = std::find_if(fixed.begin(), fixed.end(),
                             [&](const Fixed& f) { return !f.said && f.slug == g.slug; });
    if (dealt_with && same == fixed.end()) continue;
    if (same == fixed.end()) {
      sections[4].items.push_back("- " + Cut(OneLine(g.description), 220) + " (knowledge/" +
                                  g.slug + ".md)\n");
      continue;
    }
    same->said = true;
    sections[4].items.push_back(lesson(*same->ep) + " (knowledge/" + g.slug + ".md).\n");
  }
  for (const auto& f : fixed) {
    if (!f.said) sections[4].items.push_back(lesson(*f.ep) + ".\n");
  }

  sections[5].title = "Places and files that mattered";
  std::map<std::string, std::pair<int, int>> files;  // uses, sessions
  for (const auto& c : in.recent) {
    for (const auto& [path, n] : c.places) {
      files[path].first += n;
      files[path].second += 1;
    }
  }
  std::vector<std::pair<std::string, std::pair<int, int>>> ranked(files.begin(), files.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.second != b.second.second ? a.second.second > b.second.second
                                              : a.second.first > b.second.first;
  });
  for (const auto& [path, n] : ranked) {
    sections[5].items.push_back("- " + Code(path, 120) + ": used " + std::to_string(n.first) +
                                (n.first == 1 ? " time" : " times") + " in " +
                                std::to_string(n.second) +
                                (n.second == 1 ? " session\n" : " sessions\n"));
  }

  sections[6].title = "Earlier sessions";
  for (const auto& e : in.earlier) {
    sections[6].items.push_back("- " + e.date + " (" + Short(e.session_id) + "): " +
                                (e.task.empty() ? "(no request)" : Quote(e.task, 200)) + "\n");
  }

  // Shares of the budget in the first pass; what a section leaves goes to
  // the others, in this order, in the second.
  const double shares[] = {0.44, 0.09, 0.07, 0.11, 0.11, 0.06, 0.12};
  size_t used = 0;
  auto header_cost = [](const Section& s) { return Chars(s.title) + 5; };
  for (size_t i = 1; i < sections.size(); ++i) {
    Section& s = sections[i];
    s.share = static_cast<size_t>(room * shares[i]);
    size_t cost = header_cost(s);
    for (const auto& item : s.items) {
      if (cost + Chars(item) > s.share || used + cost + Chars(item) > room) break;
      cost += Chars(item);
      ++s.taken;
    }
    if (s.taken > 0) used += cost;
  }
  // What was learnt (open problems, the person's instructions, lessons) takes
  // its further items before the sessions do, within what leaves the sessions
  // their share: an older session's block never pushes a lesson out.
  const size_t learnt_cap = room - static_cast<size_t>(room * shares[0]);
  for (size_t i : {1, 2, 4}) {
    Section& s = sections[i];
    size_t cost = s.taken == 0 ? header_cost(s) : 0;
    for (size_t k = s.taken; k < s.items.size(); ++k) {
      if (used + cost + Chars(s.items[k]) > learnt_cap) break;
      used += cost + Chars(s.items[k]);
      cost = 0;
      ++s.taken;
    }
  }
  // The sessions take what the others left: the latest one most of it (a
  // project of one session, all of it).
  {
    Section& s = sections[0];
    size_t left = room > used + header_cost(s) ? room - used - header_cost(s) : 0;
    size_t n = in.recent.size();
    for (size_t i = 0; i < n && left > 0; ++i) {
      size_t cap =
          i == 0 ? (n == 1 ? left : left * 55 / 100) : std::max<size_t>(left / (n - i), 200);
      const auto* ending = in.recent[i].EndingFailure();
      const bool fixed_later = ending && FixedLater(in, i, *ending);
      std::string block = SessionBlock(in.recent[i], i == 0, cap, fixed_later) + "\n";
      if (Chars(block) > left) break;
      left -= Chars(block);
      used += Chars(block) + (s.taken == 0 ? header_cost(s) : 0);
      s.items.push_back(std::move(block));
      ++s.taken;
    }
  }
  for (Section& s : sections) {
    size_t cost = s.taken == 0 ? header_cost(s) : 0;
    for (size_t k = s.taken; k < s.items.size(); ++k) {
      if (used + cost + Chars(s.items[k]) > room) break;
      used += cost + Chars(s.items[k]);
      cost = 0;
      ++s.taken;
    }
  }
  std::string out = std::string(kBriefingStart) + "\n" + head;
  for (const Section& s : sections) {
    if (s.taken == 0) continue;
    out += "\n## " + s.title + "\n";
    for (size_t k = 0; k < s.taken; ++k) out += s.items[k];
    while (out.size() >= 2 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n')
      out.pop_back();
  }
  out += std::string(kBriefingEnd) + "\n";
  return out;
}

std::string WithBriefing(std::string_view body, std::string_view briefing) {
  size_t a = body.find(kBriefingStart);
  size_t b = a == std::string_view::npos ? std::string_view::npos : body.find(kBriefingEnd, a);
  if (a == std::string_view::npos || b == std::string_view::npos) {
    std::string rest(body);
    // The summary's old default heading alone is not the person's text.
    if (rest.find_first_not_of(" \t\r\n") == std::string::npos || rest == "# Summary\n")
      return std::string(briefing);
    return std::string(briefing) + "\n" + rest;
  }
  size_t end = b + kBriefingEnd.size();
  if (end < body.size() && body[end] == '\n') ++end;
  return std::string(body.substr(0, a)) + std::string(briefing) + std::string(body.substr(end));
}

}  // namespace lore::consolidate::detail
