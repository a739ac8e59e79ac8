// Rules on references between records: replaced_by and requires.
#include <set>

#include "doc/slug.h"
#include "lint/rules.h"

namespace lore::lint::detail {
namespace {

using doc::Kind;

// The replaced_by chain from the linted record; an error when it comes back.
void CheckCycle(const Ctx& c, const std::string& first) {
  const std::string& self = c.target.slug;
  std::vector<std::string> chain{self};
  std::set<std::string, std::less<>> seen{self};
  std::string next = first;
  while (!next.empty()) {
    chain.push_back(next);
    if (next == self) {
      std::string path;
      for (size_t i = 0; i < chain.size(); ++i) path += (i ? " -> " : "") + chain[i];
      c.Error("replaced-by-cycle", "replaced_by", c.LineOf("replaced_by"),
              "'replaced_by' forms a cycle: " + path,
              "a record must be replaced by a newer one that is not itself replaced by it: "
              "point replaced_by at the record that stands today");
      return;
    }
    if (!seen.insert(next).second) return;  // a loop elsewhere: its members report it
    const RecordRef* ref = c.view.Find(c.target.kind, next);
    if (!ref) return;
    next = ref->replaced_by;
  }
}

void CheckReplacedBy(const Ctx& c) {
  const doc::Fields& f = c.record.fields;
  const std::string kind(doc::KindName(c.target.kind));
  const int64_t line = c.LineOf("replaced_by");
  if (f.status == "replaced" && !f.replaced_by) {
    c.Error("replaced-status", "replaced_by", c.LineOf("status"),
            "'status' is replaced but 'replaced_by' is missing",
            "add 'replaced_by: <slug of the " + kind +
                " that replaces this one>' (lore memory replace sets both)");
  }
  if (!f.replaced_by) return;
  const std::string& by = *f.replaced_by;
  if (f.status != "replaced") {
    c.Error(
        "replaced-status", "status", line,
        "'replaced_by' is set but 'status' is " + (f.status ? "'" + *f.status + "'" : "missing"),
        "set 'status: replaced', or remove 'replaced_by'");
  }
  if (!doc::IsValidSlug(by)) {
    c.Error("bad-slug", "replaced_by", line, "'replaced_by' names '" + by + "', not a valid slug",
            "write the slug of the " + kind + " that replaces this one (" + doc::kSlugRule + ")");
    return;
  }
  if (by == c.target.slug) {
    c.Error("replaced-by-self", "replaced_by", line, "'replaced_by' names the record itself",
            "name the " + kind + " that replaces this one, or remove replaced_by");
    return;
  }
  if (!c.view.Has(c.target.kind, by)) {
    c.Error("missing-reference", "replaced_by", line,
            "'replaced_by' names " + kind + " '" + by + "', which does not exist",
            "write that " + kind + " first, or correct the slug");
    return;
  }
  CheckCycle(c, by);
}

void CheckRequires(const Ctx& c) {
  const auto& req = c.record.fields.requirements;
  if (c.target.kind != Kind::kWorkflow || !req) return;
  const int64_t line = c.LineOf("requires");
  for (const std::string& slug : *req) {
    if (!doc::IsValidSlug(slug)) {
      c.Error("bad-slug", "requires", line, "'requires' names '" + slug + "', not a valid slug",
              std::string("write knowledge slugs (") + doc::kSlugRule + ")");
    } else if (!c.view.Has(Kind::kKnowledge, slug)) {
      c.Error("missing-reference", "requires", line,
              "'requires' names knowledge page '" + slug + "', which does not exist",
              "write knowledge/" + slug + ".md first, or remove it from requires");
    }
  }
}

}  // namespace

void CheckReferences(const Ctx& c) {
  CheckReplacedBy(c);
  CheckRequires(c);
}

}  // namespace lore::lint::detail
