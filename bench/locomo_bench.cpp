// Retrieval benchmark on a LoCoMo-format file (docs/search.md).
//
//   locomo_bench FILE [--short] [--features none|all|LIST] [--set NAME=VALUE]...
//                     [--expand none|all|LIST] [--min-recall10 X] [--min-recall5 X]
//                     [--keep DIR] [--conversations I,J,...] [--show-misses N] [--dump FILE]
//                     [--depth N]
//
// Every conversation becomes its own store in a temporary folder: each dialog
// turn is one line of raw.jsonl (speaker, session, position and the session's
// date are fields of the record), indexed and searched by lore's own index
// and search code. Every question of categories 1-4 is asked (scope raw, top
// 20); recall@k = |evidence ∩ top-k turns| / |evidence|, averaged, overall
// and per category, plus the median time of one search (bringing the index
// up to date included). Exits 1 when --min-recall10 is given and not met.
//
// --features picks the ranking stages: none (plain BM25, no stemming), all,
// or a comma list of stem, irregular (stemming with irregular verb forms read
// as their verb), context, session, author, time, asks, compounds, synonyms,
// hypernyms, hyponyms, feedback, cooc, distinct (the WordNet stages need stem). --expand sets the
// expansion stages alone, over --features. --set overrides a numeric
// parameter of search/params.h (k1, b, candidates, context_window,
// context_weight, context_decay, context_forward, session_weight,
// name_text_weight, author_boost, time_boost, date_boost, expansion_max_df,
// compound_weight, synonym_weight, max_synonyms, hypernym_weight,
// hyponym_weight, max_hyponyms, date_candidates, date_prior, ask_weight,
// feedback_docs, feedback_terms, feedback_weight, cooc_weight, cooc_terms,
// cooc_window, cooc_min_support, cooc_sample, distinct_share,
// distinct_min_words).
// --short asks every third question only (for CI). --conversations keeps
// only the conversations of those 0-based positions in the file (to check a
// parameter on two halves). --show-misses prints questions missed at 10.
// --dump writes one JSON line per question asked: its conversation, category,
// evidence ids and the hits in order with their score parts (for analysis);
// --depth N asks for N hits instead of 20 (at least 20), so that the dump
// shows what a re-ranking of the deeper candidates could reach.
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lore/index/index.h"
#include "lore/search/search.h"

