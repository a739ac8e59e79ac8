// Build-time generator of lore's WordNet tables: the synonym table
// (search/expansion.h) and the irregular verb forms (index/tokenizer.h).
//
//   wordnet_table WORDNET_DIR SYNONYMS_OUT.cpp IRREGULAR_OUT.cpp
//
// Reads the WordNet 3.0 database files of Debian's wordnet-base
// (index.{noun,verb,adj,adv} and data.*) and writes a C++ source holding one
// sorted text table, a line per Snowball stem of a one-word lemma:
//   "<stem>\t<synonym stems>\t<hypernym stems>\t<hyponym stems>\n"
// taken from the lemma's most frequent sense in each part of speech (the
// first synset its index line names): the other one-word lemmas of that
// synset, and those of the synsets it points to as hypernyms (@, @i; the head
// of a compound: "motor_vehicle" -> "vehicle"); and for nouns the one-word
// lemmas of the hyponyms (~, ~i) of its three most frequent senses, breadth
// first to depth 3 ("instrument" -> "clarinet"). The
// table is general English knowledge; lore's search reads it by binary search
// in place, so no start-up cost. When WORDNET_DIR lacks the files the table is
// empty (the stage then finds nothing).
//
// The irregular table comes from verb.exc, WordNet's list of inflected forms
// that no suffix rule reaches ("bought buy", "went go"): a sorted array of
// {form, verb} for the forms whose Snowball stem differs from the verb's,
// less those that are more often something else: a form that WordNet's
// sense-tagged corpus counts (index.*'s tagsense_cnt) at least as often as a
// noun or adjective as it counts the verb ("bit", "bound", "ground") is left as
// written.
//
// A build tool, not part of lore: it prints and exits.
#include <libstemmer.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

constexpr size_t kMaxSynonyms = 6;
constexpr size_t kMaxHypernyms = 4;
constexpr size_t kMaxHyponyms = 24;
constexpr int kHyponymSenses = 3;  // of a noun: its most frequent senses
constexpr int kHyponymDepth = 3;

struct Synset {
  std::vector<std::string> words;
  std::vector<long> hypernyms;  // offsets in the same part of speech
  std::vector<long> hyponyms;
};

bool Plain(const std::string& w) {
  if (w.size() < 3 || w.size() > 24) return false;
  return std::all_of(w.begin(), w.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

// data.<pos>: offset lex_filenum ss_type w_cnt(hex) {word lex_id} p_cnt {ptr off pos st} ... |
// gloss
std::unordered_map<long, Synset> ReadData(const std::string& path) {
  std::unordered_map<long, Synset> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ' ') continue;  // the licence header
    std::istringstream f(line.substr(0, line.find(" | ")));
    long offset = 0;
    std::string lex, type, count;
    if (!(f >> offset >> lex >> type >> count)) continue;
    Synset s;
    long words = std::strtol(count.c_str(), nullptr, 16);
    for (long i = 0; i < words; ++i) {
      std::string w, id;
      f >> w >> id;
      if (auto p = w.find('('); p != std::string::npos) w.resize(p);  // "big(a)"
      for (auto& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      s.words.push_back(w);
    }
    int pointers = 0;
    f >> pointers;
    for (int i = 0; i < pointers; ++i) {
      std::string sym, pos, st;
      long target = 0;
      f >> sym >> target >> pos >> st;
      if (sym == "@" || sym == "@i") s.hypernyms.push_back(target);
      if (sym == "~" || sym == "~i") s.hyponyms.push_back(target);
    }
    out.emplace(offset, std::move(s));
  }
  return out;
}

struct Entry {
  std::vector<std::string> synonyms, hypernyms, hyponyms;
};

// index.<pos>: lemma pos synset_cnt p_cnt {ptr_symbol} sense_cnt tagsense_cnt {offset}
std::map<std::string, long> TaggedCounts(const std::string& path) {
  std::map<std::string, long> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == ' ') continue;
    std::istringstream f(line);
    std::string lemma, pos, skip;
    int synsets = 0, pointers = 0;
    long senses = 0, tagged = 0;
    if (!(f >> lemma >> pos >> synsets >> pointers)) continue;
    for (int i = 0; i < pointers; ++i) f >> skip;
    if (f >> senses >> tagged) out[lemma] = tagged;
  }
  return out;
}

// Writes `text` as the C++ definitions of `name` (a char array) and
// `name`Size in lore::`ns`::internal.
void WriteText(std::ofstream& out, const std::string& name, const std::string& text) {
  out << "extern const char " << name << "[];\nextern const size_t " << name << "Size;\n"
      << "const char " << name << "[] =\n";
  // Lines of the table as string literals of at most ~4 KB each.
  size_t pos = 0;
  if (text.empty()) out << "    \"\"";
  while (pos < text.size()) {
    size_t end = std::min(text.size(), pos + 4000);
    while (end < text.size() && text[end - 1] != '\n') ++end;
    out << "    \"";
    for (size_t i = pos; i < end; ++i) {
      char c = text[i];
      if (c == '\n')
        out << "\\n";
      else if (c == '\t')
        out << "\\t";
      else
        out << c;
    }
    out << "\"\n";
    pos = end;
  }
  out << ";\nconst size_t " << name << "Size = " << text.size() << ";\n";
}

// Writes a C++ source at `path` defining the table `name` (and `name`Size) in
// lore::`ns`::internal; false (and a message) when it cannot.
bool WriteSource(const std::string& path, const std::string& ns, const std::string& name,
                 const std::string& text, const std::string& origin) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << "// Generated by tools/wordnet_table.cpp from " << origin << ": do not edit.\n"
      << "#include <cstddef>\n\nnamespace lore::" << ns << "::internal {\n\n";
  WriteText(out, name, text);
  out << "\n}  // namespace lore::" << ns << "::internal\n";
  if (!out) std::fprintf(stderr, "wordnet_table: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

// verb.exc's "form verb" lines kept as described above, as "form\tverb\n",
// sorted by form.
template <typename StemFn>
std::string IrregularText(const std::string& dir, StemFn stem) {
  auto nouns = TaggedCounts(dir + "/index.noun");
  auto adjectives = TaggedCounts(dir + "/index.adj");
  auto verbs = TaggedCounts(dir + "/index.verb");
  auto count = [](const std::map<std::string, long>& m, const std::string& w) {
    auto it = m.find(w);
    return it == m.end() ? 0L : it->second;
  };
  std::map<std::string, std::string> forms;
  std::ifstream in(dir + "/verb.exc");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string form, verb;
    if (!(f >> form >> verb) || !Plain(form) || forms.count(form)) continue;
    if (!Plain(verb + "zz") || verb.size() > 20) continue;  // two letters are a verb: "go"
    if (stem(form) == stem(verb)) continue;  // the stemmer reaches it already ("running")
    long other = count(nouns, form) + count(adjectives, form);
    if (other > 0 && count(verbs, verb) <= other) continue;
    forms.emplace(form, verb);
  }
  std::string text;
  for (const auto& [form, verb] : forms) text += form + '\t' + verb + '\n';
  return text;
}

void Add(std::vector<std::string>& list, const std::string& stem, const std::string& key,
         size_t max) {
  if (stem == key || list.size() >= max) return;
  if (std::find(list.begin(), list.end(), stem) == list.end()) list.push_back(stem);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: wordnet_table WORDNET_DIR SYNONYMS_OUT.cpp IRREGULAR_OUT.cpp\n");
    return 2;
  }
  std::string dir = argv[1];
  sb_stemmer* stemmer = sb_stemmer_new("english", nullptr);
  auto stem = [&](const std::string& w) {
    const sb_symbol* s = sb_stemmer_stem(stemmer, reinterpret_cast<const sb_symbol*>(w.data()),
                                         static_cast<int>(w.size()));
    return std::string(reinterpret_cast<const char*>(s), sb_stemmer_length(stemmer));
  };
  std::map<std::string, Entry> table;
  for (const char* pos : {"noun", "verb", "adj", "adv"}) {
    auto data = ReadData(dir + "/data." + pos);
    std::ifstream in(dir + "/index." + pos);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == ' ') continue;
      std::istringstream f(line);
      std::string lemma, p;
      int synsets = 0, pointers = 0;
      if (!(f >> lemma >> p >> synsets >> pointers) || !Plain(lemma)) continue;
      std::string skip;
      for (int i = 0; i < pointers + 2; ++i) f >> skip;  // pointer symbols, sense counts
      std::vector<long> senses;
      for (long off = 0; f >> off;) senses.push_back(off);
      if (senses.empty()) continue;
      long first = senses[0];
      auto it = data.find(first);
      if (it == data.end()) continue;
      std::string key = stem(lemma);
      Entry& e = table[key];
      for (const auto& w : it->second.words) {
        if (Plain(w)) Add(e.synonyms, stem(w), key, kMaxSynonyms);
      }
      for (long h : it->second.hypernyms) {
        auto hs = data.find(h);
        if (hs == data.end()) continue;
        for (std::string w : hs->second.words) {
          // "motor_vehicle": its head, "vehicle".
          if (auto u = w.rfind('_'); u != std::string::npos) w = w.substr(u + 1);
          if (Plain(w)) Add(e.hypernyms, stem(w), key, kMaxHypernyms);
        }
      }
      if (std::string(pos) != "noun") continue;
      // Hyponyms, breadth first: the kinds of the thing ("instrument" -> "clarinet").
      std::vector<long> level(senses.begin(),
                              senses.begin() + std::min<size_t>(senses.size(), kHyponymSenses));
      std::set<long> seen(level.begin(), level.end());
      for (int depth = 0; depth < kHyponymDepth && !level.empty(); ++depth) {
        std::vector<long> next;
        for (long o : level) {
          auto ss = data.find(o);
          if (ss == data.end()) continue;
          for (long h : ss->second.hyponyms) {
            if (!seen.insert(h).second) continue;
            next.push_back(h);
            auto hs = data.find(h);
            if (hs == data.end()) continue;
            for (const auto& w : hs->second.words) {
              if (Plain(w)) Add(e.hyponyms, stem(w), key, kMaxHyponyms);
            }
          }
        }
        level = std::move(next);
      }
    }
  }

  std::string text;
  for (const auto& [key, e] : table) {
    if (e.synonyms.empty() && e.hypernyms.empty() && e.hyponyms.empty()) continue;
    text += key + '\t';
    for (size_t i = 0; i < e.synonyms.size(); ++i) text += (i ? " " : "") + e.synonyms[i];
    text += '\t';
    for (size_t i = 0; i < e.hypernyms.size(); ++i) text += (i ? " " : "") + e.hypernyms[i];
    text += '\t';
    for (size_t i = 0; i < e.hyponyms.size(); ++i) text += (i ? " " : "") + e.hyponyms[i];
    text += '\n';
  }
  std::string irregular = IrregularText(dir, stem);
  sb_stemmer_delete(stemmer);
  if (!WriteSource(argv[2], "search", "kSynonymTable", text, dir) ||
      !WriteSource(argv[3], "index", "kIrregularTable", irregular, dir + "/verb.exc")) {
    return 1;
  }
  std::fprintf(stderr, "wordnet_table: %zu entries, %zu bytes; irregular forms %zu bytes\n",
               table.size(), text.size(), irregular.size());
  return 0;
}