namespace {

using Json = nlohmann::json;
namespace stdfs = std::filesystem;

struct Options {
  std::string file;
  bool short_form = false;
  std::string features = "all";
  std::vector<std::string> sets;
  double min_recall10 = -1;
  double min_recall5 = -1;
  std::string expand;  // --expand LIST: the expansion stages, over --features
  std::string keep;
  int show_misses = 0;             // print this many questions whose evidence missed the top 10
  std::string dump;                // write every question's ranking here (JSON lines)
  size_t depth = 20;               // hits asked for (recall@20 needs 20)
  std::set<size_t> conversations;  // --conversations 0,2,4: only these (0-based); empty: all
};

struct Tally {
  int n = 0;
  double r5 = 0, r10 = 0, r20 = 0;
};

const char* CategoryName(int c) {
  switch (c) {
    case 1:
      return "1 multi-hop";
    case 2:
      return "2 temporal";
    case 3:
      return "3 open-domain";
    case 4:
      return "4 single-hop";
  }
  return "?";
}

// "1:56 pm on 8 May, 2023" -> "2023-05-08T13:56:00Z"; empty when it does not parse.
std::string ParseLocomoDate(const std::string& s) {
  static const char* months[] = {"january",   "february", "march",    "april",
                                 "may",       "june",     "july",     "august",
                                 "september", "october",  "november", "december"};
  int h = 0, m = 0, day = 0, year = 0;
  char ampm[3] = {0}, month[16] = {0};
  if (std::sscanf(s.c_str(), "%d:%d %2s on %d %15[A-Za-z], %d", &h, &m, ampm, &day, month, &year) !=
      6) {
    return {};
  }
  std::string mon(month);
  for (auto& c : mon) c = static_cast<char>(std::tolower(c));
  int mi = 0;
  while (mi < 12 && mon != months[mi]) ++mi;
  if (mi == 12) return {};
  if ((ampm[0] == 'p' || ampm[0] == 'P') && h != 12) h += 12;
  if ((ampm[0] == 'a' || ampm[0] == 'A') && h == 12) h = 0;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:00Z", year, mi + 1, day, h, m);
  return buf;
}

// Evidence ids as written, glitches included ("D8:6; D9:17", "D:11:26",
// "D30:05", "D"), as canonical "D<session>:<turn>" ids.
std::vector<std::string> CleanEvidence(const Json& evidence) {
  std::vector<std::string> out;
  if (!evidence.is_array()) return out;
  for (const auto& e : evidence) {
    if (!e.is_string()) continue;
    std::string s = e.get<std::string>();
    for (char& c : s) {
      if (c == ';' || c == ',') c = ' ';
    }
    std::istringstream parts(s);
    std::string part;
    while (parts >> part) {
      std::vector<long> nums;
      for (size_t i = 0; i < part.size();) {
        if (!std::isdigit(static_cast<unsigned char>(part[i]))) {
          ++i;
          continue;
        }
        size_t j = i;
        while (j < part.size() && std::isdigit(static_cast<unsigned char>(part[j]))) ++j;
        nums.push_back(std::stol(part.substr(i, j - i)));
        i = j;
      }
      if (nums.size() == 2)
        out.push_back("D" + std::to_string(nums[0]) + ":" + std::to_string(nums[1]));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool ApplyFeatures(const std::string& list, lore::search::RankingParams* p,
                   lore::index::IndexOptions* io) {
  lore::search::RankingParams plain;
  plain.context = plain.session = plain.author = plain.time = plain.asks = false;
  plain.compounds = plain.synonyms = plain.hypernyms = plain.hyponyms = plain.feedback =
      plain.cooc = plain.distinct = false;
  plain.k1 = 1.5;
  plain.b = 0.75;
  if (list == "all") return true;  // the production defaults
  *p = plain;
  io->stemming = lore::index::Stemming::kOff;
  if (list == "none") return true;
  std::istringstream in(list);
  std::string f;
  lore::search::RankingParams defaults;
  while (std::getline(in, f, ',')) {
    if (f == "stem" || f == "irregular") {
      // irregular: stemming with irregular verb forms read as their verb
      if (f == "irregular" || io->stemming == lore::index::Stemming::kOff) {
        io->stemming =
            f == "stem" ? lore::index::Stemming::kSnowballEnglish : lore::index::Stemming::kEnglish;
      }
      p->k1 = defaults.k1;
      p->b = defaults.b;
    } else if (f == "context") {
      p->context = true;
    } else if (f == "session") {
      p->session = true;
    } else if (f == "author") {
      p->author = true;
    } else if (f == "time") {
      p->time = true;
    } else if (f == "asks") {
      p->asks = true;
    } else if (f == "compounds") {
      p->compounds = true;
    } else if (f == "synonyms") {
      p->synonyms = true;
    } else if (f == "hypernyms") {
      p->hypernyms = true;
    } else if (f == "hyponyms") {
      p->hyponyms = true;
    } else if (f == "feedback") {
      p->feedback = true;
    } else if (f == "cooc") {
      p->cooc = true;
    } else if (f == "distinct") {
      p->distinct = true;
    } else {
      std::fprintf(stderr, "locomo_bench: unknown feature '%s'\n", f.c_str());
      return false;
    }
  }
  return true;
}

bool ApplySet(const std::string& kv, lore::search::RankingParams* p) {
  using P = lore::search::RankingParams;
  static const std::map<std::string, double P::*> kDoubles = {
      {"k1", &P::k1},
      {"b", &P::b},
      {"context_weight", &P::context_weight},
      {"context_decay", &P::context_decay},
      {"context_forward", &P::context_forward},
      {"session_weight", &P::session_weight},
      {"name_text_weight", &P::name_text_weight},
      {"author_boost", &P::author_boost},
      {"time_boost", &P::time_boost},
      {"date_boost", &P::date_boost},
      {"date_prior", &P::date_prior},
      {"ask_weight", &P::ask_weight},
      {"expansion_max_df", &P::expansion_max_df},
      {"compound_weight", &P::compound_weight},
      {"synonym_weight", &P::synonym_weight},
      {"hypernym_weight", &P::hypernym_weight},
      {"hyponym_weight", &P::hyponym_weight},
      {"feedback_weight", &P::feedback_weight},
      {"cooc_weight", &P::cooc_weight},
      {"distinct_share", &P::distinct_share},
  };
  static const std::map<std::string, int P::*> kInts = {
      {"candidates", &P::candidates},           {"context_window", &P::context_window},
      {"date_candidates", &P::date_candidates}, {"max_synonyms", &P::max_synonyms},
      {"max_hyponyms", &P::max_hyponyms},       {"feedback_docs", &P::feedback_docs},
      {"feedback_terms", &P::feedback_terms},   {"cooc_terms", &P::cooc_terms},
      {"cooc_window", &P::cooc_window},         {"cooc_min_support", &P::cooc_min_support},
      {"cooc_sample", &P::cooc_sample},         {"distinct_min_words", &P::distinct_min_words},
  };
  size_t eq = kv.find('=');
  std::string k = kv.substr(0, eq);
  double v = eq == std::string::npos ? 0 : std::atof(kv.c_str() + eq + 1);
  if (auto d = kDoubles.find(k); eq != std::string::npos && d != kDoubles.end()) {
    p->*(d->second) = v;
  } else if (auto n = kInts.find(k); eq != std::string::npos && n != kInts.end()) {
    p->*(n->second) = static_cast<int>(v);
  } else {
    std::fprintf(stderr,
                 "locomo_bench: --set wants NAME=VALUE with a parameter of search/params.h: '%s'\n",
                 kv.c_str());
    return false;
  }
  return true;
}

struct Conversation {
  std::string dir;
  std::map<int64_t, std::string> line_to_id;  // raw.jsonl line -> dia_id
  std::set<std::string> ids;
};

// Writes one store for a conversation: raw.jsonl with one record per turn.
Conversation WriteStore(const Json& sample, const std::string& dir) {
  Conversation c;
  c.dir = dir;
  stdfs::create_directories(dir);
  std::ofstream raw(dir + "/raw.jsonl", std::ios::binary);
  const Json& conv = sample.at("conversation");
  int64_t line = 0;
  for (int s = 1; s < 1000; ++s) {
    std::string key = "session_" + std::to_string(s);
    if (!conv.contains(key)) {
      if (!conv.contains(key + "_date_time")) break;
      continue;
    }
    std::string date;
    if (conv.contains(key + "_date_time") && conv[key + "_date_time"].is_string()) {
      date = ParseLocomoDate(conv[key + "_date_time"].get<std::string>());
    }
    int position = 0;
    for (const auto& turn : conv[key]) {
      nlohmann::ordered_json rec;
      rec["kind"] = "turn";
      rec["session_id"] = std::to_string(s);
      rec["position"] = ++position;
      rec["speaker"] = turn.value("speaker", "");
      if (!date.empty()) rec["recorded_at"] = date;
      rec["text"] = turn.value("text", "");
      if (turn.contains("blip_caption") && turn["blip_caption"].is_string()) {
        rec["shared_image"] = turn["blip_caption"];  // what the speaker showed, as words
      }
      raw << rec.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
      auto clean = CleanEvidence(Json::array({turn.value("dia_id", "")}));
      c.line_to_id[++line] = clean.empty() ? std::string() : clean[0];
      if (!clean.empty()) c.ids.insert(clean[0]);
    }
  }
  return c;
}

int Usage() {
  std::fprintf(
      stderr,
      "usage: locomo_bench FILE [--short] [--features "
      "none|all|stem,irregular,context,session,author,time,asks,"
      "compounds,synonyms,hypernyms,hyponyms,feedback,cooc] [--expand none|all|LIST] [--set "
      "NAME=VALUE]... "
      "[--min-recall10 X] [--min-recall5 X] [--keep DIR] [--conversations I,J,...] "
      "[--show-misses N] [--dump FILE] [--depth N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--short")
      o.short_form = true;
    else if (a == "--features")
      o.features = next();
    else if (a == "--set")
      o.sets.push_back(next());
    else if (a == "--min-recall10")
      o.min_recall10 = std::atof(next().c_str());
    else if (a == "--min-recall5")
      o.min_recall5 = std::atof(next().c_str());
    else if (a == "--expand")
      o.expand = next();
    else if (a == "--keep")
      o.keep = next();
    else if (a == "--conversations") {
      std::istringstream list(next());
      std::string n;
      while (std::getline(list, n, ','))
        o.conversations.insert(std::strtoul(n.c_str(), nullptr, 10));
    } else if (a == "--show-misses") {
      o.show_misses = std::atoi(next().c_str());
    } else if (a == "--dump") {
      o.dump = next();
    } else if (a == "--depth") {
      o.depth = std::clamp<size_t>(std::strtoul(next().c_str(), nullptr, 10), 20, 1000);
    } else if (!a.empty() && a[0] == '-')
      return Usage();
    else
      o.file = a;
  }
  if (o.file.empty()) return Usage();

  lore::search::SearchOptions sopts;
  lore::index::IndexOptions iopts;
  if (!ApplyFeatures(o.features, &sopts.params, &iopts)) return Usage();
  if (!o.expand.empty()) {
    if (auto st = lore::search::SetExpansionStages(o.expand, &sopts.params); !st) {
      std::fprintf(stderr, "locomo_bench: %s\n", st.error().Format().c_str());
      return Usage();
    }
  }
  for (const auto& kv : o.sets) {
    if (!ApplySet(kv, &sopts.params)) return Usage();
  }
  sopts.filter.scope = lore::index::Scope::kRaw;
  sopts.limit = static_cast<int>(o.depth);
  sopts.excerpts = false;

  std::ifstream in(o.file, std::ios::binary);
  Json data = Json::parse(in, nullptr, false);
  if (data.is_discarded() || !data.is_array()) {
    std::fprintf(stderr, "locomo_bench: %s is not a LoCoMo-format JSON array\n", o.file.c_str());
    return 1;
  }
  std::string root = o.keep;
  if (root.empty()) {
    std::string tmpl = (stdfs::temp_directory_path() / "locomo-bench-XXXXXX").string();
    root = ::mkdtemp(tmpl.data());
  }

  std::ofstream dump;
  if (!o.dump.empty()) {
    dump.open(o.dump, std::ios::trunc);
    if (!dump) return std::fprintf(stderr, "locomo_bench: cannot write %s\n", o.dump.c_str()), 1;
  }
  std::map<int, Tally> by_cat;
  Tally all;
  std::vector<double> times;
  int skipped = 0, dropped_ids = 0, asked_index = 0;
  for (size_t ci = 0; ci < data.size(); ++ci) {
    if (!o.conversations.empty() && !o.conversations.count(ci)) continue;
    const Json& sample = data[ci];
    Conversation conv = WriteStore(sample, root + "/conv" + std::to_string(ci));
    auto idx = lore::index::Index::Open(conv.dir, iopts);
    if (!idx) return std::fprintf(stderr, "locomo_bench: %s\n", idx.error().Format().c_str()), 1;
    if (auto u = idx->Update(); !u) {
      return std::fprintf(stderr, "locomo_bench: %s\n", u.error().Format().c_str()), 1;
    }
    for (const auto& qa : sample.value("qa", Json::array())) {
      int cat = qa.value("category", 0);
      if (cat < 1 || cat > 4) continue;
      if (o.short_form && asked_index++ % 3 != 0) continue;
      std::vector<std::string> evidence;
      for (const auto& id : CleanEvidence(qa.value("evidence", Json::array()))) {
        if (conv.ids.count(id))
          evidence.push_back(id);
        else
          ++dropped_ids;
      }
      if (evidence.empty()) {
        ++skipped;
        continue;
      }
      std::string question = qa.value("question", "");
      auto t0 = std::chrono::steady_clock::now();
      auto u = idx->Update();
      auto hits = lore::search::Search(*idx, question, sopts);
      times.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      if (!u || !hits) return std::fprintf(stderr, "locomo_bench: search failed\n"), 1;
      std::vector<std::string> ranked;
      for (const auto& h : *hits) ranked.push_back(conv.line_to_id[h.doc.record.line]);
      auto recall = [&](size_t k) {
        int found = 0;
        for (const auto& e : evidence) {
          found += std::find(ranked.begin(), ranked.begin() + std::min(k, ranked.size()), e) !=
                   ranked.begin() + std::min(k, ranked.size());
        }
        return static_cast<double>(found) / evidence.size();
      };
      if (o.show_misses > 0 && recall(10) < 1) {
        --o.show_misses;
        std::printf("MISS [%d] %s\n  evidence:", cat, question.c_str());
        for (const auto& e : evidence) std::printf(" %s", e.c_str());
        std::printf("\n  top:");
        for (size_t i = 0; i < std::min<size_t>(10, ranked.size()); ++i)
          std::printf(" %s", ranked[i].c_str());
        std::printf("\n");
      }
      if (dump) {
        Json line = {{"conversation", ci},
                     {"category", cat},
                     {"question", question},
                     {"evidence", evidence},
                     {"hits", Json::array()}};
        for (size_t i = 0; i < hits->size(); ++i) {
          const auto& sc = (*hits)[i].score;
          line["hits"].push_back({{"id", ranked[i]},
                                  {"total", sc.Total()},
                                  {"text", sc.text},
                                  {"expansion", sc.expansion},
                                  {"context", sc.context},
                                  {"session", sc.session},
                                  {"author", sc.author},
                                  {"time", sc.time}});
        }
        dump << line.dump() << "\n";
      }
      for (Tally* t : {&by_cat[cat], &all}) {
        ++t->n;
        t->r5 += recall(5);
        t->r10 += recall(10);
        t->r20 += recall(20);
      }
    }
  }
  if (o.keep.empty()) stdfs::remove_all(root);

  std::sort(times.begin(), times.end());
  double median = times.empty() ? 0 : times[times.size() / 2];
  std::printf("locomo: %s  conversations %zu  questions %d%s  features %s\n", o.file.c_str(),
              data.size(), all.n, o.short_form ? " (short: every third)" : "", o.features.c_str());
  std::printf(
      "skipped %d questions without usable evidence; dropped %d evidence ids of missing turns\n",
      skipped, dropped_ids);
  std::printf("%-15s %5s %7s %7s %7s\n", "category", "n", "R@5", "R@10", "R@20");
  auto row = [](const char* name, const Tally& t) {
    double n = t.n ? t.n : 1;
    std::printf("%-15s %5d %7.3f %7.3f %7.3f\n", name, t.n, t.r5 / n, t.r10 / n, t.r20 / n);
  };
  for (const auto& [cat, t] : by_cat) row(CategoryName(cat), t);
  row("overall", all);
  std::printf("median query time %.3f ms (%zu queries)\n", median, times.size());
  double r10 = all.n ? all.r10 / all.n : 0;
  double r5 = all.n ? all.r5 / all.n : 0;
  int rc = 0;
  if (o.min_recall10 >= 0 && r10 < o.min_recall10) {
    std::printf("FAIL: recall@10 %.3f is below %.3f\n", r10, o.min_recall10);
    rc = 1;
  }
  if (o.min_recall5 >= 0 && r5 < o.min_recall5) {
    std::printf("FAIL: recall@5 %.3f is below %.3f\n", r5, o.min_recall5);
    rc = 1;
  }
  return rc;
}
